import { AUTH_BASE_PATH, type Session } from '@pipit/contract';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { getCsrfToken } from './csrf.ts';

/**
 * A small client for the session protocol under /api/auth (the one `next-auth/react` v4 speaks,
 * see docs/spec/auth-protocol.md §2–3), so the app does not bundle next-auth.
 */

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface SessionContextValue {
  data: Session | null;
  status: SessionStatus;
  /** POSTs `{csrfToken, data}` to /api/auth/session; resolves to the new session or null. */
  update: (data?: unknown) => Promise<Session | null>;
}

/** The localStorage key next-auth uses to tell other tabs to refetch their session. */
export const BROADCAST_KEY = 'nextauth.message';

type Trigger = 'getSession' | 'signout';

function broadcast(trigger: Trigger) {
  try {
    const message = { event: 'session', data: { trigger }, timestamp: Math.floor(Date.now() / 1000) };
    localStorage.setItem(BROADCAST_KEY, JSON.stringify(message));
  } catch {
    // Storage can be full or disabled; other tabs then catch up on their next focus.
  }
}

/** Client errors are logged to the console and, like next-auth, to POST /api/auth/_log. */
function logError(code: 'CLIENT_FETCH_ERROR' | 'CLIENT_SESSION_ERROR', metadata: Record<string, unknown>) {
  console.error(`[next-auth][error][${code}]`, metadata);
  const body = new URLSearchParams({ level: 'error', code, client: 'true' });
  for (const [key, value] of Object.entries(metadata)) body.set(key, String(value));
  const url = `${AUTH_BASE_PATH}/_log`;
  try {
    if (typeof navigator.sendBeacon === 'function') navigator.sendBeacon(url, body);
    else fetch(url, { method: 'POST', body, keepalive: true }).catch(() => {});
  } catch {
    // Logging must never break the app.
  }
}

/** GET or POST a JSON endpoint of the protocol; `{}` and every failure become null. */
async function fetchData<T extends object>(path: string, init?: { method: 'POST'; body: unknown }): Promise<T | null> {
  const url = `${AUTH_BASE_PATH}/${path}`;
  try {
    const res = await fetch(url, {
      method: init?.method ?? 'GET',
      headers: { 'Content-Type': 'application/json' },
      body: init ? JSON.stringify(init.body) : undefined,
    });
    const data = (await res.json()) as T | null;
    if (!res.ok) throw new Error((data as { message?: string } | null)?.message ?? `HTTP ${res.status}`);
    return data && Object.keys(data).length > 0 ? data : null;
  } catch (error) {
    logError('CLIENT_FETCH_ERROR', { error, url, message: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

/** GET /api/auth/session; tells other tabs to refetch too unless `broadcast` is false. */
export async function getSession({ broadcast: shouldBroadcast = true } = {}): Promise<Session | null> {
  const session = await fetchData<Session>('session');
  if (shouldBroadcast) broadcast('getSession');
  return session;
}

/** Mounted providers, so signIn/signOut can refresh them. */
const mountedRefreshers = new Set<(options: { broadcast: boolean }) => Promise<void>>();
const refreshMounted = (options: { broadcast: boolean }) =>
  Promise.all([...mountedRefreshers].map((refresh) => refresh(options)));

async function postForm(path: string, fields: Record<string, string>) {
  const res = await fetch(`${AUTH_BASE_PATH}/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  const data = (await res.json()) as { url?: string };
  return { res, data };
}

/** Full-page navigation, as next-auth's client does it (an object so tests can watch it). */
export const pageNavigation = {
  go(url: string) {
    window.location.href = url;
    // Assigning a url that differs only by its hash does not reload.
    if (url.includes('#')) window.location.reload();
  },
};
const go = (url: string) => pageNavigation.go(url);

export interface SignInResult {
  error: string | null;
  status: number;
  ok: boolean;
  url: string | null;
  /** Seconds to wait before trying again (the Retry-After of a 429), else null. */
  retryAfter: number | null;
}

/** GET /api/auth/providers: the sign-in providers by id (null when the call fails). */
export const getProviders = () => fetchData<Record<string, { id: string; type: string }>>('providers');

interface SignInOptions {
  email: string;
  password: string;
  callbackUrl?: string;
  /** true (the default) navigates to the answered url; false stays and resolves to the result. */
  redirect?: boolean;
}

/**
 * Credentials sign-in, as next-auth's client does it: the providers first (the call failing sends
 * the page to the auth error page, an unknown provider to the sign-in page), a fresh CSRF token,
 * then the form POST of the protocol. The outcome is read from the query of the answered url
 * (`?error=CredentialsSignin`). Resolves to undefined when the page is being sent elsewhere.
 */
export async function signIn(
  provider: 'credentials',
  { callbackUrl = window.location.href, redirect = true, ...credentials }: SignInOptions,
): Promise<SignInResult | undefined> {
  const providers = await getProviders();
  if (!providers) {
    go(`${AUTH_BASE_PATH}/error`);
    return undefined;
  }
  if (!Object.hasOwn(providers, provider)) {
    go(`${AUTH_BASE_PATH}/signin?${new URLSearchParams({ callbackUrl })}`);
    return undefined;
  }
  const csrfToken = await getCsrfToken({ fresh: true });
  const { res, data } = await postForm(`callback/${provider}`, {
    ...credentials,
    csrfToken,
    callbackUrl,
    json: 'true',
  });
  if (redirect) {
    go(data.url ?? callbackUrl);
    return undefined;
  }
  const url = data.url ?? null;
  const error = url ? new URL(url, window.location.href).searchParams.get('error') : 'NoUrl';
  // A refused CSRF token answers 200 with `/signin?csrf=true`: that is not a sign-in.
  const csrfRefused = url ? new URL(url, window.location.href).searchParams.get('csrf') === 'true' : false;
  const ok = res.ok && !error && !csrfRefused;
  // Unlike next-auth, a sign-in is announced to the other tabs as well.
  if (ok) await refreshMounted({ broadcast: true });
  const retryAfter = res.status === 429 ? Number(res.headers.get('Retry-After')) || null : null;
  return {
    error: error ?? (csrfRefused ? 'CsrfRefused' : null),
    status: res.status,
    ok,
    url: ok ? url : null,
    retryAfter,
  };
}

interface SignOutOptions {
  callbackUrl?: string;
  redirect?: boolean;
}

/** POST /api/auth/signout, tell the other tabs, then go to the answered url (or stay with redirect false). */
export async function signOut({ callbackUrl = window.location.href, redirect = true }: SignOutOptions = {}): Promise<{
  url?: string;
}> {
  const csrfToken = await getCsrfToken({ fresh: true });
  const { data } = await postForm('signout', { csrfToken, callbackUrl, json: 'true' });
  broadcast('signout');
  if (redirect) {
    go(data.url ?? callbackUrl);
    return data;
  }
  await refreshMounted({ broadcast: false });
  return data;
}

const SessionContext = createContext<SessionContextValue | null>(null);

interface SessionProviderProps {
  children: ReactNode;
  /** Poll the session every N seconds while signed in; 0 (the default) never polls. */
  refetchInterval?: number;
  /** Refetch when the tab becomes visible again (on by default). */
  refetchOnWindowFocus?: boolean;
}

export function SessionProvider({ children, refetchInterval = 0, refetchOnWindowFocus = true }: SessionProviderProps) {
  const [state, setState] = useState<{ data: Session | null; loading: boolean }>({ data: null, loading: true });
  const sessionRef = useRef<Session | null>(null);
  // Answers can arrive out of order; only the latest request may set the state.
  const latestRequest = useRef(0);

  const refresh = useCallback(async ({ broadcast: shouldBroadcast }: { broadcast: boolean }) => {
    const request = ++latestRequest.current;
    try {
      const data = await getSession({ broadcast: shouldBroadcast });
      if (request !== latestRequest.current) return;
      sessionRef.current = data;
      setState({ data, loading: false });
    } catch (error) {
      logError('CLIENT_SESSION_ERROR', { message: error instanceof Error ? error.message : String(error) });
      if (request === latestRequest.current) setState((s) => ({ ...s, loading: false }));
    }
  }, []);

  useEffect(() => {
    refresh({ broadcast: true });
    mountedRefreshers.add(refresh);
    const onStorage = (event: StorageEvent) => {
      if (event.key !== BROADCAST_KEY || !event.newValue) return;
      try {
        const message = JSON.parse(event.newValue) as { event?: string; data?: unknown };
        if (message?.event !== 'session' || !message.data) return;
      } catch {
        return;
      }
      // The message only says "something changed": refetch our own session, without echoing.
      refresh({ broadcast: false });
    };
    window.addEventListener('storage', onStorage);
    return () => {
      mountedRefreshers.delete(refresh);
      window.removeEventListener('storage', onStorage);
    };
  }, [refresh]);

  useEffect(() => {
    if (!refetchOnWindowFocus) return;
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refresh({ broadcast: true });
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [refetchOnWindowFocus, refresh]);

  useEffect(() => {
    if (!refetchInterval) return;
    const timer = setInterval(() => {
      if (sessionRef.current) refresh({ broadcast: true });
    }, refetchInterval * 1000);
    return () => clearInterval(timer);
  }, [refetchInterval, refresh]);

  const update = useCallback(async (data?: unknown) => {
    if (!sessionRef.current) return null;
    const csrfToken = await getCsrfToken();
    const session = await fetchData<Session>('session', { method: 'POST', body: { csrfToken, data } });
    if (session) {
      latestRequest.current++;
      sessionRef.current = session;
      setState({ data: session, loading: false });
      broadcast('getSession');
    }
    return session;
  }, []);

  const value = useMemo<SessionContextValue>(
    () => ({
      data: state.data,
      status: state.loading ? 'loading' : state.data ? 'authenticated' : 'unauthenticated',
      update,
    }),
    [state, update],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
