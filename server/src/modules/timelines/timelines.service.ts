import type { Post } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import type { KeptBody } from '../../lib/compression.ts';
import { type Cursor, listPage, type Page, type PageRequest, packPage } from '../../lib/cursor.ts';
import type { FeedsService } from '../feeds/feeds.service.ts';
import { toPost } from '../posts/posts.pack.ts';
import type { PostRow } from '../posts/posts.repository.ts';
import { type SessionUser, type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import * as repo from './timelines.repository.ts';

/**
 * The two home timelines. Pages are keyed on (created_at, id), newest first: posts that arrive
 * while someone scrolls are newer than any cursor, so the next pages neither skip nor repeat.
 */
export class TimelinesService {
  constructor(
    private readonly db: Database,
    /** Home feeds written ahead (with PostgreSQL and Redis); the per-followee query otherwise. */
    private readonly feeds: FeedsService | null,
  ) {}

  /** Everyone's posts, replies included; visitors too. */
  async everyone(viewer: Viewer, page: PageRequest): Promise<Page<Post>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findEveryonePage(this.db, viewerIdOf(viewer), cursor, limit),
      toPost,
    );
  }

  /** The viewer's own posts and the posts of the people they follow. */
  async following(viewer: SessionUser, page: PageRequest): Promise<Page<Post>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) =>
        this.feeds
          ? this.feeds.page(viewer.userId, cursor, limit)
          : repo.findFollowingPage(this.db, viewer.userId, cursor, limit),
      toPost,
    );
  }

  /**
   * The same page as JSON, which the route sends as is. The first page of a home feed is kept
   * serialized until something on it changes (FeedsService.firstPageJson): a member opening their
   * home again costs no statement and no Redis round trip, and no compression (a KeptBody).
   */
  async followingJson(viewer: SessionUser, page: PageRequest): Promise<KeptBody | string> {
    if (this.feeds && !page.cursor) {
      const serialize = (rows: PostRow[]) => JSON.stringify(packPage(page.limit, rows, toPost));
      return this.feeds.firstPageJson(viewer.userId, page.limit, serialize);
    }
    return JSON.stringify(await this.following(viewer, page));
  }

  /**
   * The first page of the home timeline serialized by `serialize` in `format` (the Mastodon API's),
   * kept like followingJson's until something on it changes; null without home feeds (the caller
   * serializes `following` itself).
   */
  async followingFirstPage(
    viewer: SessionUser,
    limit: number,
    format: string,
    serialize: (page: Page<Post>) => Promise<{ body: string; extra: string | null }>,
  ): Promise<{ body: KeptBody; extra: string | null } | null> {
    if (!this.feeds) return null;
    return this.feeds.firstPage(viewer.userId, limit, format, (rows) => serialize(packPage(limit, rows, toPost)));
  }
}
