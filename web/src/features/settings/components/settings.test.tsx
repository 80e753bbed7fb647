import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SettingsPage } from '../../../app/routes/settings.tsx';
import { json, mockFetch, noContent } from '../../../test/fetch-mock.ts';
import { ALICE, renderApp, signedInRoutes } from '../../../test/render.tsx';
import { describeBrowser } from './sessions-list.tsx';

const SESSIONS = {
  items: [
    {
      id: '1',
      createdAt: '2026-11-25T10:00:00.000Z',
      lastActiveAt: '2026-11-25T10:00:00.000Z',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/133.0',
      current: true,
    },
    {
      id: '2',
      createdAt: '2026-11-20T10:00:00.000Z',
      lastActiveAt: '2026-11-24T10:00:00.000Z',
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1',
      current: false,
    },
  ],
};

describe('Settings', () => {
  it('names browsers from their User-Agent', () => {
    expect(describeBrowser(SESSIONS.items[0]!.userAgent)).toBe('Firefox on Linux');
    expect(describeBrowser(SESSIONS.items[1]!.userAgent)).toBe('Safari on iOS');
    expect(describeBrowser('Mozilla/5.0 (Windows NT 10.0) Chrome/131.0 Safari/537.36 Edg/131.0')).toBe(
      'Edge on Windows',
    );
    expect(describeBrowser(null)).toBe('An unknown browser');
    expect(describeBrowser('curl/8.0')).toBe('An unknown browser');
  });

  it('changes the password, showing the server’s word on a wrong current one', async () => {
    let attempts = 0;
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/sessions': () => json(SESSIONS),
      'POST /api/settings/password': () =>
        ++attempts === 1
          ? json(
              {
                code: 'INVALID_INPUT',
                field: 'currentPassword',
                message: 'currentPassword: The current password is not right.',
                issues: [{ field: 'currentPassword', message: 'currentPassword: The current password is not right.' }],
              },
              400,
            )
          : noContent(),
    });
    renderApp(<SettingsPage />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Current password'), 'wrong one');
    await user.type(screen.getByLabelText('New password'), 'a fine new passphrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is not right.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), 'the right one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed. Your other sessions were signed out.')).toBeInTheDocument();
    expect(JSON.parse(server.callsTo('POST', '/api/settings/password')[1]?.body ?? '')).toEqual({
      currentPassword: 'the right one',
      newPassword: 'a fine new passphrase',
    });
  }, 15_000);

  it('changes the email with the password; a taken one is said on the field', async () => {
    let attempts = 0;
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/sessions': () => json(SESSIONS),
      'POST /api/settings/email': () =>
        ++attempts === 1
          ? json({ code: 'EMAIL_TAKEN', field: 'email', message: 'An account with this email already exists.' }, 409)
          : json({ ...ALICE, email: 'alice.new@example.com' }),
    });
    renderApp(<SettingsPage />);
    const user = userEvent.setup();
    const email = await screen.findByRole('textbox', { name: 'Email' });
    expect(email).toHaveValue(ALICE.email);
    await user.clear(email);
    await user.type(email, 'bob@example.com');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'my password');
    await user.click(screen.getByRole('button', { name: 'Change email' }));
    expect(await screen.findByText('An account with this email already exists.')).toBeInTheDocument();
    await user.clear(email);
    await user.type(email, 'alice.new@example.com');
    await user.click(screen.getByRole('button', { name: 'Change email' }));
    expect(await screen.findByText('Email changed')).toBeInTheDocument();
    expect(JSON.parse(server.callsTo('POST', '/api/settings/email')[1]?.body ?? '')).toEqual({
      email: 'alice.new@example.com',
      password: 'my password',
    });
  }, 15_000);

  it('lists sessions, this browser first, and signs another one out', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/sessions': () => json(SESSIONS),
      'DELETE /api/sessions/2': () => noContent(),
    });
    renderApp(<SettingsPage />);
    const list = await screen.findByRole('list', { name: 'Signed-in sessions' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Firefox on Linux');
    expect(rows[0]).toHaveTextContent('This browser');
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
    await userEvent.setup().click(within(rows[1]!).getByRole('button', { name: 'Sign out Safari on iOS' }));
    await waitFor(() => expect(server.callsTo('DELETE', '/api/sessions/2')).toHaveLength(1));
    expect(await screen.findByText('Signed out Safari on iOS')).toBeInTheDocument();
  });
});

describe('Settings: your data and deleting the account', () => {
  it('offers the archive as a download, and deletes the account after the password and a confirmation', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/sessions': () => json(SESSIONS),
      'DELETE /api/account': (request) =>
        JSON.parse(request.body ?? '{}').password === 'right one'
          ? noContent()
          : json({ code: 'INVALID_INPUT', field: 'password', message: 'password: The password is not right.' }, 400),
      'GET /api/auth/csrf': () => json({ csrfToken: 'token' }),
      'POST /api/auth/signout': () => json({ url: 'http://localhost/' }),
    });
    renderApp(<SettingsPage />);
    const user = userEvent.setup();
    const download = await screen.findByRole('link', { name: 'Download your data' });
    expect(download).toHaveAttribute('href', '/api/account/export');
    expect(download).toHaveAttribute('download');

    const form = screen.getByRole('form', { name: 'Delete account' });
    await user.type(within(form).getByLabelText('Your password'), 'wrong one');
    await user.click(within(form).getByRole('button', { name: 'Delete account' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await within(form).findByText('The password is not right.')).toBeInTheDocument();

    await user.clear(within(form).getByLabelText('Your password'));
    await user.type(within(form).getByLabelText('Your password'), 'right one');
    await user.click(within(form).getByRole('button', { name: 'Delete account' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete your account?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('Your account was deleted')).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo('POST', '/api/auth/signout')).toHaveLength(1));
    expect(server.callsTo('DELETE', '/api/account')).toHaveLength(2);
  }, 20_000);
});

describe('Settings: appearance', () => {
  it('applies the chosen theme at once and keeps it in this browser; "Follow the system" forgets the choice', async () => {
    mockFetch({ ...signedInRoutes(), 'GET /api/sessions': () => json(SESSIONS) });
    localStorage.removeItem('pipit.theme');
    renderApp(<SettingsPage />);
    const user = userEvent.setup();
    const system = await screen.findByRole('radio', { name: 'Follow the system' });
    expect(system).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem('pipit.theme')).toBe('light');
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    await user.click(system);
    expect(localStorage.getItem('pipit.theme')).toBeNull();
    // jsdom has no system preference: dark, the app's own default.
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('turns Approve followers on and off through the profile edit', async () => {
    let locked = false;
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/current': () => json({ ...ALICE, locked }),
      'GET /api/sessions': () => json(SESSIONS),
      'PATCH /api/edit': (call) => {
        locked = (JSON.parse(call.body ?? '{}') as { locked: boolean }).locked;
        return json({ ...ALICE, locked });
      },
    });
    const user = userEvent.setup();
    renderApp(<SettingsPage />);
    const box = await screen.findByRole('checkbox', { name: 'Approve followers' });
    expect(box).not.toBeChecked();
    await user.click(box);
    await waitFor(() => expect(box).toBeChecked());
    expect(server.callsTo('PATCH', '/api/edit')).toHaveLength(1);
    expect(await screen.findByRole('link', { name: 'See follow requests' })).toHaveAttribute(
      'href',
      '/follow-requests',
    );
    await user.click(box);
    await waitFor(() => expect(box).not.toBeChecked());
    expect(locked).toBe(false);
  });
});

describe('Settings: default post visibility', () => {
  it('shows the saved default, sends the new one on Save and says so; a failure keeps the choice and says so', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/sessions': () => json(SESSIONS),
      'PATCH /api/edit': () => json({ code: 'INTERNAL', message: 'Something went wrong' }, 500),
    });
    renderApp(<SettingsPage />);
    const user = userEvent.setup();
    const group = await screen.findByRole('group', { name: 'Default post visibility' });
    expect(within(group).getByRole('radio', { name: 'Public' })).toBeChecked();
    const followers = within(group).getByRole('radio', { name: 'Followers only' });
    expect(followers).toHaveAccessibleDescription('Only your followers and people you mention');
    const section = screen.getByRole('region', { name: 'Posts' });
    const save = within(section).getByRole('button', { name: 'Save' });
    expect(save, 'nothing changed yet').toBeDisabled();

    await user.click(followers);
    await user.click(save);
    expect(await screen.findByText('Couldn’t save your default visibility. Try again.')).toBeInTheDocument();
    expect(followers).toBeChecked();

    server.on('PATCH /api/edit', () => json({ ...ALICE, defaultVisibility: 'followers' }));
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Default visibility saved: Followers only')).toBeInTheDocument();
    expect(JSON.parse(server.callsTo('PATCH', '/api/edit')[1]?.body ?? '')).toEqual({ defaultVisibility: 'followers' });
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Save' })).toBeDisabled());
  });
});
