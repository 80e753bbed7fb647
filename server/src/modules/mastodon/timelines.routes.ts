import type { Page, Post } from '@pipit/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendKept } from '../../lib/compression.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { keyedPage, limitOf, pageLinks, route, userOf } from './mastodon.http.ts';

/** A timeline entry's own key (a repost's own row): what max_id, since_id and min_id name. */
const entryKey = (p: Post) => BigInt(p.entryId);
const LIMIT = { fallback: 20, max: 40 };

/** Timelines (home, public, a hashtag's) and the member's bookmarks and favourites, as pages of Statuses. */
export async function timelinesRoutes(app: FastifyInstance, { config, present }: MastodonContext) {
  const { posts, timelines, bookmarks, hashtags } = app.services;

  /** A timeline's page by Mastodon's keys, as Statuses (lists of posts are keyed by entry). */
  async function statuses(
    request: FastifyRequest,
    reply: FastifyReply,
    read: (page: { cursor?: string; limit: number }) => Promise<Page<Post>>,
  ) {
    const found = await keyedPage(request, reply, config.publicUrl, {
      read,
      keyOf: entryKey,
      cursorBelow: (id) => posts.cursorBelowEntry(id),
      limit: LIMIT,
    });
    return present.statuses(request.viewer, found);
  }

  /** The `Link` header of a first page: the next (older) page by its last entry, the previous (newer) by its first. */
  const firstPageLink = (request: FastifyRequest, page: Page<Post>) =>
    pageLinks(request, config.publicUrl, {
      next: page.nextCursor !== null ? (page.items[page.items.length - 1]?.entryId ?? null) : null,
      prev: page.items[0]?.entryId ?? null,
    });

  route(app, e.homeTimeline, async (request, reply, { query }) => {
    const viewer = userOf(request);
    if (!query.max_id && !query.since_id && !query.min_id) {
      // The first page, kept serialized until something on it changes (as the web's: FeedsService.firstPage).
      const limit = limitOf(query.limit, LIMIT.fallback, LIMIT.max);
      const kept = await timelines.followingFirstPage(viewer, limit, 'mastodon', async (page) => ({
        body: JSON.stringify(await present.statuses(viewer, page.items)),
        extra: firstPageLink(request, page),
      }));
      if (kept) {
        if (kept.extra) reply.header('Link', kept.extra);
        return sendKept(request, reply, kept.body);
      }
    }
    return statuses(request, reply, (page) => timelines.following(viewer, page));
  });
  route(app, e.publicTimeline, (request, reply) =>
    statuses(request, reply, (page) => timelines.everyone(request.viewer, page)),
  );
  route(app, e.tagTimeline, (request, reply, { params }) =>
    statuses(request, reply, (page) => hashtags.posts(request.viewer, params.tag ?? '', page)),
  );
  route(app, e.bookmarks, (request, reply) =>
    statuses(request, reply, (page) => bookmarks.list(userOf(request), page)),
  );

  /** The statuses the person liked, newest like first (at most 40; one page). */
  route(app, e.favourites, async (request) => {
    const viewer = userOf(request);
    const limit = limitOf((request.query as { limit?: string }).limit, 20, 40);
    return present.statuses(viewer, await posts.liked(viewer, limit));
  });
}
