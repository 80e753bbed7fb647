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

/** How far down a list min_id looks for its entry. */
const MIN_ID_WALK = 2_000;
/** Rows per read while walking. */
const WALK_PAGE = 40;

/**
 * Mastodon's min_id: the `limit` items just above the one keyed `minId` (an app filling the gap since
 * it last looked), newest first — where since_id gives the newest ones. Lists are read newest first,
 * so they are walked down to that item, keeping the last `limit` seen; at most MIN_ID_WALK items
 * (further back than that, the oldest reached are answered).
 */
export async function justAbove<T>(
  read: (at: { cursor?: string }) => Promise<{ items: T[]; nextCursor: string | null }>,
  keyOf: (item: T) => bigint,
  minId: bigint,
  limit: number,
): Promise<T[]> {
  let kept: T[] = [];
  let cursor: string | undefined;
  for (let walked = 0; walked < MIN_ID_WALK; walked += WALK_PAGE) {
    const page = await read({ cursor });
    const above = page.items.filter((item) => keyOf(item) > minId);
    kept = [...kept, ...above].slice(-limit);
    if (above.length < page.items.length || page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  return kept;
}

/**
 * A page's `Link` header: `next` continues below an item (max_id), `prev` above one (min_id); the
 * request's other parameters (limit, types…) are kept. Null when there is neither.
 */
export function pageLinks(
  request: FastifyRequest,
  base: string,
  { next, prev }: { next: string | null; prev: string | null },
): string | null {
  const url = new URL(request.url, base);
  const at = (key: string, value: string) => {
    const link = new URL(`${base}${url.pathname}`);
    for (const [k, v] of url.searchParams)
      if (!['max_id', 'since_id', 'min_id'].includes(k)) link.searchParams.append(k, v); // types[] may repeat
    link.searchParams.set(key, value);
    return link.toString();
  };
  const links: string[] = [];
  if (next !== null) links.push(`<${at('max_id', next)}>; rel="next"`);
  if (prev !== null) links.push(`<${at('min_id', prev)}>; rel="prev"`);
  return links.length > 0 ? links.join(', ') : null;
}
