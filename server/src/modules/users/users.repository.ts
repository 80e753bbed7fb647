import type { Visibility } from '@pipit/contract';
import { and, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { Executor } from '../../db/client.ts';
import { blocks, followRequests, follows, mutes, users } from '../../db/schema.ts';
import { userHiddenFrom } from '../safety/visibility.ts';
import {
  type CurrentUserRow,
  currentUserColumns,
  memberEmail,
  type UserSummaryRow,
  userColumns,
} from './users.pack.ts';

// Drizzle renders a column of the selected table unqualified ("id"): inside a subquery that would
// bind to the subquery's own table, so correlated subqueries name users.id in full.
const usersId = sql.raw('"users"."id"');
const lowerEmail = sql`lower(${users.email})`;
const lowerUsername = sql`lower(${users.username})`;

export const USERS_EMAIL_KEY = 'users_email_lower_key';
export const USERS_USERNAME_KEY = 'users_username_lower_key';

/**
 * Adds an account: an admin when `admin` (config.adminEmails) or when it is the first account (two
 * first registrations at the same instant could both be; the README says to use ADMIN_EMAILS).
 */
export async function insertUser(
  db: Executor,
  values: { email: string; username: string; name: string; passwordHash: string },
  admin: boolean,
): Promise<CurrentUserRow> {
  const role = admin ? sql`'admin'` : sql`(case when exists (select 1 from ${users}) then 'member' else 'admin' end)`;
  const [row] = await db
    .insert(users)
    .values({ ...values, role })
    .returning(currentUserColumns);
  return row!;
}

/** Makes the accounts of these emails admins (at start: ADMIN_EMAILS may name existing accounts). */
export async function promoteAdmins(db: Executor, emails: readonly string[]): Promise<void> {
  if (emails.length === 0) return;
  await db
    .update(users)
    .set({ role: 'admin' })
    .where(and(inArray(lowerEmail, [...emails]), ne(users.role, 'admin')));
}

/**
 * Rows whose email or username equals the given ones ignoring case (both unique indexes on
 * lower(...) answer it), other than `exceptId`.
 */
export async function findByEmailOrUsername(
  db: Executor,
  match: { email?: string; username?: string },
  exceptId?: number,
): Promise<Array<{ id: number; email: string; username: string }>> {
  // Members only: remote people have no email, and their usernames are unique per server.
  const conditions: SQL[] = [];
  if (match.email !== undefined) conditions.push(eq(lowerEmail, match.email.toLowerCase()));
  if (match.username !== undefined) conditions.push(eq(lowerUsername, match.username.toLowerCase()));
  if (conditions.length === 0) return [];
  return db
    .select({ id: users.id, email: memberEmail, username: users.username })
    .from(users)
    .where(and(or(...conditions), isNull(users.domain), exceptId === undefined ? undefined : ne(users.id, exceptId)))
    .limit(2);
}

/** A person with their private columns and whether they have an unread notification (partial index). */
export async function findCurrentUser(
  db: Executor,
  id: number,
): Promise<(CurrentUserRow & { hasNotification: boolean }) | null> {
  const [row] = await db
    .select({
      ...currentUserColumns,
      hasNotification: sql<boolean>`exists (select 1 from notifications n where n.user_id = ${usersId} and n.read_at is null)`,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}

/**
 * A person's public columns, and whether `viewerId` follows them: a scalar subquery probing the
 * follows primary key once per row (as EXISTS the planner may hash everyone the viewer follows,
 * which is slow on lists; docs/performance.md).
 */
export function userViewColumns(viewerId: number | null) {
  return {
    ...userColumns,
    isFollowing:
      viewerId === null
        ? sql<boolean>`false`
        : sql<boolean>`coalesce((select true from ${follows} mine where mine.follower_id = ${viewerId} and mine.followee_id = ${usersId}), false)`,
    followRequested:
      viewerId === null
        ? sql<boolean>`false`
        : // Requests wait only on locked accounts (unlocking approves them all) and on people elsewhere
          // (until their server accepts): no probe for the others.
          sql<boolean>`(case when "users"."locked" or "users"."domain" is not null then coalesce((select true from ${followRequests} mine where mine.requester_id = ${viewerId} and mine.target_id = ${usersId}), false) else false end)`,
    // The viewer's own block and mute of them (the same kind of probe); never whether they blocked the viewer.
    isBlocking:
      viewerId === null
        ? sql<boolean>`false`
        : sql<boolean>`coalesce((select true from ${blocks} mine where mine.blocker_id = ${viewerId} and mine.blocked_id = ${usersId}), false)`,
    isMuting:
      viewerId === null
        ? sql<boolean>`false`
        : sql<boolean>`coalesce((select true from ${mutes} mine where mine.muter_id = ${viewerId} and mine.muted_id = ${usersId} and (mine.expires_at is null or mine.expires_at > now())), false)`,
  };
}

/** A person as userViewColumns selects them. */
export type UserViewRow = SelectResultFields<ReturnType<typeof userViewColumns>>;

export async function userExists(db: Executor, id: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
  return row !== undefined;
}

/** A person, by id or username, as `viewerId` sees them. */
export async function findUser(
  db: Executor,
  key: { id: number } | { username: string },
  viewerId: number | null,
): Promise<UserViewRow | null> {
  const [row] = await db
    .select(userViewColumns(viewerId))
    .from(users)
    // By username: a member (the lower(username) unique index of members).
    .where(
      'id' in key
        ? eq(users.id, key.id)
        : and(sql`lower(${users.username}) = ${key.username.toLowerCase()}`, isNull(users.domain)),
    )
    .limit(1);
  return row ?? null;
}

/** Several people as `viewerId` sees them, in no particular order (unknown ids left out): one statement. */
export async function findUsers(db: Executor, ids: number[], viewerId: number | null): Promise<UserViewRow[]> {
  if (ids.length === 0) return [];
  return db.select(userViewColumns(viewerId)).from(users).where(inArray(users.id, ids));
}

/** The columns an edit may change; undefined leaves a column as it is. */
export interface UserPatch {
  name?: string;
  username?: string;
  bio?: string;
  profileImage?: string | null;
  coverImage?: string | null;
  defaultVisibility?: Visibility;
  locked?: boolean;
  expandSpoilers?: boolean;
}

/** Returns false when the row no longer exists. */
export async function updateUser(db: Executor, id: number, patch: UserPatch): Promise<boolean> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as UserPatch;
  const rows = await db
    .update(users)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** How far each source of suggestions looks: every part of the query is bounded by these. */
const SUGGESTION_BOUNDS = {
  /** The viewer's most recent follows whose own follows are looked at. */
  seeds: 50,
  /** Most recent follows looked at per seed. */
  perSeed: 50,
  /** Most recent posts whose authors are candidates. */
  recentPosts: 300,
  /** Newest accounts that are candidates. */
  newestUsers: 200,
};

/**
 * People to suggest to `viewerId` (0 for a visitor), best first, never the viewer nor anyone they
 * follow. Candidates, in tiers: people followed by the people the viewer follows (most shared
 * first), then recent authors (most followed first), then the newest accounts. Every source is a
 * bounded index range scan (follows by follower and time, posts by time, users by time), so the cost
 * does not grow with the tables.
 */
export async function findSuggestions(db: Executor, viewer: number | null, limit: number): Promise<UserSummaryRow[]> {
  const b = SUGGESTION_BOUNDS;
  // Ids start at 1: 0 is nobody, so a visitor excludes no one.
  const viewerId = viewer ?? 0;
  const result = (await db.execute(sql`
    with mine as (
      select f.followee_id from follows f
      where f.follower_id = ${viewerId}
      order by f.created_at desc
      limit ${b.seeds}
    ), friends_of_friends as (
      select ff.followee_id as id, count(*)::int as score
      from mine m
      cross join lateral (
        select f2.followee_id from follows f2
        where f2.follower_id = m.followee_id
        order by f2.created_at desc
        limit ${b.perSeed}
      ) ff
      group by ff.followee_id
    ), recent_authors as (
      select distinct p.author_id as id
      from (select author_id from posts order by created_at desc, id desc limit ${b.recentPosts}) p
    ), newest as (
      select id from users order by created_at desc, id desc limit ${b.newestUsers}
    ), candidates as (
      select id, 0 as tier, score from friends_of_friends
      union all select id, 1, 0 from recent_authors
      union all select id, 2, 0 from newest
    ), best as (
      select distinct on (id) id, tier, score from candidates order by id, tier, score desc
    )
    select u.id, u.name, u.username, u.profile_image, u.domain
    from best b
    join users u on u.id = b.id
    where u.id <> ${viewerId}
      and not exists (select 1 from follows f where f.follower_id = ${viewerId} and f.followee_id = u.id)
      and not ${userHiddenFrom(viewerId, sql`u.id`)}
    order by b.tier, b.score desc, u.followers_count desc, u.created_at desc, u.id desc
    limit ${limit}
  `)) as unknown as {
    rows: Array<{
      id: number | string;
      name: string;
      username: string;
      profile_image: string | null;
      domain: string | null;
    }>;
  };
  return result.rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    username: r.username,
    profileImage: r.profile_image,
    domain: r.domain,
  }));
}

export async function updateEmail(db: Executor, id: number, email: string): Promise<void> {
  await db.update(users).set({ email, updatedAt: new Date() }).where(eq(users.id, id));
}
