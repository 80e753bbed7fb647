import { createPostBody, type Page, type Post } from '@pipit/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { sendKept } from '../../lib/compression.ts';
import { encodeCursor } from '../../lib/cursor.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import type { parsePostId } from '../../lib/ids.ts';
import { findUser } from '../users/users.repository.ts';
import { justAbove, limitOf, MASTODON_ID, need, pageLinks, postIdOf, userIdOf, userOf } from './mastodon.auth.ts';
import { toAccount } from './mastodon.entities.ts';
import { cursorAfterEntry, findAccountRows } from './mastodon.repository.ts';
import { toStatuses } from './mastodon.statuses.ts';

const MAX_LIMIT = 40;
/** A timeline entry's own key (a repost's own row): what max_id, since_id and min_id name. */
const entryKey = (p: Post) => BigInt(p.entryId);

interface PageParams {
  max_id?: string;
  since_id?: string;
  min_id?: string;
  limit?: string;
}

/** A field that forms send as `name[]` (several values) and JSON as an array. */
function listField(body: Record<string, unknown>, name: string): string[] {
  const value = body[`${name}[]`] ?? body[name];
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/**
 * Mastodon's statuses, accounts and timelines over the web API's services: the same rules (who sees
 * what, limits, notifications), Mastodon's entities, and pages in `Link` headers (max_id older,
 * min_id newer).
 */
export async function mastodonApiRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const { posts, timelines, users, bookmarks, hashtags } = app.services;
  const base = config.publicUrl;

  /**
   * One page of a list, for Mastodon: max_id continues below an entry (its own key); since_id keeps
   * what is newer than an entry from the newest page; min_id gives the page just above an entry
   * (justAbove). The `Link` header names the next (older) and previous (newer) pages by entry id.
   */
  async function paged(
    request: FastifyRequest,
    reply: FastifyReply,
    list: (page: { cursor?: string; limit: number }) => Promise<Page<Post>>,
  ) {
    const query = request.query as PageParams;
    const limit = limitOf(query.limit, 20, MAX_LIMIT);
    let cursor: string | undefined;
    if (query.max_id && MASTODON_ID.test(query.max_id)) {
      const after = await cursorAfterEntry(app.db, Number(query.max_id));
      if (!after) return [];
      cursor = encodeCursor(after);
    }
    if (!cursor && query.min_id && MASTODON_ID.test(query.min_id)) {
      const items = await justAbove((at) => list({ ...at, limit: MAX_LIMIT }), entryKey, BigInt(query.min_id), limit);
      const link = linkFor(request, items, true);
      if (link) reply.header('Link', link);
      return toStatuses(app.db, base, items);
    }
    const since = query.since_id && MASTODON_ID.test(query.since_id) ? BigInt(query.since_id) : null;
    const page = await list({ cursor, limit });
    const items = since !== null ? page.items.filter((p) => entryKey(p) > since) : page.items;
    const link = linkFor(request, items, page.nextCursor !== null && since === null);
    if (link) reply.header('Link', link);
    return toStatuses(app.db, base, items);
  }

  /** The `Link` header of a page of entries: the next (older) page by its last entry, the previous (newer) by its first. */
  const linkFor = (request: FastifyRequest, items: Post[], more: boolean) =>
    pageLinks(request, base, {
      next: more ? (items[items.length - 1]?.entryId ?? null) : null,
      prev: items[0]?.entryId ?? null,
    });

  const one = async (post: Post) => (await toStatuses(app.db, base, [post]))[0];

  app.get('/api/v1/timelines/home', { preHandler: need('read:statuses') }, async (request, reply) => {
    const viewer = userOf(request);
    const query = request.query as PageParams;
    if (!query.max_id && !query.since_id && !query.min_id) {
      // The first page, kept serialized until something on it changes (as the web's: FeedsService.firstPage).
      const limit = limitOf(query.limit, 20, MAX_LIMIT);
      const kept = await timelines.followingFirstPage(viewer, limit, 'mastodon', async (page) => ({
        body: JSON.stringify(await toStatuses(app.db, base, page.items)),
        extra: linkFor(request, page.items, page.nextCursor !== null),
      }));
      if (kept) {
        if (kept.extra) reply.header('Link', kept.extra);
        return sendKept(request, reply, kept.body);
      }
    }
    return paged(request, reply, (page) => timelines.following(viewer, page));
  });
  app.get('/api/v1/timelines/public', (request, reply) =>
    paged(request, reply, (page) => timelines.everyone(request.viewer, page)),
  );
  // The description's {hashtag}; named :tag like the web API's hashtag routes.
  app.get<{ Params: { tag: string } }>('/api/v1/timelines/tag/:tag', (request, reply) =>
    paged(request, reply, (page) => hashtags.posts(request.viewer, request.params.tag, page)),
  );

  app.get<{ Params: { id: string } }>('/api/v1/accounts/:id', async (request) => {
    const user = await users.profile(request.viewer, userIdOf(request.params.id));
    const [row] = await findAccountRows(app.db, [Number(user.id)]);
    if (!row) throw notFound('This user does not exist.');
    return toAccount(base, row);
  });
  // By username, like the web's /api/users/by-username; with a token (an app's own will do).
  app.get<{ Querystring: { acct?: string } }>(
    '/api/v1/accounts/lookup',
    { preHandler: need('read:accounts', { app: true }) },
    async (request) => {
      const acct = (request.query.acct ?? '').replace(/^@/, '').split('@')[0] ?? '';
      if (!/^[A-Za-z0-9_]{1,30}$/.test(acct)) throw notFound('This user does not exist.');
      const row = await findUser(app.db, { username: acct }, null);
      if (!row || row.suspendedAt !== null) throw notFound('This user does not exist.');
      return toAccount(base, row);
    },
  );
  app.get<{ Params: { id: string }; Querystring: PageParams & { pinned?: string; exclude_replies?: string } }>(
    '/api/v1/accounts/:id/statuses',
    async (request, reply) => {
      // Pipit has no pinned posts.
      if (request.query.pinned === 'true') return [];
      const authorId = userIdOf(request.params.id);
      return paged(request, reply, async (page) => {
        const found = await posts.listByUser(request.viewer, authorId, page);
        if (request.query.exclude_replies !== 'true') return found;
        return { ...found, items: found.items.filter((p) => p.parentId === null) };
      });
    },
  );

  app.get<{ Params: { id: string } }>('/api/v1/statuses/:id', async (request) =>
    one(await posts.get(request.viewer, postIdOf(request.params.id))),
  );

  app.post('/api/v1/statuses', { preHandler: need('write:statuses') }, async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const parsed = createPostBody.safeParse({
      text: typeof body.status === 'string' ? body.status : '',
      parentId: body.in_reply_to_id ? String(body.in_reply_to_id) : null,
      media: listField(body, 'media_ids').map((id) => ({ id })),
      ...(body.quote_id ? { quoteOfId: String(body.quote_id) } : {}),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalid(String(issue?.path[0] ?? 'status'), issue?.message ?? 'The status is not valid.');
    }
    const { text, parentId, media, quoteOfId } = parsed.data;
    const created = await posts.create(userOf(request), {
      text,
      parentId: parentId ? postIdOf(parentId) : null,
      media,
      quoteOfId: quoteOfId ? postIdOf(quoteOfId) : null,
    });
    return one(created);
  });

  app.delete<{ Params: { id: string } }>(
    '/api/v1/statuses/:id',
    { preHandler: need('write:statuses') },
    async (request) => {
      const viewer = userOf(request);
      const id = postIdOf(request.params.id);
      const post = await posts.get(viewer, id);
      await posts.delete(viewer, id);
      // Mastodon answers the deleted status with its source text (for "delete and redraft").
      return { ...(await one(post)), text: post.text };
    },
  );

  const action = (
    path: string,
    scope: string,
    run: (viewer: ReturnType<typeof userOf>, id: ReturnType<typeof parsePostId>) => Promise<Post>,
  ) =>
    app.post<{ Params: { id: string } }>(`/api/v1/statuses/:id/${path}`, { preHandler: need(scope) }, async (request) =>
      one(await run(userOf(request), postIdOf(request.params.id))),
    );
  action('favourite', 'write:favourites', (viewer, id) => posts.like(viewer, id));
  action('unfavourite', 'write:favourites', (viewer, id) => posts.unlike(viewer, id));
  action('reblog', 'write:statuses', (viewer, id) => posts.repost(viewer, id));
  action('unreblog', 'write:statuses', (viewer, id) => posts.unrepost(viewer, id));
  action('bookmark', 'write:bookmarks', (viewer, id) => bookmarks.add(viewer, id));
  action('unbookmark', 'write:bookmarks', (viewer, id) => bookmarks.remove(viewer, id));

  app.get('/api/v1/bookmarks', { preHandler: need('read:bookmarks') }, (request, reply) =>
    paged(request, reply, (page) => bookmarks.list(userOf(request), page)),
  );

  app.get('/api/v1/preferences', { preHandler: need('read:accounts') }, async () => ({
    'posting:default:visibility': 'public',
    'posting:default:sensitive': false,
    'posting:default:language': null,
    'reading:expand:media': 'default',
    'reading:expand:spoilers': false,
  }));
  app.get('/api/v1/custom_emojis', async () => []);

  // What Pipit does not have answers well-formed and empty (apps crash on a 404), behind its scope.
  for (const [path, scope, empty] of [
    ['/api/v1/lists', 'read:lists', []],
    ['/api/v1/filters', 'read:filters', []],
    ['/api/v2/filters', 'read:filters', []],
    ['/api/v1/follow_requests', 'read:follows', []],
    ['/api/v1/announcements', 'read', []],
    ['/api/v1/conversations', 'read:statuses', []],
    ['/api/v1/followed_tags', 'read:follows', []],
    ['/api/v2/suggestions', 'read', []],
    ['/api/v1/suggestions', 'read', []],
    ['/api/v1/trends', null, []],
    ['/api/v1/trends/tags', null, []],
    ['/api/v1/trends/statuses', null, []],
    ['/api/v1/trends/links', null, []],
    ['/api/v1/domain_blocks', 'read:blocks', []],
    ['/api/v1/endorsements', 'read:accounts', []],
    ['/api/v1/featured_tags', 'read:accounts', []],
    ['/api/v1/scheduled_statuses', 'read:statuses', []],
    ['/api/v1/instance/rules', null, []],
    ['/api/v1/instance/peers', null, []],
    ['/api/v1/instance/activity', null, []],
  ] as const) {
    app.get(path, scope ? { preHandler: need(scope) } : {}, async () => empty);
  }
}
