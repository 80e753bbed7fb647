import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BROADCAST_KEY, pageNavigation, signIn, signOut } from '../lib/session.ts';
import { formOf, json, mockFetch } from '../test/fetch-mock.ts';
import { SESSION } from '../test/render.tsx';
import { useUpdateSession, useViewer, ViewerSync } from './viewer.tsx';

function Probe() {
  const { status, session: data } = useViewer();
  const update = useUpdateSession();
  return (
    <div>
      <p data-testid="status">{status}</p>
      <p data-testid="name">{data?.user.name ?? ''}</p>
      <button type="button" onClick={() => update({ name: 'Alicia' })}>
        update
      </button>
    </div>
  );
}

/** The session as the app holds it: a query, kept current by <ViewerSync>. */
function renderViewer(sync: { refetchInterval?: number; refetchOnWindowFocus?: boolean } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <Probe />
      <ViewerSync {...sync} />
    </QueryClientProvider>,
  );
}

const status = () => screen.getByTestId('status').textContent;

function signedInServer() {
  return mockFetch({ 'GET /api/auth/session': () => json(SESSION) });
}

function otherTabSays(key: string, value: unknown) {
  window.dispatchEvent(
    new StorageEvent('storage', { key, newValue: typeof value === 'string' ? value : JSON.stringify(value) }),
  );
}

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

afterEach(() => {
  vi.useRealTimers();
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
});

describe('the viewer (session client)', () => {
  it('moves from loading to authenticated and tells other tabs it fetched', async () => {
    const server = signedInServer();
    renderViewer();
    expect(status()).toBe('loading');
    await waitFor(() => expect(status()).toBe('authenticated'));
    expect(screen.getByTestId('name')).toHaveTextContent('Alice');
    expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(1);
    const message = JSON.parse(localStorage.getItem(BROADCAST_KEY) ?? '{}');
    expect(message).toMatchObject({ event: 'session', data: { trigger: 'getSession' } });
    expect(typeof message.timestamp).toBe('number');
  });

  it('is unauthenticated when the server answers {}', async () => {
    mockFetch();
    renderViewer();
    await waitFor(() => expect(status()).toBe('unauthenticated'));
  });

  it('treats a failing session call as signed out and logs CLIENT_FETCH_ERROR', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = mockFetch({ 'GET /api/auth/session': () => json({ message: 'down' }, 500) });
    renderViewer();
    await waitFor(() => expect(status()).toBe('unauthenticated'));
    expect(errors.mock.calls[0]?.[0]).toContain('CLIENT_FETCH_ERROR');
    await waitFor(() => expect(server.callsTo('POST', '/api/auth/_log')).toHaveLength(1));
    expect(formOf(server.callsTo('POST', '/api/auth/_log')[0])).toMatchObject({
      level: 'error',
      code: 'CLIENT_FETCH_ERROR',
      url: '/api/auth/session',
      client: 'true',
    });
  });

  it('refetches when the window becomes visible again', async () => {
    const server = signedInServer();
    renderViewer();
    await waitFor(() => expect(status()).toBe('authenticated'));
    act(() => setVisibility('hidden'));
    expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(1);
    act(() => setVisibility('visible'));
    await waitFor(() => expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(2));
  });

  it('does not refetch on focus when refetchOnWindowFocus is off', async () => {
    const server = signedInServer();
    renderViewer({ refetchOnWindowFocus: false });
    await waitFor(() => expect(status()).toBe('authenticated'));
    act(() => setVisibility('visible'));
    await new Promise((r) => setTimeout(r, 20));
    expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(1);
  });

  it('refetches on a nextauth.message storage event from another tab, without echoing it', async () => {
    let answer: object = SESSION;
    const server = mockFetch({ 'GET /api/auth/session': () => json(answer) });
    renderViewer();
    await waitFor(() => expect(status()).toBe('authenticated'));
    localStorage.removeItem(BROADCAST_KEY);

    answer = {};
    act(() => otherTabSays(BROADCAST_KEY, { event: 'session', data: { trigger: 'signout' }, timestamp: 1 }));
    await waitFor(() => expect(status()).toBe('unauthenticated'));
    expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(2);
    expect(localStorage.getItem(BROADCAST_KEY)).toBeNull();
  });

  it('ignores other storage keys and messages that are not session events', async () => {
    const server = signedInServer();
    renderViewer();
    await waitFor(() => expect(status()).toBe('authenticated'));
    act(() => {
      otherTabSays('something.else', { event: 'session', data: {} });
      otherTabSays(BROADCAST_KEY, { event: 'other', data: {} });
      otherTabSays(BROADCAST_KEY, { event: 'session' });
      otherTabSays(BROADCAST_KEY, 'not json');
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(1);
  });

  it('polls on the refetch interval while signed in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = signedInServer();
    renderViewer({ refetchInterval: 30 });
    await waitFor(() => expect(status()).toBe('authenticated'));
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(2));
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await waitFor(() => expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(3));
  });

  it('does not poll while signed out', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = mockFetch();
    renderViewer({ refetchInterval: 30 });
    await waitFor(() => expect(status()).toBe('unauthenticated'));
    await act(() => vi.advanceTimersByTimeAsync(90_000));
    expect(server.callsTo('GET', '/api/auth/session')).toHaveLength(1);
  });

  it('signIn posts the credentials form and refreshes the session', async () => {
    let answer: object = {};
    const server = mockFetch({
      'GET /api/auth/session': () => json(answer),
      'POST /api/auth/callback/credentials': () => {
        answer = SESSION;
        return json({ url: 'http://localhost/' });
      },
    });
    renderViewer();
    await waitFor(() => expect(status()).toBe('unauthenticated'));
    let result: Awaited<ReturnType<typeof signIn>>;
    await act(async () => {
      result = await signIn('credentials', { email: 'alice@example.com', password: 'pw-123456', redirect: false });
    });
    expect(result!).toEqual({ error: null, status: 200, ok: true, url: 'http://localhost/', retryAfter: null });
    const order = server.calls.map((c) => `${c.method} ${c.path}`);
    expect(order.indexOf('GET /api/auth/providers')).toBeLessThan(order.indexOf('GET /api/auth/csrf'));
    const [post] = server.callsTo('POST', '/api/auth/callback/credentials');
    expect(post?.headers.get('Content-Type')).toBe('application/x-www-form-urlencoded');
    expect(formOf(post)).toEqual({
      email: 'alice@example.com',
      password: 'pw-123456',
      csrfToken: 'csrf-1',
      callbackUrl: window.location.href,
      json: 'true',
    });
    await waitFor(() => expect(status()).toBe('authenticated'));
  });

  it('signIn reads a failure from the query of the answered url', async () => {
    mockFetch({
      'POST /api/auth/callback/credentials': () =>
        json({ url: 'http://localhost/api/auth/error?error=CredentialsSignin&provider=credentials' }, 401),
    });
    const result = await signIn('credentials', { email: 'a@b.co', password: 'wrong', redirect: false });
    expect(result).toEqual({ error: 'CredentialsSignin', status: 401, ok: false, url: null, retryAfter: null });
  });

  it('signIn reports a rate limit with its Retry-After', async () => {
    mockFetch({
      'POST /api/auth/callback/credentials': () =>
        new Response(
          JSON.stringify({
            code: 'RATE_LIMITED',
            message: 'Too many requests. Try again in 90 seconds.',
            url: 'http://localhost/api/auth/error?error=RateLimited',
          }),
          { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '90' } },
        ),
    });
    const result = await signIn('credentials', { email: 'a@b.co', password: 'pw', redirect: false });
    expect(result).toEqual({ error: 'RateLimited', status: 429, ok: false, url: null, retryAfter: 90 });
  });

  it('signIn asks for the providers first: when that fails it goes to the auth error page and posts nothing', async () => {
    const server = mockFetch({ 'GET /api/auth/providers': () => json({ message: 'down' }, 500) });
    const go = vi.spyOn(pageNavigation, 'go').mockImplementation(() => {});
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await signIn('credentials', { email: 'a@b.co', password: 'pw', redirect: false });
    expect(result).toBeUndefined();
    expect(go).toHaveBeenCalledWith('/api/auth/error');
    expect(errors).toHaveBeenCalledWith('[next-auth][error][CLIENT_FETCH_ERROR]', expect.anything());
    expect(server.callsTo('POST', '/api/auth/callback/credentials')).toHaveLength(0);
  });

  it('signIn with a provider the server does not offer goes to the sign-in page with the callbackUrl', async () => {
    const server = mockFetch({ 'GET /api/auth/providers': () => json({ github: { id: 'github', type: 'oauth' } }) });
    const go = vi.spyOn(pageNavigation, 'go').mockImplementation(() => {});
    const result = await signIn('credentials', {
      email: 'a@b.co',
      password: 'pw',
      redirect: false,
      callbackUrl: 'http://localhost/notifications',
    });
    expect(result).toBeUndefined();
    expect(go).toHaveBeenCalledWith(
      `/api/auth/signin?callbackUrl=${encodeURIComponent('http://localhost/notifications')}`,
    );
    expect(server.callsTo('POST', '/api/auth/callback/credentials')).toHaveLength(0);
  });

  it('signOut posts the form, tells other tabs, and ends the session', async () => {
    let answer: object = SESSION;
    const server = mockFetch({
      'GET /api/auth/session': () => json(answer),
      'POST /api/auth/signout': () => {
        answer = {};
        return json({ url: 'http://localhost/somewhere' });
      },
    });
    renderViewer();
    await waitFor(() => expect(status()).toBe('authenticated'));
    let result: { url?: string } = {};
    await act(async () => {
      result = await signOut({ redirect: false, callbackUrl: 'http://localhost/somewhere' });
    });
    expect(result).toEqual({ url: 'http://localhost/somewhere' });
    expect(formOf(server.callsTo('POST', '/api/auth/signout')[0])).toEqual({
      csrfToken: 'csrf-1',
      callbackUrl: 'http://localhost/somewhere',
      json: 'true',
    });
    expect(JSON.parse(localStorage.getItem(BROADCAST_KEY) ?? '{}')).toMatchObject({
      event: 'session',
      data: { trigger: 'signout' },
    });
    await waitFor(() => expect(status()).toBe('unauthenticated'));
  });

  it('update() posts the csrf token and data as JSON and takes the new session', async () => {
    const server = mockFetch({
      'GET /api/auth/session': () => json(SESSION),
      'POST /api/auth/session': () => json({ ...SESSION, user: { ...SESSION.user, name: 'Alicia' } }),
    });
    renderViewer();
    await waitFor(() => expect(status()).toBe('authenticated'));
    act(() => screen.getByRole('button', { name: 'update' }).click());
    await waitFor(() => expect(screen.getByTestId('name')).toHaveTextContent('Alicia'));
    const [post] = server.callsTo('POST', '/api/auth/session');
    expect(post?.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(post?.body ?? '')).toEqual({ csrfToken: 'csrf-1', data: { name: 'Alicia' } });
  });
});
