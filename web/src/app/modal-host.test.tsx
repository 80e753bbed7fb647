import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { openModal } from '../lib/modals.ts';
import { json, mockFetch } from '../test/fetch-mock.ts';
import { renderApp, SESSION } from '../test/render.tsx';
import { ModalHost } from './modal-host.tsx';

function Opener() {
  return (
    <button type="button" onClick={() => openModal('login')}>
      Open login
    </button>
  );
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

describe('the app-wide modals', () => {
  it('switch between Login and Register through their footer links, and give focus back to the opener', async () => {
    mockFetch();
    const user = userEvent.setup();
    renderApp(
      <>
        <Opener />
        <ModalHost />
      </>,
    );
    const opener = screen.getByRole('button', { name: 'Open login' });
    await user.click(opener);

    const login = await screen.findByRole('dialog', { name: 'Login' });
    expect(login).toHaveAttribute('aria-modal', 'true');
    // Focus moves in an effect after the dialog appears: wait for it rather than race it.
    await waitFor(() => expect(within(login).getByLabelText('Email')).toHaveFocus());
    expect(login).toHaveTextContent('First time using Pipit?');
    await user.click(within(login).getByRole('button', { name: 'Create an account' }));

    const register = await screen.findByRole('dialog', { name: 'Create an account' });
    expect(screen.queryByRole('dialog', { name: 'Login' })).not.toBeInTheDocument();
    for (const label of ['Email', 'Name', 'Username', 'Password']) {
      expect(within(register).getByLabelText(label)).toBeInTheDocument();
    }
    expect(within(register).getByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(register).toHaveTextContent('Already have an account?');
    await user.click(within(register).getByRole('button', { name: 'Sign In' }));

    const loginAgain = await screen.findByRole('dialog', { name: 'Login' });
    expect(screen.queryByRole('dialog', { name: 'Create an account' })).not.toBeInTheDocument();
    await user.click(within(loginAgain).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('closes on Escape and keeps Tab inside the dialog', async () => {
    mockFetch();
    const user = userEvent.setup();
    renderApp(
      <>
        <Opener />
        <ModalHost />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Open login' }));
    const login = await screen.findByRole('dialog', { name: 'Login' });
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(login.contains(document.activeElement)).toBe(true);
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('opens Login when the server sent a sign-in back with callbackUrl, and drops the query on close', async () => {
    mockFetch();
    const user = userEvent.setup();
    renderApp(
      <>
        <Where />
        <ModalHost />
      </>,
      { route: '/?callbackUrl=%2Fnotifications&error=SessionRequired' },
    );
    await screen.findByRole('dialog', { name: 'Login' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('goes to the callback once signed in, and never loops on a callback that asks for sign-in again', async () => {
    mockFetch({ 'GET /api/auth/session': () => json(SESSION) });
    renderApp(
      <>
        <Where />
        <ModalHost />
      </>,
      { route: `/?callbackUrl=${encodeURIComponent('/notifications?callbackUrl=%2F')}` },
    );
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/notifications$/));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stays on the page instead of following a callback to another site', async () => {
    mockFetch({ 'GET /api/auth/session': () => json(SESSION) });
    renderApp(
      <>
        <Where />
        <ModalHost />
      </>,
      { route: `/posts/5?callbackUrl=${encodeURIComponent('https://evil.example/x')}` },
    );
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/posts\/5$/));
  });
});
