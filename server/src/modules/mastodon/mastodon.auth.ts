import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Refused } from './mastodon.errors.ts';
import { grants } from './scopes.ts';

/** The paths the Mastodon API answers: bearer tokens only, never the web's session cookie. */
export const isMastodonApi = (url: string) => url.startsWith('/api/v1/') || url.startsWith('/api/v2/');

/** The paths whose errors are Mastodon's `{error}` (its API and OAuth), not the product API's `{code, message}`. */
export const speaksMastodon = (url: string) =>
  isMastodonApi(url) || url.startsWith('/oauth/') || url.startsWith('/.well-known/oauth-authorization-server');

/** An error answer's body in the shape the path's clients read. */
export const errorBodyFor = (url: string, body: { code: string; message: string }) =>
  speaksMastodon(url) ? { error: body.message } : body;

/** A preHandler that needs a token granting `scope` (and, unless `app` is allowed, a person's token). */
export function need(scope: string, { app = false } = {}): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const grant = request.grant;
    if (!grant || (!app && !grant.viewer)) throw new Refused(401, 'The access token is invalid');
    if (!grants(grant.scopes, scope)) throw new Refused(403, 'This action is outside the authorized scopes');
  };
}
