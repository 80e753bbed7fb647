import { MUTE_DURATION, type Notification, type Page, type User } from '@pipit/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { encodeCursor } from '../../lib/cursor.ts';
import type { UserId } from '../../lib/ids.ts';
import { toUserView } from '../follows/follows.pack.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { findUsers } from '../users/users.repository.ts';
import { justAbove, limitOf, MASTODON_ID, need, pageLinks, userIdOf, userOf } from './mastodon.auth.ts';
import { cursorAfterNotification, followersAmong } from './mastodon.repository.ts';
import { toAccounts, toNotifications } from './mastodon.statuses.ts';

const MAX_LIMIT = 80;

/** `?id[]=1&id[]=2` or `?id=1` as numbers (bad ones left out). */
function ids(query: Record<string, unknown>): number[] {
  const raw = query['id[]'] ?? query.id;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list
    .map(String)
    .filter((id) => MASTODON_ID.test(id))
    .slice(0, 40)
    .map(Number);
}

/**
 * Mastodon's relationships (follow, block, mute and their lists) and notifications over the web
 * API's services.
 */
export async function mastodonSocialRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const { follows, safety, notifications } = app.services;
  const base = config.publicUrl;

  /** Mastodon's Relationship of the viewer to each of `people` (their profiles as the viewer sees them). */
  async function relationships(viewer: SessionUser, people: User[]) {
    const followers = await followersAmong(
      app.db,
      viewer.userId,
      people.map((p) => Number(p.id)),
    );
    return people.map((p) => ({
      id: p.id,
      following: p.isFollowing,
      showing_reblogs: p.isFollowing,
      notifying: false,
      languages: null,
      followed_by: followers.has(Number(p.id)),
      blocking: p.isBlocking,
      // A block is mutual in what either sees, and never said to the other (docs/product-decisions.md).
      blocked_by: false,
      muting: p.isMuting,
      muting_notifications: p.isMuting,
      requested: false,
      requested_by: false,
      domain_blocking: false,
      endorsed: false,
      note: '',
    }));
  }

  const relation = async (viewer: SessionUser, user: User) => (await relationships(viewer, [user]))[0];

  app.get('/api/v1/accounts/relationships', { preHandler: need('read:follows') }, async (request) => {
    const viewer = userOf(request);
    // Unknown people are left out, as Mastodon does; the rest in the order asked.
    const asked = ids(request.query as Record<string, unknown>);
    const found = new Map((await findUsers(app.db, asked, viewer.userId)).map((row) => [row.id, toUserView(row)]));
    const people = asked.flatMap((id) => {
      const user = found.get(id);
      return user ? [user] : [];
    });
    return relationships(viewer, people);
  });

  const act = (
    path: string,
    scope: string,
    run: (viewer: SessionUser, id: UserId, body: Record<string, unknown>) => Promise<User>,
  ) =>
    app.post<{ Params: { id: string } }>(
      `/api/v1/accounts/:id/${path}`,
      { preHandler: need(scope) },
      async (request) => {
        const viewer = userOf(request);
        const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
        return relation(viewer, await run(viewer, userIdOf(request.params.id), body));
      },
    );
  act('follow', 'write:follows', (viewer, id) => follows.follow(viewer, id));
  act('unfollow', 'write:follows', (viewer, id) => follows.unfollow(viewer, id));
  act('block', 'write:blocks', (viewer, id) => safety.block(viewer, id));
  act('unblock', 'write:blocks', (viewer, id) => safety.unblock(viewer, id));
  // Mastodon's duration is seconds, 0 for good; Pipit's limits apply (60 s to a year).
  act('mute', 'write:mutes', (viewer, id, body) => {
    const seconds = Number(body.duration ?? 0);
    const duration =
      Number.isFinite(seconds) && seconds > 0
        ? Math.min(Math.max(Math.round(seconds), MUTE_DURATION.min), MUTE_DURATION.max)
        : null;
    return safety.mute(viewer, id, duration);
  });
  act('unmute', 'write:mutes', (viewer, id) => safety.unmute(viewer, id));

  /** A page of people as Accounts; the next page's `max_id` is the list's own cursor (apps pass it back as given). */
  async function people(
    request: FastifyRequest,
    reply: FastifyReply,
    list: (page: { cursor?: string; limit: number }) => Promise<Page<User>>,
  ) {
    const query = request.query as { max_id?: string; limit?: string };
    const limit = limitOf(query.limit, 40, MAX_LIMIT);
    const page = await list({ cursor: query.max_id || undefined, limit });
    // The next page's max_id is the list's own cursor.
    const link = pageLinks(request, base, { next: page.nextCursor, prev: null });
    if (link) reply.header('Link', link);
    return toAccounts(app.db, base, page.items);
  }

  app.get<{ Params: { id: string } }>('/api/v1/accounts/:id/followers', (request, reply) =>
    people(request, reply, (page) => follows.followers(request.viewer, userIdOf(request.params.id), page)),
  );
  app.get<{ Params: { id: string } }>('/api/v1/accounts/:id/following', (request, reply) =>
    people(request, reply, (page) => follows.following(request.viewer, userIdOf(request.params.id), page)),
  );
  app.get('/api/v1/blocks', { preHandler: need('read:blocks') }, (request, reply) =>
    people(request, reply, (page) => safety.blocked(userOf(request), page)),
  );
  app.get('/api/v1/mutes', { preHandler: need('read:mutes') }, (request, reply) =>
    people(request, reply, (page) => safety.muted(userOf(request), page)),
  );

  /**
   * Mastodon's Notifications, newest first; `max_id` continues below a notification (its own key),
   * `since_id` keeps the newest above one, `min_id` the ones just above it (justAbove).
   */
  app.get('/api/v1/notifications', { preHandler: need('read:notifications') }, async (request, reply) => {
    const viewer = userOf(request);
    const query = request.query as { max_id?: string; since_id?: string; min_id?: string; limit?: string };
    const limit = limitOf(query.limit, 40, MAX_LIMIT);
    const keyOf = (n: Notification) => BigInt(n.id);
    const idIn = (raw: string | undefined) => (raw && MASTODON_ID.test(raw) ? BigInt(raw) : null);
    let cursor: string | undefined;
    if (idIn(query.max_id) !== null) {
      const after = await cursorAfterNotification(app.db, viewer.userId, Number(query.max_id));
      if (!after) return [];
      cursor = encodeCursor(after);
    }
    const minId = idIn(query.min_id);
    const since = idIn(query.since_id);
    let items: Notification[];
    let more: boolean;
    if (minId !== null && cursor === undefined) {
      items = await justAbove((at) => notifications.list(viewer, { ...at, limit: MAX_LIMIT }), keyOf, minId, limit);
      more = items.length > 0;
    } else {
      const page = await notifications.list(viewer, { cursor, limit });
      items = since !== null ? page.items.filter((n) => keyOf(n) > since) : page.items;
      more = page.nextCursor !== null && since === null;
    }
    const link = pageLinks(request, base, {
      next: more ? (items[items.length - 1]?.id ?? null) : null,
      prev: items[0]?.id ?? null,
    });
    if (link) reply.header('Link', link);
    return toNotifications(app.db, base, items);
  });
}
