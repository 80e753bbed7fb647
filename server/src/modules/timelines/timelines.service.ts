import type { Post } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { decodeCursor, type Page, toPage } from '../../lib/cursor.ts';
import { toPost } from '../posts/posts.pack.ts';
import type { PostRow } from '../posts/posts.repository.ts';
import type { PageRequest } from '../posts/posts.service.ts';
import { type SessionUser, type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import * as repo from './timelines.repository.ts';

const keyOf = (row: PostRow) => ({ t: row.cursorTime, id: row.id });

/**
 * The two home timelines. Pages are keyed on (created_at, id), newest first: posts that arrive
 * while someone scrolls are newer than any cursor, so the next pages neither skip nor repeat.
 */
export class TimelinesService {
  constructor(private readonly db: Database) {}

  /** Everyone's posts, replies included; visitors too. */
  async everyone(viewer: Viewer, page: PageRequest): Promise<Page<Post>> {
    const rows = await repo.findEveryonePage(this.db, viewerIdOf(viewer), decodeCursor(page.cursor), page.limit);
    return toPage(rows, page.limit, keyOf, toPost);
  }

  /** The viewer's own posts and the posts of the people they follow. */
  async following(viewer: SessionUser, page: PageRequest): Promise<Page<Post>> {
    const rows = await repo.findFollowingPage(this.db, viewer.userId, decodeCursor(page.cursor), page.limit);
    return toPage(rows, page.limit, keyOf, toPost);
  }
}
