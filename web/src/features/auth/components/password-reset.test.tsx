import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ModalHost } from '../../../app/modal-host.tsx';
import { ResetPasswordPage } from '../../../app/routes/reset-password.tsx';
import { openModal } from '../../../lib/modals.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { json, mockFetch, noContent } from '../../../test/fetch-mock.ts';
import { renderApp } from '../../../test/render.tsx';

function Status() {
  return <p data-testid="status">{useViewer().status}</p>;
}

const signedOut = { 'GET /api/auth/session': () => json({}) };

describe('Forgot password', () => {
  it('opens from Login, sends the email and says a link is on its way if the account exists', async () => {
    const server = mockFetch({ ...signedOut, 'POST /api/password-reset': () => noContent() });
    renderApp(
      <>
        <Status />
        <ModalHost />
      </>,
    );
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated'));
    openModal('login');
    const user = userEvent.setup();
    const login = await screen.findByRole('dialog', { name: 'Login' });
    await user.click(within(login).getByRole('button', { name: 'Forgot password?' }));
    const reset = await screen.findByRole('dialog', { name: 'Reset your password' });
    await user.type(within(reset).getByLabelText('Email'), 'vera@example');
    await user.click(within(reset).getByRole('button', { name: 'Send link' }));
    expect(server.callsTo('POST', '/api/password-reset')).toHaveLength(0);
    await user.type(within(reset).getByLabelText('Email'), '.com');
    await user.click(within(reset).getByRole('button', { name: 'Send link' }));
    expect(await within(reset).findByText('Check your email')).toBeInTheDocument();
    expect(within(reset).getByText('vera@example.com')).toBeInTheDocument();
    expect(JSON.parse(server.callsTo('POST', '/api/password-reset')[0]?.body ?? '')).toEqual({
      email: 'vera@example.com',
    });
    await user.click(within(reset).getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
  }, 15_000);
});

const renderReset = (search: string) =>
  renderApp(
    <>
      <Routes>
        <Route path="/reset-password" element={<ResetPasswordPage />} />
      </Routes>
      <ModalHost />
    </>,
    { route: `/reset-password${search}` },
  );

describe('/reset-password', () => {
  it('sets the new password with the link’s token, then offers to sign in', async () => {
    const server = mockFetch({ ...signedOut, 'POST /api/password-reset/confirm': () => noContent() });
    renderReset('?token=abc_DEF-123');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Your password is set')).toBeInTheDocument();
    expect(JSON.parse(server.callsTo('POST', '/api/password-reset/confirm')[0]?.body ?? '')).toEqual({
      token: 'abc_DEF-123',
      password: 'a brand new passphrase',
    });
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
  }, 15_000);

  it('says when the link no longer works, and offers a new one; a refused password is said on its field', async () => {
    let attempts = 0;
    mockFetch({
      ...signedOut,
      'POST /api/password-reset/confirm': () =>
        ++attempts === 1
          ? json(
              {
                code: 'INVALID_INPUT',
                field: 'password',
                message: 'This password is one of the most common ones. Choose another.',
              },
              400,
            )
          : json(
              {
                code: 'INVALID_INPUT',
                field: 'token',
                message:
                  'This link does not work any more: it was used already, or it is more than an hour old. Ask for a new one.',
              },
              400,
            ),
    });
    renderReset('?token=old');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(
      await screen.findByText('This password is one of the most common ones. Choose another.'),
    ).toBeInTheDocument();
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'a much better passphrase');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('This link doesn’t work')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ask for a new link' }));
    expect(await screen.findByRole('dialog', { name: 'Reset your password' })).toBeInTheDocument();
  }, 15_000);

  it('a link without a token says so at once', async () => {
    mockFetch(signedOut);
    renderReset('');
    expect(await screen.findByText('This link doesn’t work')).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });
});
