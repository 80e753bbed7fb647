import { extractHashtags, type Post, TRENDING_COUNT, type TrendingHashtags } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { type EventBus, exhaustive } from '../../lib/events.ts';
import { toPost } from '../posts/posts.pack.ts';
import { type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import * as repo from './hashtags.repository.ts';

/** How far back "trending" looks, and how long one answer is reused (every page's right column asks). */
const TRENDING_WINDOW_MS = 24 * 60 * 60 * 1000;
const TRENDING_REUSE_MS = 60 * 1000;

/** Hashtag pages and trending hashtags. Tags are stored and matched in their normal form (contract `hashtagOf`). */
export class HashtagsService {
  private trending: { at: number; answer: Promise<TrendingHashtags> } | null = null;

  constructor(
    private readonly db: Database,
    events: EventBus,
  ) {
    // A tagged post written or any post deleted (in any process): the next ask counts again.
    events.subscribe((event) => {
      switch (event.type) {
        case 'post.deleted':
          this.trending = null;
          break;
        case 'post.created':
          if (extractHashtags(event.view.text).length > 0) this.trending = null;
          break;
        case 'post.liked':
        case 'post.unliked':
        case 'post.bookmarked':
        case 'post.unbookmarked':
        case 'user.followed':
        case 'user.unfollowed':
        case 'user.updated':
        case 'visibility.changed':
        case 'user.suspended':
        case 'oauth.revoked':
        case 'feed.updated':
        case 'sessions.ended':
        case 'notifications.read':
        case 'notification.created':
        case 'conversation.updated':
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
}
