import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formOf, json, mockFetch } from '../../test/fetch-mock.ts';
import { renderApp, SESSION, signedInRoutes } from '../../test/render.tsx';
import { ModalHost } from '../modal-host.tsx';
import { NotificationsPage } from '../routes/notifications.tsx';
import { SideNav } from './side-nav.tsx';

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

/** The app at /notifications; the browser's address matches the router's, as in the real app. */
function renderAtNotifications() {
  window.history.replaceState(null, '', '/notifications');
  return renderApp(
    <Routes>
      <Route
        path="*"
        element={
          <>
            <SideNav />
            <Where />
            <NotificationsPage />
            <ModalHost />
          </>
        }
      />
    </Routes>,
    { route: '/notifications' },
  );
}

function signedInServer() {
  let session: object = SESSION;
  const server = mockFetch({
    ...signedInRoutes(),
    'GET /api/auth/session': () => json(session),
    'GET /api/notifications': () => json({ items: [], nextCursor: null }),
    'POST /api/notifications/read': () => new Response(null, { status: 204 }),
    'POST /api/auth/signout': (call) => {
      session = {};
      return json({ url: formOf(call).callbackUrl });
    },
  });
  return server;
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('signing out', () => {
  it('stays on the page it was on (the url the server answers); Notifications then asks to sign in', async () => {
    const server = signedInServer();
    const user = userEvent.setup();
    renderAtNotifications();
    await screen.findByText('No notifications yet');
    await user.click(screen.getByRole('button', { name: 'Logout' }));

    expect(await screen.findByRole('dialog', { name: 'Login' })).toHaveTextContent('Sign in to see this page.');
    expect(formOf(server.callsTo('POST', '/api/auth/signout')[0]).callbackUrl).toBe(
      `${window.location.origin}/notifications`,
    );
    const where = new URL(screen.getByTestId('where').textContent ?? '', 'http://localhost');
    expect(where.pathname).toBe('/notifications');
    expect(where.searchParams.get('error')).toBe('SessionRequired');
    expect(screen.getByText('Sign in to see your notifications')).toBeInTheDocument();

    // Nothing of the member's is asked for once signed out.
    const after = server.calls.slice(server.calls.findIndex((c) => c.path === '/api/auth/signout'));
    expect(
      after.filter((c) => ['/api/notifications', '/api/current'].includes(c.path)).map((c) => `${c.method} ${c.path}`),
    ).toEqual([]);
  });

  it('asks for confirmation on a phone first', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width'), media: query }));
    const server = signedInServer();
    const user = userEvent.setup();
    renderAtNotifications();
    await screen.findByText('No notifications yet');
    await user.click(screen.getByRole('button', { name: 'Logout' }));

    const confirm = await screen.findByRole('dialog', { name: 'Sign out of Pipit?' });
    expect(server.callsTo('POST', '/api/auth/signout')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('POST', '/api/auth/signout')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    const again = await screen.findByRole('dialog', { name: 'Sign out of Pipit?' });
    await user.click(within(again).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/auth/signout')).toHaveLength(1));
    await screen.findByRole('dialog', { name: 'Login' });
  });
});

describe('Notifications for a visitor', () => {
  it('carries error=SessionRequired and the callbackUrl, and opens Login over the page', async () => {
    mockFetch();
    renderAtNotifications();
    const login = await screen.findByRole('dialog', { name: 'Login' });
    expect(login).toHaveTextContent('Sign in to see this page.');
    const where = new URL(screen.getByTestId('where').textContent ?? '', 'http://localhost');
    expect(where.pathname).toBe('/notifications');
    expect(where.searchParams.get('error')).toBe('SessionRequired');
    expect(where.searchParams.get('callbackUrl')).toBe(`${window.location.origin}/notifications`);
  });
});
