/**
 * What lists take out of Home: the members of a member's exclusive lists. One predicate, used by every
 * path that builds a home — the Following page's query (timelines.repository), the first-entry rule
 * of reposts, and the home feeds' fan-out and pulled pages (modules/feeds) — so they cannot disagree.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { listMembers, lists } from '../../db/schema.ts';

/**
 * True when `author` is on one of `viewer`'s exclusive lists. The first probe ("has the viewer an
 * exclusive list at all?", lists_owner_id_key) does not depend on the row when `viewer` is a
 * parameter, so PostgreSQL runs it once per statement: for the many members without one, no row is probed.
 * Then list_members_owner_user_idx for the author, and each list found by its primary key.
 */
export function excludedFromHome(viewer: SQL | SQLWrapper, author: SQL | SQLWrapper): SQL {
  return sql`(exists (select 1 from ${lists} xl where xl.owner_id = ${viewer} and xl.exclusive)
    and exists (select 1 from ${listMembers} xm join ${lists} xl on xl.id = xm.list_id
      where xm.owner_id = ${viewer} and xm.user_id = ${author} and xl.exclusive))`;
}
