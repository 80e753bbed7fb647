/**
 * Pure pieces of the NextAuth v4 wire protocol (docs/spec/auth-protocol.md) that the routes
 * assemble: URL rules, error-page mapping and fixed texts.
 */

/** The SPA route that opens the login modal: NextAuth's `pages.signIn` and `pages.error`. */
export const SPA_PAGE = '/';

export const PROVIDER_ID = 'credentials';

/** Actions NextAuth renders as HTML pages; on a configuration error they redirect instead of answering JSON. */
export const HTML_ACTIONS = new Set(['signin', 'signout', 'error', 'verify-request']);

/** Error codes NextAuth shows inline on its sign-in page: GET error sends them to signin?error=. */
export const INLINE_ERRORS = new Set([
  'Signin',
  'OAuthSignin',
  'OAuthCallback',
  'OAuthCreateAccount',
  'EmailCreateAccount',
  'Callback',
  'OAuthAccountNotLinked',
  'EmailSignin',
  'CredentialsSignin',
  'SessionRequired',
]);

/**
 * A callbackUrl (query or cookie) that is neither http(s) nor a path. NextAuth fails the request with
 * a 500 configuration message (INVALID_CALLBACK_URL_ERROR); the input is the client's, so Pipit
 * answers 400 with that code. The next-auth client never sends such a URL.
 */
export const INVALID_CALLBACK_URL = {
  code: 'INVALID_CALLBACK_URL_ERROR',
  message: 'callbackUrl must be an http(s) URL or a path on this site.',
} as const;

export const unsupported = (method: string) => `Error: This action with HTTP ${method} is not supported by NextAuth.js`;

/**
 * NextAuth's default `redirect` callback: a relative path stays on our origin, a same-origin URL is
 * kept, anything else (another site, garbage) becomes the origin. This is what stops open redirects.
 */
export function sanitizeCallbackUrl(url: string, origin: string): string {
  if (url.startsWith('/')) return `${origin}${url}`;
  try {
    if (new URL(url).origin === origin) return url;
  } catch {
    // not a URL at all
  }
  return origin;
}

/** NextAuth's assertConfig rule for a query or cookie callbackUrl: http(s) absolute, or a path. */
export function isValidCallbackUrl(url: string, base: string): boolean {
  try {
    return /^https?:/.test(new URL(url, url.startsWith('/') ? base : undefined).protocol);
  } catch {
    return false;
  }
}

/** The action of an /api/auth URL: `/api/auth/signin/credentials?x` gives `signin`. */
export function actionOf(url: string): string {
  return url.split('?')[0]!.split('/')[3] ?? '';
}

/** A string field of a parsed body or query; repeated keys (arrays) and non-strings count as absent. */
export function field(source: unknown, key: string): string | undefined {
  if (!source || typeof source !== 'object') return undefined;
  const value = (source as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** The sign-in form's email as accounts are keyed (trimmed, lower-case), or undefined when absent. */
export const signInEmail = (body: unknown) => field(body, 'email')?.trim().toLowerCase() || undefined;
