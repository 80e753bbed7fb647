import { vi } from 'vitest';

/** What the app sent: method, path, query, headers and the body as text. */
export interface Call {
  method: string;
  path: string;
  url: URL;
  headers: Headers;
  body: string | null;
  /** A multipart body, as sent. */
  form: FormData | null;
}

type Handler = (call: Call) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const noContent = () => new Response(null, { status: 204 });

/** A promise to settle by hand, to hold a request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const defaults: Record<string, Handler> = {
  'GET /api/auth/csrf': () => json({ csrfToken: 'csrf-1' }),
  'GET /api/auth/session': () => json({}),
  'GET /api/auth/providers': () =>
    json({ credentials: { id: 'credentials', name: 'Credentials', type: 'credentials' } }),
  'POST /api/auth/_log': () => new Response(null, { status: 200 }),
  'GET /api/users': () => json([]),
  'GET /api/current': () => json({ code: 'UNAUTHENTICATED', message: 'Sign in first' }, 401),
};

/**
 * Replaces `fetch`, the app's only door to the outside world, with a router of canned answers
 * ("METHOD /path" → handler; the defaults answer a signed-out visitor) and records every call.
 */
export function mockFetch(routes: Record<string, Handler> = {}) {
  const calls: Call[] = [];
  const handlers = { ...defaults, ...routes };
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const form = init?.body instanceof FormData ? init.body : null;
    const body = init?.body == null || form ? null : String(init.body);
    const call = { method, path: url.pathname, url, headers: new Headers(init?.headers), body, form };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`];
    if (!handler) return json({ code: 'NOT_FOUND', message: `no mock for ${method} ${url.pathname}` }, 404);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetch);
  return {
    calls,
    /** Calls to one endpoint, e.g. callsTo('POST', '/api/register'). */
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
    /** Replaces or adds a handler mid-test. */
    on: (key: string, handler: Handler) => {
      handlers[key] = handler;
    },
  };
}

/** Form fields of a form-encoded body. */
export const formOf = (call: Call | undefined) => Object.fromEntries(new URLSearchParams(call?.body ?? ''));
