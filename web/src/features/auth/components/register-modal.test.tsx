import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ModalHost } from '../../../app/modal-host.tsx';
import { openModal } from '../../../lib/modals.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { deferred, formOf, json, mockFetch } from '../../../test/fetch-mock.ts';
import { ALICE, renderApp, SESSION } from '../../../test/render.tsx';

function Status() {
  return <p data-testid="status">{useViewer().status}</p>;
}

async function openRegister() {
  renderApp(
    <>
      <Status />
      <ModalHost />
    </>,
  );
  await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated'));
  openModal('register');
  return screen.findByRole('dialog', { name: 'Create an account' });
}

async function fill(dialog: HTMLElement, email = 'nia@example.com') {
  const user = userEvent.setup();
  await user.type(within(dialog).getByLabelText('Email'), email);
  await user.type(within(dialog).getByLabelText('Name'), 'Nia Newcomer');
  await user.type(within(dialog).getByLabelText('Username'), 'nia');
  await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery staple');
  return user;
}

describe('Register modal', () => {
  it("creates the account, signs in with the same credentials, toasts 'Account created.' and closes", async () => {
    let session: object = {};
    const server = mockFetch({
      'GET /api/auth/session': () => json(session),
      'POST /api/register': () => json(ALICE, 201),
      'POST /api/auth/callback/credentials': () => {
        session = SESSION;
        return json({ url: 'http://localhost/' });
      },
    });
    const dialog = await openRegister();
    const user = await fill(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('Account created.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('status')).toHaveTextContent('authenticated');

    const [register] = server.callsTo('POST', '/api/register');
    expect(register?.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(register?.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(register?.body ?? '')).toEqual({
      email: 'nia@example.com',
      password: 'correct horse battery staple',
      username: 'nia',
      name: 'Nia Newcomer',
    });
    expect(formOf(server.callsTo('POST', '/api/auth/callback/credentials')[0])).toMatchObject({
      email: 'nia@example.com',
      password: 'correct horse battery staple',
    });
    const order = server.calls.map((c) => `${c.method} ${c.path}`);
    expect(order.indexOf('POST /api/register')).toBeLessThan(order.indexOf('POST /api/auth/callback/credentials'));
  });

  it("still toasts 'Account created.' when the sign-in after registering fails, and opens Login", async () => {
    mockFetch({
      'POST /api/register': () => json(ALICE, 201),
      'POST /api/auth/callback/credentials': () =>
        json({ url: 'http://localhost/api/auth/error?error=CredentialsSignin&provider=credentials' }, 401),
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const dialog = await openRegister();
    const user = await fill(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('Account created.')).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Create an account' })).not.toBeInTheDocument();
    expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated');
    expect(errors).toHaveBeenCalledWith('Sign-in after registering failed:', 'CredentialsSignin');
  });

  it("toasts 'Something went wrong.' when registering fails, stays open and says why under the field", async () => {
    const server = mockFetch({
      'POST /api/register': () =>
        json({ code: 'EMAIL_TAKEN', message: 'An account with this email already exists.', field: 'email' }, 409),
    });
    const dialog = await openRegister();
    const user = await fill(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('Something went wrong.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong.');
    expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription(
      'An account with this email already exists.',
    );
    await waitFor(() => expect(within(dialog).getByLabelText('Email')).toHaveFocus());
    expect(screen.getByRole('dialog', { name: 'Create an account' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Register' })).toBeEnabled();
    expect(within(dialog).getByLabelText('Email')).toBeEnabled();
    expect(server.callsTo('POST', '/api/auth/callback/credentials')).toHaveLength(0);
    expect(screen.queryByText('Account created.')).not.toBeInTheDocument();
  });

  it('is busy while registering: inputs, the Sign In link and the button are disabled', async () => {
    const answer = deferred<Response>();
    mockFetch({ 'POST /api/register': () => answer.promise });
    const dialog = await openRegister();
    const user = await fill(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));

    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Register' })).toBeDisabled());
    for (const label of ['Email', 'Name', 'Username', 'Password']) {
      expect(within(dialog).getByLabelText(label)).toBeDisabled();
    }
    expect(within(dialog).getByRole('button', { name: 'Sign In' })).toBeDisabled();

    answer.resolve(json({ code: 'USERNAME_TAKEN', message: 'This username is taken.' }, 409));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Register' })).toBeEnabled());
    expect(within(dialog).getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(within(dialog).getByText('This username is taken.')).toBeInTheDocument();
  });

  it('shows every problem at once under its field, in plain words, and sends nothing', async () => {
    const server = mockFetch();
    const user = userEvent.setup();
    const dialog = await openRegister();
    await user.type(within(dialog).getByLabelText('Email'), 'nia@example');
    await user.type(within(dialog).getByLabelText('Password'), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));

    expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription('Invalid email');
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('Name is required');
    expect(within(dialog).getByLabelText('Username')).toHaveAccessibleDescription('Username is required');
    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(
      'Password must be at least 8 characters',
    );
    expect(within(dialog).getByLabelText('Email')).toHaveFocus();
    expect(server.callsTo('POST', '/api/register')).toHaveLength(0);

    // A message goes as its field changes.
    await user.type(within(dialog).getByLabelText('Name'), 'Nia');
    expect(within(dialog).getByLabelText('Name')).not.toHaveAccessibleDescription('Name is required');
  });

  it('says the password must not be the email, with the other problems, before sending', async () => {
    const server = mockFetch();
    const user = userEvent.setup();
    const dialog = await openRegister();
    await user.type(within(dialog).getByLabelText('Email'), 'nia@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'Nia@Example.com');
    await user.type(within(dialog).getByLabelText('Name'), '\u200B');
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));

    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription('Password must not be your email');
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription(
      'Name must have letters you can see, not only invisible ones',
    );
    expect(within(dialog).getByLabelText('Username')).toHaveAccessibleDescription('Username is required');
    expect(server.callsTo('POST', '/api/register')).toHaveLength(0);
  });

  it("shows each of the server's problems under its field, without the field prefix", async () => {
    mockFetch({
      'POST /api/register': () =>
        json(
          {
            code: 'INVALID_INPUT',
            message: 'password: This password is one of the most common ones. Choose another.',
            field: 'password',
            issues: [
              { field: 'password', message: 'password: This password is one of the most common ones. Choose another.' },
              { field: 'username', message: 'username: This username is reserved' },
            ],
          },
          400,
        ),
    });
    const dialog = await openRegister();
    const user = await fill(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('Something went wrong.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(
      'This password is one of the most common ones. Choose another.',
    );
    expect(within(dialog).getByLabelText('Username')).toHaveAccessibleDescription('This username is reserved');
    expect(within(dialog).queryByText(/password:/)).not.toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText('Username')).toHaveFocus());
  });

  it("shows 'Invalid email' while typing and sends no request while it is invalid", async () => {
    const server = mockFetch();
    const dialog = await openRegister();
    const user = await fill(dialog, 'nia@example');
    expect(within(dialog).getByText('Invalid email')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));
    await user.type(within(dialog).getByLabelText('Password'), '{Enter}');
    expect(server.callsTo('POST', '/api/register')).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Create an account' })).toBeInTheDocument();
  });
});
