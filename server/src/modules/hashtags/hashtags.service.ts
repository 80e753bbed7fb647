import {
  extractHashtags,
  type Hashtag,
  MAX_FOLLOWED_HASHTAGS,
  type Post,
  TRENDING_COUNT,
  type TrendingHashtags,
} from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, encodeCursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { AppError } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus, exhaustive } from '../../lib/events.ts';
import { toPost } from '../posts/posts.pack.ts';
import { type SessionUser, type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import * as repo from './hashtags.repository.ts';

/** How far back "trending" looks, and how long one answer is reused (every page's right column asks). */
const TRENDING_WINDOW_MS = 24 * 60 * 60 * 1000;
const TRENDING_REUSE_MS = 60 * 1000;

/** Hashtag pages and trending hashtags. Tags are stored and matched in their normal form (contract `hashtagOf`). */
export class HashtagsService {
  private trending: { at: number; answer: Promise<TrendingHashtags> } | null = null;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {
    // A tagged post written or any post deleted (in any process): the next ask counts again.
    events.subscribe((event) => {
      switch (event.type) {
        case 'post.deleted':
        // An edit may change a post's tags (rare: counted again).
        case 'post.updated':
          this.trending = null;
          break;
        case 'post.created':
          if (extractHashtags(event.view.text).length > 0) this.trending = null;
          break;
        case 'post.card':
        case 'post.liked':
        case 'post.unliked':
        case 'post.bookmarked':
        case 'post.unbookmarked':
        case 'user.followed':
        case 'user.unfollowed':
        case 'hashtag.followed':
        case 'hashtag.unfollowed':
        case 'user.updated':
        case 'visibility.changed':
        case 'user.suspended':
        case 'oauth.revoked':
        case 'feed.updated':
        case 'sessions.ended':
        case 'notifications.read':
        case 'notification.created':
        case 'conversation.updated':
        case 'poll.updated':
          // Trending counts tagged posts and their authors, nothing else.
          break;
        default:
          exhaustive(event);
      }
    });
    events.onGap(() => {
      this.trending = null;
    });
  }

  /** The posts with `#tag` (its stored form: the route's params schema parsed it), newest first; an unknown tag has an empty page. */
  async posts(viewer: Viewer, tag: string, page: PageRequest): Promise<Page<Post>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findHashtagPage(this.db, viewerIdOf(viewer), tag, cursor, limit),
      toPost,
    );
  }

  /**
   * The tags the most distinct people used in the last 24 hours. Shared by everyone and reused for up
   * to a minute, until a tagged post is written or a post deleted.
   */
  async trendingNow(now = Date.now()): Promise<TrendingHashtags> {
    if (this.trending && now - this.trending.at < TRENDING_REUSE_MS) return this.trending.answer;
    const answer = repo
      .findTrending(this.db, new Date(now - TRENDING_WINDOW_MS), TRENDING_COUNT)
      .then((items) => ({ items }));
    this.trending = { at: now, answer };
    // A failure is not reused.
    answer.catch(() => {
      if (this.trending?.answer === answer) this.trending = null;
    });
    return answer;
  }

  /** `tag` (its stored form) as the member sees it: whether they follow it. */
  async hashtag(viewer: SessionUser, tag: string): Promise<Hashtag> {
    return { tag, following: await repo.isFollowingTag(this.db, viewer.userId, tag) };
  }

  /** Of `tags` (stored forms), those the member follows (a visitor follows none). */
  async followedAmong(viewer: Viewer, tags: readonly string[]): Promise<Set<string>> {
    const me = viewerIdOf(viewer);
    return me === null ? new Set() : repo.followedAmong(this.db, me, tags);
  }

  /**
   * Follows `tag`: its public posts join the member's Home (merged when it is read). Following it
   * again answers the same; a member following MAX_FOLLOWED_HASHTAGS tags already is refused.
   */
  async follow(viewer: SessionUser, tag: string): Promise<Hashtag> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      if (await repo.isFollowingTag(tx, me, tag)) return;
      // Counted in the transaction that adds; two follows at once may both pass (one over), not a leak.
      if ((await repo.countFollowedTags(tx, me)) >= MAX_FOLLOWED_HASHTAGS) {
        throw new AppError(
          'LIMIT_REACHED',
          `You can follow at most ${MAX_FOLLOWED_HASHTAGS} hashtags; unfollow one first.`,
        );
      }
      await repo.insertFollowedTag(tx, me, tag);
      outbox.add({ type: 'hashtag.followed', userId: me, tag });
    });
    return { tag, following: true };
  }

  /** Unfollows `tag`: its posts leave Home (unless their authors are followed). Not following it is no error. */
  async unfollow(viewer: SessionUser, tag: string): Promise<Hashtag> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      if (await repo.deleteFollowedTag(tx, me, tag)) outbox.add({ type: 'hashtag.unfollowed', userId: me, tag });
    });
    return { tag, following: false };
  }

  /** The tags the member follows, newest follow first. */
  async followed(viewer: SessionUser, page: PageRequest): Promise<Page<Hashtag & { followId: number }>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findFollowedTagsPage(this.db, viewer.userId, cursor, limit),
      (row) => ({ tag: row.tag, following: true, followId: row.id }),
    );
  }

  /** The cursor that continues below the member's follow `followId` (Mastodon's max_id), or null when it is not theirs. */
  async followedCursorBelow(viewer: SessionUser, followId: number): Promise<string | null> {
    const key = await repo.findFollowedTagKey(this.db, viewer.userId, followId);
    return key ? encodeCursor(key) : null;
  }
}
