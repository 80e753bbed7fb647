/**
 * Bearer tokens as RFC 6750 has them: read from the Authorization header, and refused with its
 * `WWW-Authenticate: Bearer` challenge — one place for OAuth's own endpoints (userinfo) and the
 * Mastodon API.
 */

/** The token of an `Authorization: Bearer …` header, or null. */
export const bearerToken = (authorization: string | undefined): string | null =>
  /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1] ?? null;

/**
 * A token missing or bad (401), an app's token where a person's is needed (422, Mastodon's "requires
 * an authenticated user"), or a token without the scope (403). 401 and 403 carry the challenge.
 */
export class Refused extends Error {
  constructor(
    readonly status: 401 | 403 | 422,
    message: string,
    readonly challenge: string | null = null,
  ) {
    super(message);
  }
}

const REALM = 'realm="Pipit"';
/** §3: no error code when the request had no token at all. */
export const noToken = () => new Refused(401, 'The access token is invalid', `Bearer ${REALM}`);
/** A token was sent and is unknown, revoked or expired. */
export const badToken = () =>
  new Refused(
    401,
    'The access token is invalid',
    `Bearer ${REALM}, error="invalid_token", error_description="The access token is invalid"`,
  );
/** The token does not grant `scope`. */
export const outOfScope = (scope: string) =>
  new Refused(
    403,
    'This action is outside the authorized scopes',
    `Bearer ${REALM}, error="insufficient_scope", scope="${scope}"`,
  );
/** An app's own token (client credentials) where a person's is needed. */
export const needsPerson = () => new Refused(422, 'This method requires an authenticated user');
