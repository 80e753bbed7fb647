import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ModalHost } from '../../../app/modal-host.tsx';
import { openModal } from '../../../lib/modals.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { deferred, formOf, json, mockFetch } from '../../../test/fetch-mock.ts';
import { renderApp, SESSION } from '../../../test/render.tsx';

function Status() {
  return <p data-testid="status">{useViewer().status}</p>;
}

async function openLogin() {
  renderApp(
    <>
      <Status />
      <ModalHost />
    </>,
  );
  await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated'));
  openModal('login');
  return screen.findByRole('dialog', { name: 'Login' });
}

const FAILED = { url: 'http://localhost/api/auth/error?error=CredentialsSignin&provider=credentials' };

describe('Login modal', () => {
  it("shows 'Invalid email' while typing and sends nothing while the email is invalid", async () => {
    const server = mockFetch();
    const user = userEvent.setup();
    const login = await openLogin();
    const email = within(login).getByLabelText('Email');

    await user.type(email, 'vera@example');
    expect(within(login).getByText('Invalid email')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await user.type(within(login).getByLabelText('Password'), 'correct horse{Enter}');
    await user.click(within(login).getByRole('button', { name: 'Sign In' }));
    expect(server.callsTo('POST', '/api/auth/callback/credentials')).toHaveLength(0);

    await user.type(email, '.com');
    expect(within(login).queryByText('Invalid email')).not.toBeInTheDocument();
  });

  it("shows 'Invalid email' when submitted empty", async () => {
    const server = mockFetch();
    const user = userEvent.setup();
    const login = await openLogin();
    await user.click(within(login).getByRole('button', { name: 'Sign In' }));
    expect(within(login).getByText('Invalid email')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('is busy while signing in: inputs, the link and the button are disabled until the answer', async () => {
    const answer = deferred<Response>();
    mockFetch({ 'POST /api/auth/callback/credentials': () => answer.promise });
    // The failed sign-in below is logged; keep the test output quiet.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const login = await openLogin();
    await user.type(within(login).getByLabelText('Email'), 'vera@example.com');
    await user.type(within(login).getByLabelText('Password'), 'wrong password');
    await user.click(within(login).getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(within(login).getByRole('button', { name: 'Sign In' })).toBeDisabled());
    expect(within(login).getByLabelText('Email')).toBeDisabled();
    expect(within(login).getByLabelText('Password')).toBeDisabled();
    expect(within(login).getByRole('button', { name: 'Create an account' })).toBeDisabled();

    answer.resolve(json(FAILED, 401));
    await waitFor(() => expect(within(login).getByRole('button', { name: 'Sign In' })).toBeEnabled());
    expect(within(login).getByLabelText('Email')).toBeEnabled();
    expect(within(login).getByLabelText('Password')).toBeEnabled();
    expect(within(login).getByRole('button', { name: 'Create an account' })).toBeEnabled();
  });

  it("says 'Wrong email or password.' (and logs it), keeps what was typed, focus in the modal, Escape closes", async () => {
    mockFetch({ 'POST /api/auth/callback/credentials': () => json(FAILED, 401) });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const login = await openLogin();
    await user.type(within(login).getByLabelText('Email'), 'vera@example.com');
    await user.type(within(login).getByLabelText('Password'), 'wrong password');
    await user.click(within(login).getByRole('button', { name: 'Sign In' }));

    expect(await within(login).findByRole('alert')).toHaveTextContent('Wrong email or password.');
    expect(errors).toHaveBeenCalledWith('Sign-in failed:', 'CredentialsSignin');
    expect(screen.getByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    expect(within(login).getByLabelText('Email')).toHaveValue('vera@example.com');
    await waitFor(() => expect(within(login).getByLabelText('Password')).toHaveFocus());

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says the account is suspended when the right password meets a suspended account', async () => {
    const suspended = { url: 'http://localhost/api/auth/error?error=AccountSuspended&provider=credentials' };
    mockFetch({ 'POST /api/auth/callback/credentials': () => json(suspended, 401) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const login = await openLogin();
    await user.type(within(login).getByLabelText('Email'), 'bob@example.com');
    await user.type(within(login).getByLabelText('Password'), 'the right password');
    await user.click(within(login).getByRole('button', { name: 'Sign In' }));
    expect(await within(login).findByRole('alert')).toHaveTextContent('This account is suspended.');
  });

  it('says when to try again after too many attempts', async () => {
    mockFetch({
      'POST /api/auth/callback/credentials': () =>
        new Response(
          JSON.stringify({
            code: 'RATE_LIMITED',
            message: 'Too many requests. Try again in 240 seconds.',
            url: 'http://localhost/api/auth/error?error=RateLimited',
          }),
          { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '240' } },
        ),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const login = await openLogin();
    await user.type(within(login).getByLabelText('Email'), 'vera@example.com');
    await user.type(within(login).getByLabelText('Password'), 'wrong password{Enter}');
    expect(await within(login).findByRole('alert')).toHaveTextContent(
      'Too many sign-in attempts. Try again in 4 minutes.',
    );
  });

  it('Escape still closes it when focus fell out of the form during a failed sign-in', async () => {
    const answer = deferred<Response>();
    mockFetch({ 'POST /api/auth/callback/credentials': () => answer.promise });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const login = await openLogin();
    await user.type(within(login).getByLabelText('Email'), 'vera@example.com');
    await user.type(within(login).getByLabelText('Password'), 'wrong password');
    await user.click(within(login).getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(within(login).getByRole('button', { name: 'Sign In' })).toBeDisabled());
    answer.resolve(json(FAILED, 401));
    await within(login).findByRole('alert');
    // What a browser does when the focused button is disabled: focus falls to the page.
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says why it opened when the protocol sent the page here with an error', async () => {
    mockFetch();
    renderApp(<ModalHost />, { route: '/?callbackUrl=%2F&error=CredentialsSignin' });
    const login = await screen.findByRole('dialog', { name: 'Login' });
    expect(login).toHaveTextContent('Wrong email or password.');
  });

  it('says it could not sign in when the request itself fails', async () => {
    mockFetch({ 'POST /api/auth/callback/credentials': () => Promise.reject(new TypeError('Failed to fetch')) });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const login = await openLogin();
    await user.type(within(login).getByLabelText('Email'), 'vera@example.com');
    await user.type(within(login).getByLabelText('Password'), 'correct horse{Enter}');
    expect(await within(login).findByRole('alert')).toHaveTextContent('Couldn’t sign in. Try again.');
    expect(errors).toHaveBeenCalledWith('Sign-in failed:', expect.any(TypeError));
    expect(within(login).getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it("checks the address as typed: 'a@bü.de' is an invalid email", async () => {
    const server = mockFetch();
    const user = userEvent.setup();
    const login = await openLogin();
    const email = within(login).getByLabelText('Email');
    expect(email).toHaveAttribute('type', 'text');
    expect(email).toHaveAttribute('inputmode', 'email');
    await user.type(email, 'a@bü.de');
    expect(within(login).getByText('Invalid email')).toBeInTheDocument();
    await user.type(within(login).getByLabelText('Password'), 'correct horse{Enter}');
    expect(server.callsTo('POST', '/api/auth/callback/credentials')).toHaveLength(0);
  });

  it('signs in with the credentials form and closes', async () => {
    let session: object = {};
    const server = mockFetch({
      'GET /api/auth/session': () => json(session),
      'POST /api/auth/callback/credentials': () => {
        session = SESSION;
        return json({ url: 'http://localhost/' });
      },
    });
    const user = userEvent.setup();
    const login = await openLogin();
    await user.type(within(login).getByLabelText('Email'), ' alice@example.com ');
    await user.type(within(login).getByLabelText('Password'), 'correct horse battery staple');
    await user.click(within(login).getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('status')).toHaveTextContent('authenticated');
    expect(formOf(server.callsTo('POST', '/api/auth/callback/credentials')[0])).toMatchObject({
      email: 'alice@example.com',
      password: 'correct horse battery staple',
      csrfToken: 'csrf-1',
      json: 'true',
    });
  });
});

describe('Login modal: two-factor sign-in', () => {
  const REQUIRED = { url: 'http://localhost/api/auth/error?error=TwoFactorRequired&provider=credentials' };
  const INVALID = { url: 'http://localhost/api/auth/error?error=TwoFactorInvalid&provider=credentials' };

  it('asks for the code after a right password, then sends the password again with it and closes', async () => {
    let session: object = {};
    const server = mockFetch({
      'GET /api/auth/session': () => json(session),
      'POST /api/auth/callback/credentials': (request) => {
        const form = new URLSearchParams(request.body ?? '');
        if (!form.get('totp')) return json(REQUIRED, 401);
        if (form.get('totp') !== '123456') return json(INVALID, 401);
        session = SESSION;
        return json({ url: 'http://localhost/' });
      },
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const login = await openLogin();
    await user.type(within(login).getByLabelText('Email'), 'alice@example.com');
    await user.type(within(login).getByLabelText('Password'), 'correct horse battery staple{Enter}');

    const code = await within(login).findByLabelText('Two-factor code');
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(login).toHaveTextContent('Enter the 6-digit code from your authenticator app for alice@example.com.');
    expect(within(login).queryByRole('alert')).not.toBeInTheDocument();

    await user.type(code, '000000{Enter}');
    expect(await within(login).findByRole('alert')).toHaveTextContent('That code isn’t right, or it was used already.');
    expect(within(login).getByLabelText('Two-factor code')).toHaveValue('000000');

    await user.clear(within(login).getByLabelText('Two-factor code'));
    await user.type(within(login).getByLabelText('Two-factor code'), '123456');
    await user.click(within(login).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('status')).toHaveTextContent('authenticated');
    const posts = server.callsTo('POST', '/api/auth/callback/credentials').map(formOf);
    expect(posts).toHaveLength(3);
    expect(posts[0]).not.toHaveProperty('totp');
    expect(posts[2]).toMatchObject({
      email: 'alice@example.com',
      password: 'correct horse battery staple',
      totp: '123456',
    });
  });

  it('sends nothing while the code is empty; Back returns to the password', async () => {
    const server = mockFetch({ 'POST /api/auth/callback/credentials': () => json(REQUIRED, 401) });
    const user = userEvent.setup();
    const login = await openLogin();
    await user.type(within(login).getByLabelText('Email'), 'alice@example.com');
    await user.type(within(login).getByLabelText('Password'), 'correct horse battery staple{Enter}');
    await within(login).findByLabelText('Two-factor code');
    await user.click(within(login).getByRole('button', { name: 'Verify' }));
    expect(within(login).getByText('Enter the code')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/auth/callback/credentials')).toHaveLength(1);
    await user.click(within(login).getByRole('button', { name: 'Back' }));
    expect(within(login).getByLabelText('Password')).toHaveValue('correct horse battery staple');
    expect(within(login).queryByLabelText('Two-factor code')).not.toBeInTheDocument();
  });
});
