import type { NotificationType } from '@pipit/contract';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../../db/client.ts';
import { notifications, posts } from '../../db/schema.ts';
import { type Cursor, cursorTime } from '../../lib/cursor.ts';
import { type GroupRef, groupKeySql, SAMPLE_ACCOUNTS } from './notifications.groups.ts';
import { shownTo } from './notifications.repository.ts';

/** Which of a person's notifications a list takes (who sees what always applies: shownTo). */
export interface NotificationFilter {
  /** Only these kinds (null: every kind). */
  types: readonly NotificationType[] | null;
  /** Only those this person caused (null: anyone's). */
  actorId: number | null;
  /** Only unread ones. */
  unreadOnly?: boolean;
}

/** A page bound on the list's order (created_at, id): `inclusive` keeps the notification at the bound itself. */
export interface Bound {
  at: Cursor;
  inclusive: boolean;
}

const n = sql.raw('n');
const key = (at: Cursor) => sql`(${at.t}::timestamptz, ${at.id}::bigint)`;
const below = (b: Bound) => sql`(n.created_at, n.id) ${sql.raw(b.inclusive ? '<=' : '<')} ${key(b.at)}`;
const above = (b: Bound) => sql`(n.created_at, n.id) ${sql.raw(b.inclusive ? '>=' : '>')} ${key(b.at)}`;

/** The notifications of `userId` a filter takes, as `n` with its post joined as `posts` (for shownTo). */
function taken(userId: number, filter: NotificationFilter): SQL {
  const types =
    filter.types === null
      ? sql`true`
      : sql`n.type in (${sql.join(
          filter.types.map((t) => sql`${t}`),
          sql`, `,
        )})`;
  return sql`n.user_id = ${userId} and ${types}
    and ${filter.actorId === null ? sql`true` : sql`n.actor_id = ${filter.actorId}`}
    and ${filter.unreadOnly ? sql`n.read_at is null` : sql`true`}
    and ${shownTo(userId, n, sql.raw('posts'))}`;
}
const from = sql`${notifications} n left join ${posts} posts on posts.id = n.post_id`;

/**
 * The page key of the notification `id` of `userId` (what Mastodon's max_id, since_id and min_id
 * name): its own (created_at, id); for one that is gone (dismissed, or never theirs) the time of
 * their newest notification with a lower id, so a page still starts where it was. Null when they
 * have no notification at or below that id.
 */
export async function notificationKey(db: Executor, userId: number, id: number): Promise<Cursor | null> {
  const [row] = await executeRows<{ t: string | null }>(
    db,
    sql`select coalesce(
      (select ${cursorTime(sql`n.created_at`)} from ${notifications} n where n.user_id = ${userId} and n.id = ${id}),
      (select ${cursorTime(sql`n.created_at`)} from ${notifications} n where n.user_id = ${userId} and n.id < ${id}
        order by n.created_at desc, n.id desc limit 1)) as t`,
  );
  return row?.t ? { t: row.t, id } : null;
}

/** A notification that stands for its group on a page: the first of its group met in the page's order. */
export interface WalkedRow {
  id: string;
  type: NotificationType;
  postId: string | null;
  actorId: string;
  t: string;
  groupKey: string;
}

/**
 * Mastodon's grouped page in one statement: from `start` (exclusive; null: the newest, or the oldest
 * for min_id) in the list's order, the next notification whose group has not been met yet, until
 * `limit` groups or `end` (exclusive) — a recursive walk where each step is one descent of
 * notifications_user_created_id_idx from the last one met, skipping the groups already met. Kinds
 * outside `grouped` each make their own group. The walk starts from a row of its own, so the
 * notification's conditions are written (and planned) once.
 */
export async function walkGroups(
  db: Executor,
  userId: number,
  filter: NotificationFilter,
  grouped: readonly NotificationType[],
  page: { order: 'newest' | 'oldest'; start: Cursor | null; end: Cursor | null; limit: number },
): Promise<WalkedRow[]> {
  const groupKey = groupKeySql(n, grouped);
  const newest = page.order === 'newest';
  const dir = sql.raw(newest ? 'desc' : 'asc');
  const start = page.start
    ? sql`${page.start.id}::bigint, ${page.start.t}::timestamptz`
    : sql.raw(`0::bigint, '${newest ? 'infinity' : '-infinity'}'::timestamptz`);
  const end = page.end ? (newest ? above : below)({ at: page.end, inclusive: false }) : sql`true`;
  return executeRows<WalkedRow>(
    db,
    sql`with recursive walk(id, created_at, group_key, seen) as (
      select ${start}, null::text, array[]::text[]
      union all
      select nx.id, nx.created_at, nx.group_key, w.seen || nx.group_key
      from walk w cross join lateral (
        select n.id, n.created_at, ${groupKey} as group_key
        from ${from} where ${taken(userId, filter)} and ${end}
          and (n.created_at, n.id) ${sql.raw(newest ? '<' : '>')} (w.created_at, w.id)
          and not (${groupKey} = any(w.seen))
        order by n.created_at ${dir}, n.id ${dir} limit 1
      ) nx
      where cardinality(w.seen) < ${page.limit}
    )
    select n.id::text as id, n.type, n.post_id::text as "postId", n.actor_id::text as "actorId",
      ${cursorTime(sql`n.created_at`)} as t, walk.group_key as "groupKey"
    from walk join ${notifications} n on n.id = walk.id
    where walk.group_key is not null
    order by walk.created_at ${dir}, walk.id ${dir}`,
  );
}

/** A group of a page, asked about: its key and what it gathers (kind, post, window). */
export interface GroupAsked {
  key: string;
  type: NotificationType;
  postId: number | null;
  from: Date;
  to: Date;
}

/** What a group holds up to the top of a page (Mastodon's group data). */
export interface GroupStats {
  newestId: string;
  newestT: string;
  /** Its newest people, newest first, at most SAMPLE_ACCOUNTS. */
  sampleIds: string[];
  count: number;
  /** Its oldest notification at or above the page's lower bound. */
  oldestId: string;
}

/** The members of a group: its kind, post and window (the window on notifications_user_created_id_idx). */
const memberOf = (g: SQL) => sql`n.type = ${g}.type and n.post_id is not distinct from ${g}.post_id
  and n.created_at >= ${g}.from_at and n.created_at < ${g}.to_at`;

/**
 * The data of each group of a page, in one statement: its newest notification and newest people up
 * to the page's top (`upper`), how many it holds up to there, and its oldest at or above the page's
 * bottom (`lower`; null: its oldest of all). Only what the person sees counts (shownTo), and only the
 * filter's person when it names one.
 */
export async function groupStats(
  db: Executor,
  userId: number,
  groups: GroupAsked[],
  filter: NotificationFilter,
  range: { upper: Bound | null; lower: Bound | null },
): Promise<Map<string, GroupStats>> {
  if (groups.length === 0) return new Map();
  const values = sql.join(
    groups.map(
      (g) =>
        sql`(${g.key}::text, ${g.type}::text, ${g.postId}::bigint, ${g.from.toISOString()}::timestamptz, ${g.to.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  const g = sql.raw('g');
  const members = sql`${from} where ${taken(userId, filter)} and ${memberOf(g)}`;
  const top = range.upper ? below(range.upper) : sql`true`;
  const bottom = range.lower ? above(range.lower) : sql`true`;
  const rows = await executeRows<{
    key: string;
    newestId: string | null;
    newestT: string | null;
    sampleIds: string[] | null;
    count: number;
    oldestId: string | null;
  }>(
    db,
    // One pass over each group's members (its window of the person's notifications), read once for all four.
    sql`select g.key, s.newest_id as "newestId", ${cursorTime(sql`s.newest_at`)} as "newestT", s.sample_ids as "sampleIds",
        s.count, s.oldest_id as "oldestId"
      from (values ${values}) as g(key, type, post_id, from_at, to_at)
      cross join lateral (
        select (array_agg(n.id::text order by n.created_at desc, n.id desc) filter (where ${top}))[1] as newest_id,
          max(n.created_at) filter (where ${top}) as newest_at,
          (array_agg(n.actor_id::text order by n.created_at desc, n.id desc) filter (where ${top}))[1:${sql.raw(String(SAMPLE_ACCOUNTS))}] as sample_ids,
          (count(*) filter (where ${top}))::int as count,
          (array_agg(n.id::text order by n.created_at, n.id) filter (where ${bottom}))[1] as oldest_id
        from ${members}
      ) s`,
  );
  const stats = new Map<string, GroupStats>();
  for (const row of rows) {
    const { newestId, newestT, sampleIds, count, oldestId } = row;
    if (newestId === null || newestT === null || oldestId === null) continue;
    stats.set(row.key, { newestId, newestT, sampleIds: sampleIds ?? [], count, oldestId });
  }
  return stats;
}

/** The members of a group as a condition on `n`. */
function inGroup(ref: GroupRef): SQL {
  if ('id' in ref) return sql`n.id = ${ref.id}`;
  return sql`n.type = ${ref.type} and ${ref.postId === null ? sql`n.post_id is null` : sql`n.post_id = ${ref.postId}`}
    and n.created_at >= ${ref.from.toISOString()}::timestamptz and n.created_at < ${ref.to.toISOString()}::timestamptz`;
}

/** A group's notifications the person sees, newest first, below `upper` and above `lower`, at most `limit`. */
export async function findGroupMembers(
  db: Executor,
  userId: number,
  ref: GroupRef,
  page: { upper: Bound | null; lower: Bound | null; limit: number },
): Promise<{ id: string; actorId: string; type: NotificationType; postId: string | null; t: string }[]> {
  return executeRows(
    db,
    sql`select n.id::text as id, n.actor_id::text as "actorId", n.type, n.post_id::text as "postId",
        ${cursorTime(sql`n.created_at`)} as t
      from ${from}
      where ${taken(userId, { types: null, actorId: null })} and ${inGroup(ref)}
        and ${page.upper ? below(page.upper) : sql`true`} and ${page.lower ? above(page.lower) : sql`true`}
      order by n.created_at desc, n.id desc limit ${page.limit}`,
  );
}

/** Deletes every notification of the person's group (a dismiss); answers how many there were. */
export async function deleteGroup(db: Executor, userId: number, ref: GroupRef): Promise<number> {
  const rows = await executeRows<{ id: string }>(
    db,
    sql`delete from ${notifications} n where n.user_id = ${userId} and ${inGroup(ref)} returning n.id::text as id`,
  );
  return rows.length;
}

/** The person's unread notifications a filter takes, counted up to `cap`. */
export async function countUnreadTaken(
  db: Executor,
  userId: number,
  filter: NotificationFilter,
  cap: number,
): Promise<number> {
  const [row] = await executeRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from (select 1 from ${from}
      where ${taken(userId, { ...filter, unreadOnly: true })} limit ${cap}) unread`,
  );
  return row?.count ?? 0;
}
