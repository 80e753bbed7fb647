/**
 * What every Mastodon route needs of HTTP: who the token speaks for and what it may do (`need`,
 * `userOf`), ids, list limits and Mastodon's paging (max_id, since_id, min_id and the `Link` header).
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  RouteShorthandOptions,
} from 'fastify';
import type { z } from 'zod';
import { invalid, notFound } from '../../lib/errors.ts';
import { isWireId, type PostId, parseId, parsePostId, parseUserId, type UserId } from '../../lib/ids.ts';
import { needsPerson, noToken, outOfScope } from '../oauth/bearer.ts';
import { grants } from '../oauth/scopes.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import type { MastodonEndpoint } from './mastodon.endpoints.ts';
import { formFields } from './mastodon.schemas.ts';

/** The person the bearer token speaks for (422 for an app's own token, as Mastodon answers). */
export function userOf(request: FastifyRequest): SessionUser {
  if (request.viewer) return request.viewer;
  if (request.grant) throw needsPerson();
  throw noToken();
}

/** A preHandler that needs a token granting `scope` (and, unless `app` is allowed, a person's token). */
export function need(scope: string, { app = false } = {}): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const grant = request.grant;
    if (!grant) throw noToken();
    if (!grants(grant.scopes, scope)) throw outOfScope(scope);
    if (!app && !grant.viewer) throw needsPerson();
  };
}

/** Path ids (the one id rule, lib/ids.ts): anything else names nothing (404, as Mastodon answers). */
export const postIdOf = (raw: string): PostId => parsePostId(raw);
export const userIdOf = (raw: string): UserId => parseUserId(raw);
export const idOf = (raw: string, missing: string): number => parseId(raw, () => notFound(missing));
/** A paging key or other optional id: null when absent or not an id. */
export const optionalId = (raw: unknown): bigint | null => (isWireId(raw) ? BigInt(raw) : null);

/** A list's `limit`: `fallback` when missing or not a number, within 1–`max`. */
export const limitOf = (raw: string | number | undefined, fallback: number, max: number) =>
  Math.min(Math.max(Number.parseInt(String(raw ?? ''), 10) || fallback, 1), max);

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

/** A list read newest first by cursor, as the services answer them. */
export type ListRead<T> = (page: {
  cursor?: string;
  limit: number;
}) => Promise<{ items: T[]; nextCursor: string | null }>;

export interface PageKeys {
  max_id?: string;
  since_id?: string;
  min_id?: string;
  limit?: string | number;
}

/**
 * One page of a list keyed by ids, as Mastodon pages: max_id continues below an item (`cursorBelow`
 * turns its id into the list's cursor; null when there is no such item: an empty page), since_id
 * keeps what is newer than an item from the newest page, min_id gives the items just above one
 * (justAbove). The `Link` header names the next (older) and previous (newer) pages by item key.
 */
export async function keyedPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
  options: {
    read: ListRead<T>;
    keyOf: (item: T) => bigint;
    cursorBelow: (id: number) => Promise<string | null>;
    limit: { fallback: number; max: number };
  },
): Promise<T[]> {
  const query = request.query as PageKeys;
  const { read, keyOf } = options;
  const limit = limitOf(query.limit, options.limit.fallback, options.limit.max);
  const maxId = optionalId(query.max_id);
  const minId = optionalId(query.min_id);
  const since = optionalId(query.since_id);
  let cursor: string | undefined;
  if (maxId !== null) {
    const below = await options.cursorBelow(Number(maxId));
    if (below === null) return [];
    cursor = below;
  }
  let items: T[];
  let more: boolean;
  if (minId !== null && cursor === undefined) {
    items = await justAbove((at) => read({ ...at, limit: options.limit.max }), keyOf, minId, limit);
    more = items.length > 0;
  } else {
    const page = await read({ cursor, limit });
    items = since !== null ? page.items.filter((item) => keyOf(item) > since) : page.items;
    more = page.nextCursor !== null && since === null;
  }
  const first = items[0];
  const last = items[items.length - 1];
  const link = pageLinks(request, publicUrl, {
    next: more && last !== undefined ? String(keyOf(last)) : null,
    prev: first !== undefined ? String(keyOf(first)) : null,
  });
  if (link) reply.header('Link', link);
  return items;
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
      if (!['max_id', 'since_id', 'min_id', 'offset'].includes(k)) link.searchParams.append(k, v);
    link.searchParams.set(key, value);
    return link.toString();
  };
  const links: string[] = [];
  if (next !== null) links.push(`<${at('max_id', next)}>; rel="next"`);
  if (prev !== null) links.push(`<${at('min_id', prev)}>; rel="prev"`);
  return links.length > 0 ? links.join(', ') : null;
}

/** What a route's schemas read of the request. */
export interface Input<E extends MastodonEndpoint> {
  query: E['query'] extends z.ZodType ? z.output<E['query']> : Record<string, string | string[] | undefined>;
  body: E['body'] extends z.ZodType ? z.output<E['body']> : Record<string, unknown>;
  params: Record<string, string>;
}

/** A schema's first problem as Mastodon's 422, naming the field. */
function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || what;
  throw invalid(field, `${field}: ${issue?.message ?? 'is invalid'}`);
}

/**
 * Registers a route of the table (mastodon.endpoints.ts): its scope checked before anything else,
 * its query and body read by its schemas (a 422 naming the field otherwise), the handler's answer
 * sent as it is (presenters make Mastodon's entities).
 */
export function route<E extends MastodonEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (request: FastifyRequest, reply: FastifyReply, input: Input<E>) => Promise<unknown>,
  options: Omit<RouteShorthandOptions, 'preHandler'> = {},
): void {
  app.route({
    ...options,
    method: endpoint.method,
    url: endpoint.path,
    ...(endpoint.scope ? { preHandler: need(endpoint.scope, { app: endpoint.app ?? false }) } : {}),
    handler: async (request, reply) => {
      const input = {
        query: endpoint.query ? parsed(endpoint.query, request.query ?? {}, 'query') : (request.query ?? {}),
        body: endpoint.body ? parsed(endpoint.body, formFields(request.body), 'body') : formFields(request.body),
        params: (request.params ?? {}) as Record<string, string>,
      } as Input<E>;
      return handler(request, reply, input);
    },
  });
}
