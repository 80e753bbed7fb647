import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { notFound } from '../../lib/errors.ts';
import { type PostId, parsePostId, parseUserId, type UserId } from '../../lib/ids.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { Refused } from './mastodon.errors.ts';
import { grants } from './scopes.ts';

/** A Mastodon id: digits only. */
export const MASTODON_ID = /^[1-9]\d{0,17}$/;

/** A path id; anything else is no such thing (404, as Mastodon answers). */
function idOf<T>(raw: string, parse: (wire: string) => T, missing: string): T {
  if (!MASTODON_ID.test(raw)) throw notFound(missing);
  return parse(raw);
}
export const postIdOf = (raw: string): PostId => idOf(raw, parsePostId, 'This post does not exist (or was deleted).');
export const userIdOf = (raw: string): UserId => idOf(raw, parseUserId, 'This user does not exist.');

/** The person the bearer token speaks for (401 for an app's own token). */
export function userOf(request: FastifyRequest): SessionUser {
  if (!request.viewer) throw new Refused(401, 'The access token is invalid');
  return request.viewer;
}

/** A list's `limit`: `fallback` when missing or not a number, within 1–`max`. */
export const limitOf = (raw: string | undefined, fallback: number, max: number) =>
  Math.min(Math.max(Number.parseInt(raw ?? '', 10) || fallback, 1), max);

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
