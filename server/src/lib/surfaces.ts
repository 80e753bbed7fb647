/**
 * Which face of the server a path belongs to. The product API (/api) takes the session cookie and
 * answers `{code, message}`; the Mastodon client API (/api/v1, /api/v2) takes bearer tokens only and,
 * with OAuth 2, answers `{error}`; the client API and OAuth's token endpoints may be read by any origin.
 */

/** The Mastodon client API: bearer tokens only, never the web's session cookie. */
export const isMastodonApi = (url: string) =>
  url.startsWith('/api/v1/') || url.startsWith('/api/v2/') || /^\/api\/v[12](?:[?#]|$)/.test(url);

/** OAuth 2's endpoints that apps call from anywhere (their metadata, token, revocation). */
const OAUTH_ANY_ORIGIN = [
  '/oauth/token',
  '/oauth/revoke',
  '/oauth/userinfo',
  '/.well-known/oauth-authorization-server',
];

/** The paths whose errors are `{error}` (the Mastodon API and OAuth), not the product API's `{code, message}`. */
export const speaksMastodon = (url: string) =>
  isMastodonApi(url) || url.startsWith('/oauth/') || url.startsWith('/.well-known/oauth-authorization-server');

/** Paths every origin may read (Mastodon web apps such as Elk and Phanpy call them from the browser). */
export const readableByAnyOrigin = (url: string) =>
  isMastodonApi(url) || OAUTH_ANY_ORIGIN.some((path) => url === path || url.startsWith(`${path}?`));

/** An error answer's body in the shape the path's clients read. */
export const errorBodyFor = (url: string, body: { code: string; message: string }) =>
  speaksMastodon(url) ? { error: body.message } : body;
