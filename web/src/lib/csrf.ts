import { AUTH_BASE_PATH } from '@pipit/contract';

let pending: Promise<string> | null = null;

/**
 * The CSRF token of GET /api/auth/csrf. It is stable for the browser session (the server reuses
 * its cookie), so one request serves every later call; `fresh` asks again, e.g. after a 403.
 */
export function getCsrfToken({ fresh = false }: { fresh?: boolean } = {}): Promise<string> {
  if (pending && !fresh) return pending;
  const request = fetch(`${AUTH_BASE_PATH}/csrf`, { headers: { 'Content-Type': 'application/json' } }).then(
    async (res) => {
      const body: unknown = await res.json();
      const token = (body as { csrfToken?: unknown } | null)?.csrfToken;
      if (!res.ok || typeof token !== 'string') throw new Error(`Could not get a CSRF token (${res.status})`);
      return token;
    },
  );
  pending = request;
  // A failed request must not be cached: the next caller asks again.
  request.catch(() => {
    if (pending === request) pending = null;
  });
  return request;
}

/** Forgets the cached token (tests, and after the server refused it). */
export function forgetCsrfToken() {
  pending = null;
}
