import { MAX_PAGE_SIZE, searchText } from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { encodeCursor } from '../../lib/cursor.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { parsePostId } from '../../lib/ids.ts';
import { toPost } from '../posts/posts.pack.ts';
import { findPostViews } from '../posts/posts.repository.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { limitOf, MASTODON_ID, need, postIdOf, userOf } from './mastodon.auth.ts';
import { toAccount } from './mastodon.entities.ts';
import {
  cursorAfterNotification,
  findAccountRows,
  findLikes,
  findNotificationsMarker,
  findReposterIds,
} from './mastodon.repository.ts';
import { toAccounts, toNotifications, toStatuses } from './mastodon.statuses.ts';

/** A status's conversation, search, notification clearing and the notifications marker. */
export async function mastodonMoreRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const { posts, search, notifications } = app.services;
  const base = config.publicUrl;
  const tagOf = (name: string) => ({ name, url: `${base}/hashtag/${encodeURIComponent(name)}`, history: [] });

  app.get<{ Params: { id: string } }>('/api/v1/statuses/:id/context', async (request) => {
    if (!MASTODON_ID.test(request.params.id)) throw notFound('This post does not exist (or was deleted).');
    const id = parsePostId(request.params.id);
    // The post itself first: 404 when the viewer cannot see it.
    await posts.get(request.viewer, id);
    const ancestors = await posts.listAncestors(request.viewer, id);
    const replies = await posts.listReplies(request.viewer, id, { limit: MAX_PAGE_SIZE });
    return {
      ancestors: await toStatuses(app.db, base, ancestors.items),
      descendants: await toStatuses(app.db, base, replies.items),
    };
  });

  app.get<{ Querystring: { q?: string; type?: string; limit?: string } }>('/api/v2/search', async (request) => {
    const parsed = searchText.safeParse(request.query.q ?? '');
    if (!parsed.success) throw invalid('q', parsed.error.issues[0]?.message ?? 'Search for something');
    const q = parsed.data;
    const type = request.query.type;
    const limit = limitOf(request.query.limit, 20, 20);
    const wants = (kind: string) => type === undefined || type === kind;
    const people = wants('accounts') ? (await search.people(request.viewer, { q, limit })).items : [];
    const found = wants('statuses') ? (await search.posts(request.viewer, { q, limit })).items : [];
    const tags = wants('hashtags') ? (await search.hashtags({ q, limit })).items : [];
    return {
      accounts: await toAccounts(app.db, base, people),
      statuses: await toStatuses(app.db, base, found),
      hashtags: tags.map((t) => tagOf(t.tag)),
    };
  });

  // What apps ask as someone types a mention: people by the start of their username or name (the web's
  // people search), with a person's token.
  app.get<{ Querystring: { q?: string; limit?: string } }>(
    '/api/v1/accounts/search',
    { preHandler: need('read:accounts') },
    async (request) => {
      const parsed = searchText.safeParse(request.query.q ?? '');
      if (!parsed.success) throw invalid('q', parsed.error.issues[0]?.message ?? 'Search for someone');
      const limit = limitOf(request.query.limit, 40, 80);
      return toAccounts(app.db, base, (await search.people(request.viewer, { q: parsed.data, limit })).items);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/v1/notifications/:id',
    { preHandler: need('read:notifications') },
    async (request) => {
      const viewer = userOf(request);
      const missing = () => notFound('No such notification.');
      if (!MASTODON_ID.test(request.params.id)) throw missing();
      const id = Number(request.params.id);
      const at = await cursorAfterNotification(app.db, viewer.userId, id);
      if (!at) throw missing();
      // The page that starts with it (a cursor just above it), as the list would show it.
      const page = await notifications.list(viewer, { cursor: encodeCursor({ t: at.t, id: id + 1 }), limit: 1 });
      const found = page.items[0];
      if (!found || found.id !== String(id)) throw missing();
      const [shown] = await toNotifications(app.db, base, [found]);
      if (!shown) throw missing();
      return shown;
    },
  );

  /** Who liked or reposted a status (newest first, at most 80): accounts. */
  const people = (path: string, find: (db: typeof app.db, postId: number, limit: number) => Promise<number[]>) =>
    app.get<{ Params: { id: string }; Querystring: { limit?: string } }>(
      `/api/v1/statuses/:id/${path}`,
      async (request) => {
        const id = postIdOf(request.params.id);
        await posts.get(request.viewer, id); // 404 when the viewer cannot see it
        const ids = await find(app.db, id, limitOf(request.query.limit, 40, 80));
        const rows = new Map((await findAccountRows(app.db, ids)).map((row) => [row.id, row]));
        return ids.flatMap((userId) => {
          const row = rows.get(userId);
          return row && row.suspendedAt === null ? [toAccount(base, row)] : [];
        });
      },
    );
  people('favourited_by', (db, postId, limit) => findLikes(db, { post: postId }, limit));
  people('reblogged_by', findReposterIds);

  /** The statuses the person liked, newest like first (at most 40; one page). */
  app.get<{ Querystring: { limit?: string } }>(
    '/api/v1/favourites',
    { preHandler: need('read:favourites') },
    async (request) => {
      const viewer = userOf(request);
      const ids = await findLikes(app.db, { user: viewer.userId }, limitOf(request.query.limit, 20, 40));
      const rows = new Map((await findPostViews(app.db, viewer.userId, ids, 'blocks')).map((row) => [row.id, row]));
      const liked = ids.flatMap((id) => {
        const row = rows.get(id);
        return row ? [toPost(row)] : [];
      });
      return toStatuses(app.db, base, liked);
    },
  );

  /** Name and bio, with the web's rules (pictures are changed on the web for now). */
  app.post('/api/v1/notifications/clear', { preHandler: need('write:notifications') }, async (request) => {
    await notifications.clear(userOf(request));
    return {};
  });
  app.post<{ Params: { id: string } }>(
    '/api/v1/notifications/:id/dismiss',
    { preHandler: need('write:notifications') },
    async (request) => {
      const viewer = userOf(request);
      if (!MASTODON_ID.test(request.params.id) || !(await notifications.dismiss(viewer, Number(request.params.id)))) {
        throw notFound('No such notification.');
      }
      return {};
    },
  );

  /** Pipit keeps one marker, the notifications' (read together); the home marker is not kept. */
  const marker = async (viewer: SessionUser) => {
    const row = await findNotificationsMarker(app.db, viewer.userId);
    return row
      ? { notifications: { last_read_id: String(row.id), version: 0, updated_at: (row.readAt as Date).toISOString() } }
      : {};
  };
  app.get('/api/v1/markers', { preHandler: need('read:statuses') }, async (request) => marker(userOf(request)));
  app.post('/api/v1/markers', { preHandler: need('write:statuses') }, async (request) => {
    const viewer = userOf(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const raw =
      (body.notifications as { last_read_id?: unknown } | undefined)?.last_read_id ??
      body['notifications[last_read_id]'];
    if (raw !== undefined) {
      if (!MASTODON_ID.test(String(raw))) throw invalid('notifications', 'last_read_id must be a notification id');
      await notifications.markReadUpTo(viewer, Number(raw));
    }
    return marker(viewer);
  });
}
