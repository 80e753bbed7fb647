import { AUTH_BASE_PATH, type Session } from '@pipit/contract';
import { getCsrfToken } from './csrf.ts';
import { takeEarly } from './early.ts';

/**
 * The wire side of the session protocol under /api/auth (the one `next-auth/react` v4 speaks, see
 * docs/spec/auth-protocol.md §2–3), so the app does not bundle next-auth. No React here: the
 * session is held as a query by state/viewer.tsx, which listens to `onSessionChange`.
 */

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

/** Whether a storage event is another tab's "the session changed" message. */
export function isSessionBroadcast(event: StorageEvent): boolean {
  if (event.key !== BROADCAST_KEY || !event.newValue) return false;
  try {
    const message = JSON.parse(event.newValue) as { event?: string; data?: unknown };
    return message?.event === 'session' && Boolean(message.data);
  } catch {
    return false;
  }
}

/** Client errors are logged to the console and, like next-auth, to POST /api/auth/_log. */
export function logError(code: 'CLIENT_FETCH_ERROR' | 'CLIENT_SESSION_ERROR', metadata: Record<string, unknown>) {
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
    const res = await ((!init && takeEarly(url)) ||
      fetch(url, {
        method: init?.method ?? 'GET',
        headers: { 'Content-Type': 'application/json' },
        body: init ? JSON.stringify(init.body) : undefined,
      }));
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

type SessionListener = (change: { broadcast: boolean }) => Promise<unknown>;
const listeners = new Set<SessionListener>();

/** Called after this tab signed in or out, to fetch the session again; answers how to stop. */
export function onSessionChange(listener: SessionListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const sessionChanged = (change: { broadcast: boolean }) => Promise.all([...listeners].map((l) => l(change)));

/** POSTs `{csrfToken, data}` to /api/auth/session; resolves to the new session (told to other tabs) or null. */
export async function updateSession(data?: unknown): Promise<Session | null> {
  const csrfToken = await getCsrfToken();
  const session = await fetchData<Session>('session', { method: 'POST', body: { csrfToken, data } });
  if (session) broadcast('getSession');
  return session;
}

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
  email?: string;
  password?: string;
  /** The second step: a code from the authenticator app, or a recovery code (after TwoFactorRequired). */
  totp?: string;
  /** Instead of email and password: a passkey's answer (WebAuthn AuthenticationResponseJSON), as JSON. */
  passkey?: string;
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
  const fields = Object.fromEntries(Object.entries(credentials).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
  const { res, data } = await postForm(`callback/${provider}`, {
    ...fields,
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
  if (ok) await sessionChanged({ broadcast: true });
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
  await sessionChanged({ broadcast: false });
  return data;
}
