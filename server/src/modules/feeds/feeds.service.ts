import { extractHashtags } from '@pipit/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database, Executor, Tx } from '../../db/client.ts';
import { KeptBody } from '../../lib/compression.ts';
import type { Cursor } from '../../lib/cursor.ts';
import { EventCache } from '../../lib/event-cache.ts';
import { type DomainEvent, type EventBus, exhaustive } from '../../lib/events.ts';
import type { DurableQueue } from '../../lib/queue.ts';
import type { HomeSources, PostViewCache } from '../posts/posts.cache.ts';
import { repostedQuoteOf } from '../posts/posts.pack.ts';
import { findPostViews, type PostRow } from '../posts/posts.repository.ts';
import { findFollowingKeys, findFollowingPage } from '../timelines/timelines.repository.ts';
import * as repo from './feeds.repository.ts';
import { COMPLETE, type FeedKey, type FeedStore, micros, newer, padId } from './feeds.store.ts';

export const REBUILD = 'feed-rebuild';

/** Posts fanned out per transaction of the outbox. */
const FANOUT_BATCH = 200;
/** After a post, how long the fan-out waits for others to join it. */
const FANOUT_SOON_MS = 50;
/** The safety net: outbox rows left by a process that stopped (or a failed pass) are taken by any process this often. */
const FANOUT_EVERY_MS = 1_000;
/** Rows per query while a feed is rebuilt. */
const REBUILD_PAGE = 25;
/** Rebuilds one process runs at once, and how many jobs each takes per fetch. */
const REBUILD_WORKERS = 2;
const REBUILD_BATCH = 5;
/** How many more entries a read asks for than it needs, for ties on the cursor's microsecond. */
const TIE_SLACK = 8;

/** A member's first page, serialized, and what it depends on. */
interface FirstPage {
  /** Whose page it is (the cache is keyed by member and format: firstPageKey). */
  viewerId: number;
  limit: number;
  body: KeptBody;
  /** What the format keeps beside the body (the Mastodon API's Link header). */
  extra: string | null;
  /** The posts shown, and the posts they reply to (their counts and deletes change the page). */
  posts: ReadonlySet<number>;
  /** Whose new posts change it: the member and whom they follow. */
  followees: ReadonlySet<number>;
  /** The hashtags the member follows: a new post with one of them changes it too. */
  tags: ReadonlySet<string>;
}

/** First pages kept per member: until an event changes them, or this long at most. */
const FIRST_PAGES = { max: 10_000, ttlMs: 30_000 };

export interface FeedStats {
  fromFeed: number;
  /** Of those, first pages answered from this process's memory (FeedsService.firstPageJson). */
  kept: number;
  fallback: number;
  /** Reads that failed (Redis away, a bug): answered by the query, logged. */
  errors: number;
}

/**
 * Home feeds written ahead (fan-out on write), with the per-followee query (timelines.repository
 * `findFollowingPage`) as the answer whenever a feed cannot give an exact page: missing or being
 * built (a rebuild is queued), a page past the kept window, or an entry gone stale (deleted post,
 * unfollowed author) — the stale entries are removed as they are found.
 *
 * - A post joins the outbox (`feed_outbox`) in its own statement or transaction; the outbox is the
 *   fan-out's durable queue: a pass takes a batch of its rows (locked, other processes skip them),
 *   writes each post to the feeds of its author and their followers who read their home within the
 *   activity window (each read records its time; FeedStore.active) — other feeds have expired — and
 *   deletes the rows in the same transaction. A process killed mid-pass rolls back: the rows wait for
 *   the next pass (any process's), which writes them again (adding an entry twice changes nothing).
 * - Accounts with more than `pullAboveFollowers` followers are not fanned out: their posts are read
 *   from the database with each page and merged (FeedStore.markPulled).
 * - A follow or unfollow drops the follower's feed; the next read answers from the query and queues
 *   a rebuild (`feed-rebuild`).
 * - Followed hashtags are never fanned out: a feed holds the people's part of a home, and the public
 *   posts of the member's followed tags are read with each page and merged, like pulled accounts'
 *   (docs/decisions.md, "Followed hashtags"). Following or unfollowing a tag drops the feed too: which
 *   repost is a post's first entry depends on the tags followed.
 */
export class FeedsService {
  /** Pages answered from a feed, and by the fallback query (for tests and the benchmark). */
  readonly stats: FeedStats = { fromFeed: 0, kept: 0, fallback: 0, errors: 0 };
  private firstPages: EventCache<string, FirstPage> | null = null;
  private events: EventBus | null = null;

  constructor(
    private readonly db: Database,
    private readonly store: FeedStore,
    private readonly queue: DurableQueue,
    private readonly config: Config['feeds'],
    private readonly log: FastifyBaseLogger,
    /** Posts seen lately: a page whose posts are all there needs no statement. */
    private readonly views: PostViewCache,
  ) {}

  private fanningOut = false;
  private fanOutAgain = false;
  private fanOutTimer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;

  private scheduleFanOut(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.fanOutPending();
    }, FANOUT_SOON_MS);
    this.soon.unref();
  }

  /** The pass running now, if any. */
  private pass: Promise<void> | null = null;

  /**
   * Stops fanning out, after the pass running now (bounded by its deadline), before Redis and the
   * database close under it; what it did not take waits in the outbox for the next start.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.fanOutTimer) clearInterval(this.fanOutTimer);
    if (this.soon) clearTimeout(this.soon);
    this.fanOutTimer = null;
    this.soon = null;
    await this.pass;
  }

  private stopped = false;

  /** Starts this process's workers and follows the events that change feeds. */
  async start(events: EventBus): Promise<void> {
    this.fanOutTimer = setInterval(() => void this.fanOutPending(), FANOUT_EVERY_MS);
    this.fanOutTimer.unref();
    for (let i = 0; i < REBUILD_WORKERS; i++) {
      await this.queue.work<{ userId: number }>(REBUILD, REBUILD_BATCH, async (jobs) => {
        for (const job of jobs) await this.rebuild(job.userId);
      });
    }
    this.events = events;
    const firstPages = new EventCache<string, FirstPage>(events, FIRST_PAGES);
    this.firstPages = firstPages;
    events.subscribe((event) => dropFirstPages(firstPages, event));
    events.subscribe(async (event) => {
      switch (event.type) {
        case 'post.created':
          // Committed: its outbox row is visible; fan it out soon (posts arriving meanwhile join it).
          this.scheduleFanOut();
          break;
        case 'user.followed':
        case 'user.unfollowed':
          await this.store.drop(event.followerId).catch((error) => this.warn(error, 'drop'));
          break;
        case 'hashtag.followed':
        case 'hashtag.unfollowed':
          // The tag's posts are merged at read; its reposts' first entries change (firstEntryOnly).
          await this.store.drop(event.userId).catch((error) => this.warn(error, 'drop'));
          break;
        case 'visibility.changed':
          // Built again by the query, which applies the new rules (entries hidden now, or shown again).
          for (const userId of event.userIds) {
            await this.store.drop(userId).catch((error) => this.warn(error, 'drop'));
          }
          break;
        case 'user.suspended':
          // A suspension needs nothing here: a page's suspended entries are missing when read, and
          // pruned (fromFeed). A lift brings their posts back: the feeds that may have shown them
          // (their followers', and those of whoever reposted or quoted them) are built again.
          if (!event.suspended) await this.dropReadersFeeds(event.userId).catch((e) => this.warn(e, 'drop'));
          break;
        case 'post.deleted':
        case 'post.updated':
        case 'post.card':
        case 'post.liked':
        case 'post.unliked':
        case 'post.bookmarked':
        case 'post.unbookmarked':
        case 'user.updated':
        case 'oauth.revoked':
        case 'feed.updated':
        case 'sessions.ended':
        case 'notifications.read':
        case 'notification.created':
        case 'conversation.updated':
        case 'poll.updated':
          // Feeds hold post ids of followed people: counts, profiles and the rest are read with each page.
          break;
        default:
          exhaustive(event);
      }
    });
  }

  /**
   * Called inside the transaction that creates a post: the post joins the outbox, committed with it;
   * `fanOutPending` writes it to the feeds (this process right after, or any process's timer).
   */
  enqueueFanOut(tx: Tx, postId: number): Promise<void> {
    return repo.addToOutbox(tx, postId);
  }

  /**
   * Fans out what the outbox holds, in batches, each batch in one transaction that takes its rows
   * (locked: other processes' passes skip them), writes the posts to the feeds and deletes the rows —
   * committed only once the feeds have them. Runs after each post (throttled) and every
   * FANOUT_EVERY_MS, so the posts of a process that died, or of a pass that failed, still go out.
   * A pass that outlives `jobExpireSeconds` (Redis connected but silent) is given up and rolled back.
   */
  async fanOutPending(): Promise<void> {
    if (this.fanningOut) {
      this.fanOutAgain = true;
      return;
    }
    if (this.stopped) return;
    this.fanningOut = true;
    this.pass = this.runPasses();
    await this.pass;
  }

  private async runPasses(): Promise<void> {
    try {
      do {
        this.fanOutAgain = false;
        let taken = FANOUT_BATCH;
        while (taken === FANOUT_BATCH && !this.stopped) {
          const authors: number[] = [];
          taken = await this.db.transaction(async (tx) => {
            const postIds = await repo.takeFromOutbox(tx, FANOUT_BATCH);
            if (postIds.length > 0) {
              authors.push(...(await withDeadline(this.fanOut(tx, postIds), this.config.jobExpireSeconds * 1000)));
            }
            return postIds.length;
          });
          // First pages kept in memory (every process's) were read before these posts reached the feeds.
          if (authors.length > 0) await this.events?.publish([{ type: 'feed.updated', authorIds: authors }]);
        }
      } while (this.fanOutAgain && !this.stopped);
    } catch (error) {
      this.log.warn({ err: error }, 'home feed: a fan-out failed; its posts wait in the outbox for the next pass');
    } finally {
      this.fanningOut = false;
      this.pass = null;
    }
  }

  /** Posts and jobs not handled yet (tests and the benchmark wait for 0). */
  async pendingJobs(): Promise<number> {
    return (await repo.outboxSize(this.db)) + (await this.queue.pending([REBUILD]));
  }

  /**
   * `limit + 1` rows of the viewer's Following timeline after `cursor` (the shape listPage wants), from
   * the feed when it can answer exactly, else from the query.
   */
  async page(viewerId: number, cursor: Cursor | null, limit: number): Promise<PostRow[]> {
    return (await this.answer(viewerId, cursor, limit)).rows;
  }

  /**
   * The first page serialized by `serialize`, kept in this process's memory per member when the
   * feed answered it, until an event changes what it shows (dropFirstPages: a new post by someone
   * on it, a fan-out, a like, a reply, a delete, a follow, a profile edit) or FIRST_PAGES.ttlMs.
   * Pages the query answered are not kept: their feed is being built.
   */
  async firstPageJson(viewerId: number, limit: number, serialize: (rows: PostRow[]) => string): Promise<KeptBody> {
    return (await this.firstPage(viewerId, limit, 'web', async (rows) => ({ body: serialize(rows), extra: null })))
      .body;
  }

  /**
   * firstPageJson for any `format` (the web's JSON, the Mastodon API's statuses): each kept apart,
   * dropped by the same events. `serialize` may read more (Mastodon's accounts) and keep an extra.
   * The body is kept with its compressed forms (KeptBody): a page sent again costs no compression.
   */
  async firstPage(
    viewerId: number,
    limit: number,
    format: string,
    serialize: (rows: PostRow[]) => Promise<{ body: string; extra: string | null }>,
  ): Promise<{ body: KeptBody; extra: string | null }> {
    const key = firstPageKey(viewerId, format);
    const kept = this.firstPages?.get(key);
    if (kept?.limit === limit) {
      this.stats.fromFeed++;
      this.stats.kept++;
      return { body: kept.body, extra: kept.extra };
    }
    const ticket = this.firstPages?.ticket() ?? 0;
    const { rows, sources } = await this.answer(viewerId, null, limit);
    const serialized = await serialize(rows);
    const body = new KeptBody(serialized.body);
    const extra = serialized.extra;
    if (sources && this.firstPages) {
      const posts = new Set<number>();
      for (const row of rows) {
        posts.add(row.id);
        if (row.parentId !== null) posts.add(row.parentId);
        // A quote shows its quoted post, a repost the reposted one (and its quote): their changes change the page too.
        if (row.quoteOfId !== null) posts.add(row.quoteOfId);
        if (row.repostOfId !== null) posts.add(row.repostOfId);
        const repostedQuote = repostedQuoteOf(row);
        if (repostedQuote !== null) posts.add(repostedQuote);
      }
      const { followees, tags } = sources;
      this.firstPages.set(key, { viewerId, limit, body, extra, posts, followees, tags }, ticket);
    }
    return { body, extra };
  }

  /** The rows, and whom and which tags the viewer follows when the feed answered (null when the query did). */
  private async answer(
    viewerId: number,
    cursor: Cursor | null,
    limit: number,
  ): Promise<{ rows: PostRow[]; sources: HomeSources | null }> {
    try {
      const answer = await this.fromFeed(viewerId, cursor, limit);
      if (answer) {
        this.stats.fromFeed++;
        return answer;
      }
    } catch (error) {
      // Redis away, or anything unexpected: the query answers; nothing is lost.
      this.stats.errors++;
      this.warn(error, 'read');
    }
    this.stats.fallback++;
    return { rows: await findFollowingPage(this.db, viewerId, cursor, limit), sources: null };
  }

  private async fromFeed(
    viewerId: number,
    cursor: Cursor | null,
    limit: number,
  ): Promise<{ rows: PostRow[]; sources: HomeSources } | null> {
    const n = limit + 1;
    const before = cursor ? { score: micros(cursor.t), member: padId(cursor.id) } : null;
    const read = await this.store.read(viewerId, before, n + TIE_SLACK);
    if (!read.entries || !read.floor) {
      await this.queue
        .send(REBUILD, { userId: viewerId }, { singletonKey: `user:${viewerId}` })
        .catch((error) => this.warn(error, 'queue a rebuild'));
      return null;
    }
    // Ties on the cursor's microsecond filtered out more than the slack covers: let the query answer.
    if (read.full && read.entries.length < n) return null;
    const pulled =
      read.pulled.length > 0 ? await repo.findPulledPage(this.db, viewerId, read.pulled, cursor, limit) : [];
    const loadSources = () => repo.findHomeSources(this.db, viewerId);
    const sources = await this.views.homeSources(viewerId, loadSources);
    // Followed hashtags' posts are never in a feed: read with each page (their authors are not followed).
    const tagged = sources.tags.size > 0 ? await findFollowingPage(this.db, viewerId, cursor, limit, 'tags') : [];

    // Merge the feed's entries, the pulled posts and the tags' posts, newest first, each post once.
    const pulledKeys = [...pulled, ...tagged].map((row) => ({ key: keyOf(row), row }));
    const seen = new Set(pulledKeys.map(({ row }) => row.id));
    const merged: { key: FeedKey; row?: PostRow }[] = [
      ...read.entries.filter((e) => !seen.has(Number(e.member))).map((key) => ({ key })),
      ...pulledKeys,
    ].sort((a, b) => (newer(a.key, b.key) ? -1 : newer(b.key, a.key) ? 1 : 0));
    const page = merged.slice(0, n);

    // Every post newer than the floor is in the feed: the page is exact if it does not reach below it.
    if (read.floor !== COMPLETE) {
      const floor = read.floor;
      const shown = page.slice(0, limit);
      const last = shown[shown.length - 1];
      if (page.length < n || !last || !newer(last.key, floor)) return null;
    }

    const ids = page.filter((p) => !p.row).map((p) => Number(p.key.member));
    const { rows, followees } = await this.views.homeRows(viewerId, ids, {
      posts: (missing) => findPostViews(this.db, viewerId, missing),
      sources: loadSources,
    });
    const found = new Map(rows.map((row) => [row.id, row]));
    const inHome = (row: PostRow | undefined) =>
      row !== undefined && (row.authorId === viewerId || followees.has(row.authorId));
    const stale = ids.filter((id) => !inHome(found.get(id)));
    if (stale.length > 0) {
      // Deleted, or by someone no longer followed: gone from the feed, and this page from the query.
      await this.store.remove(viewerId, stale.map(padId));
      return null;
    }
    return {
      rows: page.map((p) => p.row ?? (found.get(Number(p.key.member)) as PostRow)),
      sources: { followees, tags: sources.tags },
    };
  }

  /**
   * Writes posts to the feeds of their authors and followers, unless the author is pulled (too many
   * followers); posts deleted meanwhile are skipped. Reads through `db` (the pass's transaction), two
   * statements and two Redis round trips for the whole batch. Answers whose feeds it wrote to.
   */
  async fanOut(db: Executor, postIds: number[]): Promise<number[]> {
    const found = await repo.findFanOutPosts(db, postIds);
    const authorIds = [...new Set(found.map((post) => post.authorId))];
    for (const post of found) {
      if (post.followersCount > this.config.pullAboveFollowers) await this.store.markPulled(post.authorId);
    }
    const pulled = await this.store.pulledOf(authorIds);
    const pushed = authorIds.filter((id) => !pulled.has(id));
    const followers = new Map<number, number[]>(pushed.map((id) => [id, [id]]));
    for (const { followerId, followeeId } of await repo.findFollowersOf(db, pushed)) {
      followers.get(followeeId)?.push(followerId);
    }
    const active = new Set(await this.store.active([...new Set([...followers.values()].flat())]));
    const candidates: { postId: number; readerId: number }[] = [];
    for (const post of found) {
      for (const readerId of followers.get(post.authorId) ?? []) {
        if (active.has(readerId)) candidates.push({ postId: post.id, readerId });
      }
    }
    // Not to those it is hidden from; a repost only where it is the reposted post's first entry (as the query answers).
    const shown = await repo.readersShowing(db, candidates);
    const keys = new Map(found.map((post) => [post.id, { score: micros(post.cursorTime), member: padId(post.id) }]));
    await this.store.addMany(shown.map(({ postId, readerId }) => ({ userId: readerId, key: keys.get(postId)! })));
    return pushed;
  }

  /**
   * The job of a missing feed: claimed first (fan-outs from now on land in it), then filled from the
   * query page by page (small pages are what the query is fast at; one of FEED_SIZE is not).
   */
  async rebuild(userId: number): Promise<void> {
    if ((await this.store.claim(userId)) === 0) return; // Built, or being built.
    const keys: FeedKey[] = [];
    let cursor: Cursor | null = null;
    const page = Math.min(REBUILD_PAGE, this.config.size);
    while (keys.length <= this.config.size) {
      const rows = await findFollowingKeys(this.db, userId, cursor, page);
      const shown = rows.slice(0, page);
      keys.push(...shown.map(keyOf));
      const last = shown[shown.length - 1];
      if (rows.length <= page || !last) break;
      cursor = { t: last.cursorTime, id: last.id };
    }
    await this.store.finish(userId, keys.slice(0, this.config.size + 1), keys.length <= this.config.size);
  }

  /** Drops the home feeds that may show something of `userId`'s (built again by the query when next read). */
  private async dropReadersFeeds(userId: number): Promise<void> {
    for (const readerId of await repo.findReadersOfAuthor(this.db, userId)) await this.store.drop(readerId);
  }

  private warn(error: unknown, what: string) {
    this.log.warn({ err: error }, `home feed: ${what} failed; answered from the database`);
  }
}

/** `work`, or a rejection once `ms` have passed (the work itself is left to finish or hang on its own). */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const keyOf = (row: { cursorTime: string; id: number }): FeedKey => ({
  score: micros(row.cursorTime),
  member: padId(row.id),
});

/** Drops the kept first pages an event changes (FeedsService.firstPageJson). */
const firstPageKey = (viewerId: number, format: string) => `${viewerId}:${format}`;

function dropFirstPages(pages: EventCache<string, FirstPage>, event: DomainEvent): void {
  const byAuthor = (authorId: number) => (page: FirstPage) =>
    page.viewerId === authorId || page.followees.has(authorId);
  const dropOf = (userId: number) => pages.dropWhere((page) => page.viewerId === userId);
  switch (event.type) {
    case 'post.created': {
      // On its way to the feeds (pulled authors: read with each page); a reply changes its parent's count.
      // A repost changes the count of the post it reposts. A post with a followed tag joins at the next read.
      const tags = extractHashtags(event.view.text);
      pages.dropWhere(
        (page) =>
          byAuthor(event.authorId)(page) ||
          tags.some((tag) => page.tags.has(tag)) ||
          (event.parentId !== null && page.posts.has(event.parentId)) ||
          (event.repostOfId !== undefined && page.posts.has(event.repostOfId)),
      );
      break;
    }
    case 'feed.updated': {
      const authors = new Set(event.authorIds);
      pages.dropWhere((page) => authors.has(page.viewerId) || [...authors].some((a) => page.followees.has(a)));
      break;
    }
    case 'post.deleted': {
      const { repostOfId } = event;
      pages.dropWhere(
        (page) => page.posts.has(event.postId) || (repostOfId !== undefined && page.posts.has(repostOfId)),
      );
      break;
    }
    case 'post.card': // its card arrived
    case 'post.liked':
    case 'post.unliked':
    case 'poll.updated':
    case 'post.updated':
      // Its counts (a poll's too, and its end: a kept page would show it open); an edit changes the
      // post wherever a page shows it (itself, or quoted: quoted ids are in `posts`).
      pages.dropWhere((page) => page.posts.has(event.postId));
      break;
    case 'post.bookmarked':
    case 'post.unbookmarked':
      dropOf(event.userId); // only their own pages show it
      break;
    case 'user.followed':
    case 'user.unfollowed':
      dropOf(event.followerId);
      break;
    case 'hashtag.followed':
    case 'hashtag.unfollowed':
      dropOf(event.userId);
      break;
    case 'visibility.changed':
      for (const userId of event.userIds) dropOf(userId);
      break;
    case 'user.updated':
    case 'user.suspended':
      pages.clear();
      break;
    case 'oauth.revoked':
    case 'sessions.ended':
    case 'notifications.read':
    case 'notification.created':
    case 'conversation.updated':
      // Nothing a kept first page shows.
      break;
    default:
      exhaustive(event);
  }
}
