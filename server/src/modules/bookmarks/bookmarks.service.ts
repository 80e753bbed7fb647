import type { Post } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { type Cursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import type { EventBus } from '../../lib/events.ts';
import type { PostId } from '../../lib/ids.ts';
import { toPost } from '../posts/posts.pack.ts';
import type { PostsService } from '../posts/posts.service.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import * as repo from './bookmarks.repository.ts';

/**
 * Bookmarks: posts a member keeps for later. Private: nobody else learns of them (no count, no
 * notification); the post's `bookmarkedByMe` tells only its bookmarker. Idempotent both ways.
 */
export class BookmarksService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly posts: PostsService,
  ) {}

  /** Keeps the post (a no-op when already kept); 404 for an unknown post. Answers the post as the member sees it. */
  async add(viewer: SessionUser, postId: PostId): Promise<Post> {
    const added = await repo.insertBookmark(this.db, viewer.userId, postId);
    if (added) await this.events.publish([{ type: 'post.bookmarked', postId, userId: viewer.userId }]);
    // Unknown posts answer 404 here: nothing was added for them.
    return this.posts.get(viewer, postId);
  }

  /** Takes the post out (a no-op when it was not kept); 404 for an unknown post. One statement, as `add`. */
  async remove(viewer: SessionUser, postId: PostId): Promise<Post> {
    const removed = await repo.deleteBookmark(this.db, viewer.userId, postId);
    if (removed) await this.events.publish([{ type: 'post.unbookmarked', postId, userId: viewer.userId }]);
    return this.posts.get(viewer, postId);
  }

  /** The member's bookmarks, newest bookmark first. */
  async list(viewer: SessionUser, page: PageRequest): Promise<Page<Post>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findBookmarkPage(this.db, viewer.userId, cursor, limit),
      toPost,
    );
  }
}
