import type { AuditAction, ReportCategory, ReportOutcome, Role } from '@pipit/contract';
import { and, asc, desc, eq, isNotNull, isNull, ne, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, executeRows } from '../../db/client.ts';
import { auditLog, blocks, posts, reports, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import { inAudience, userSuspended } from '../safety/visibility.ts';

const reporter = alias(users, 'reporter');
const subject = alias(users, 'subject');
const resolver = alias(users, 'resolver');
const reported = alias(posts, 'reported');
const parent = alias(posts, 'parent');
const parentAuthor = alias(users, 'parent_author');

const moderatorUser = alias(users, 'moderator');
type People =
  | typeof users
  | typeof reporter
  | typeof subject
  | typeof resolver
  | typeof parentAuthor
  | typeof moderatorUser;

const summaryOf = (u: People) => ({
  id: u.id,
  name: u.name,
  username: u.username,
  profileImage: u.profileImage,
  domain: u.domain,
});

const moderatedColumns = (u: People) => ({ ...summaryOf(u), suspendedAt: u.suspendedAt, role: u.role });

/** A report's own columns, with the person it is about. */
const reportColumns = {
  id: reports.id,
  category: reports.category,
  comment: reports.comment,
  forwarded: reports.forwarded,
  postId: reports.postId,
  postText: reports.postText,
  outcome: reports.outcome,
  createdAt: reports.createdAt,
  resolvedAt: reports.resolvedAt,
  subject: moderatedColumns(subject),
};

/**
 * What a post report is about: the post, or for a repost the post it reposts (a repost has no words
 * of its own), with its author and text. Null when there is no such post, or none the reporter may
 * see: its author blocked them, or is suspended (the reporter's own blocks do not matter: one may
 * block someone and report them).
 */
export async function findReportablePost(
  db: Executor,
  postId: number,
  reporterId: number,
): Promise<{ id: number; authorId: number; text: string } | null> {
  const shown = alias(posts, 'shown');
  const [row] = await db
    .select({ id: shown.id, authorId: shown.authorId, text: shown.text })
    .from(posts)
    .innerJoin(shown, sql`${shown.id} = coalesce(${posts.repostOfId}, ${posts.id})`)
    .where(
      and(
        eq(posts.id, postId),
        sql`not exists (select 1 from ${blocks} b where b.blocker_id = ${shown.authorId} and b.blocked_id = ${reporterId})`,
        sql`not ${userSuspended(sql`${shown.authorId}`)}`,
        // A post one may not see cannot be reported (it answers as absent).
        inAudience(reporterId, sql`${shown}`),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Files a report, or updates the reporter's open report about the same post or person (the
 * reports_open_once_key): one open report each, however often they report. Answers its id.
 */
export async function upsertReport(
  db: Executor,
  values: {
    reporterId: number;
    subjectUserId: number;
    postId: number | null;
    postText: string | null;
    category: ReportCategory;
    comment: string;
    forwarded: boolean;
  },
): Promise<number> {
  const [row] = await executeRows<{ id: string }>(
    db,
    sql`insert into ${reports} (reporter_id, subject_user_id, post_id, post_text, category, comment, forwarded)
      values (${values.reporterId}, ${values.subjectUserId}, ${values.postId}, ${values.postText}, ${values.category}, ${values.comment}, ${values.forwarded})
      on conflict (reporter_id, subject_user_id, coalesce(post_id, 0)) where outcome is null
      do update set category = excluded.category, comment = excluded.comment,
        forwarded = ${reports.forwarded} or excluded.forwarded
      returning id::text as id`,
  );
  return Number(row!.id);
}

export type ReportRow = Awaited<ReturnType<typeof findMyReports>>[number];

/** A member's own reports, newest first (reports_reporter_idx); `id` alone for one of them. */
export async function findMyReports(
  db: Executor,
  reporterId: number,
  cursor: Cursor | null,
  limit: number,
  id?: number,
) {
  return db
    .select({ ...reportColumns, cursorTime: cursorTime(reports.createdAt) })
    .from(reports)
    .innerJoin(subject, eq(subject.id, reports.subjectUserId))
    .where(
      and(
        eq(reports.reporterId, reporterId),
        id === undefined ? undefined : eq(reports.id, id),
        afterCursor(reports.createdAt, reports.id, cursor, 'newest'),
      ),
    )
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(limit + 1);
}

const moderationColumns = (key: SQLWrapper) => ({
  ...reportColumns,
  reporter: summaryOf(reporter),
  resolvedBy: summaryOf(resolver),
  postExists: sql<boolean>`${reported.id} is not null`,
  inReplyToUser: summaryOf(parentAuthor),
  inReplyToText: parent.text,
  openReportsAboutUser: sql<number>`(select count(*)::int from ${reports} o where o.subject_user_id = ${reports.subjectUserId} and o.outcome is null)`,
  cursorTime: cursorTime(key),
});

export type ModerationRow = Awaited<ReturnType<typeof findModerationReports>>[number];

/**
 * Reports as moderators read them, with the reporter, the reported post if it still exists and what
 * it replied to: open ones oldest first (reports_open_idx), closed ones newest closed first
 * (reports_closed_idx); `id` alone for one report.
 */
export async function findModerationReports(
  db: Executor,
  filter: { status: 'open' | 'closed'; id?: undefined } | { id: number; status?: undefined },
  cursor: Cursor | null,
  limit: number,
) {
  const closed = filter.status === 'closed';
  const key = closed ? reports.resolvedAt : reports.createdAt;
  const order = closed ? 'newest' : 'oldest';
  const by = closed ? desc : asc;
  return db
    .select(moderationColumns(key))
    .from(reports)
    .innerJoin(subject, eq(subject.id, reports.subjectUserId))
    .innerJoin(reporter, eq(reporter.id, reports.reporterId))
    .leftJoin(resolver, eq(resolver.id, reports.resolvedBy))
    .leftJoin(reported, eq(reported.id, reports.postId))
    .leftJoin(parent, eq(parent.id, reported.parentId))
    .leftJoin(parentAuthor, eq(parentAuthor.id, parent.authorId))
    .where(
      filter.id !== undefined
        ? eq(reports.id, filter.id)
        : and(
            closed ? isNotNull(reports.outcome) : isNull(reports.outcome),
            afterCursor(key, reports.id, cursor, order),
          ),
    )
    .orderBy(by(key), by(reports.id))
    .limit(limit + 1);
}

/** The report, locked for the moderator acting on it; null when there is none. */
export async function lockReport(db: Executor, id: number) {
  const [row] = await db
    .select({
      id: reports.id,
      subjectUserId: reports.subjectUserId,
      postId: reports.postId,
      outcome: reports.outcome,
    })
    .from(reports)
    .where(eq(reports.id, id))
    .for('update')
    .limit(1);
  return row ?? null;
}

/** Closes open reports with an outcome: the one (`id`), those about a post, or those about a person. */
export async function closeReports(
  db: Executor,
  which: { id: number } | { postId: number } | { subjectUserId: number },
  outcome: ReportOutcome,
  moderatorId: number,
): Promise<void> {
  const match =
    'id' in which
      ? eq(reports.id, which.id)
      : 'postId' in which
        ? eq(reports.postId, which.postId)
        : eq(reports.subjectUserId, which.subjectUserId);
  await db
    .update(reports)
    .set({ outcome, resolvedAt: sql`now()`, resolvedBy: moderatorId })
    .where(and(match, isNull(reports.outcome)));
}

export async function insertAudit(
  db: Executor,
  entry: {
    moderatorId: number;
    action: AuditAction;
    subjectUserId: number | null;
    reportId: number | null;
    detail?: string | null;
  },
): Promise<void> {
  await db.insert(auditLog).values({ ...entry, detail: entry.detail ?? null });
}

/** The person's role and suspension, locked for the change about to be made; null when there is none. */
export async function lockAccount(db: Executor, id: number) {
  const [row] = await db
    .select({ id: users.id, role: users.role, suspendedAt: users.suspendedAt })
    .from(users)
    .where(eq(users.id, id))
    .for('update')
    .limit(1);
  return row ? { ...row, role: row.role as Role } : null;
}

export async function setSuspended(db: Executor, id: number, suspended: boolean): Promise<void> {
  await db
    .update(users)
    .set({ suspendedAt: suspended ? sql`now()` : null })
    .where(eq(users.id, id));
}

export async function setRole(db: Executor, id: number, role: Role): Promise<void> {
  await db.update(users).set({ role }).where(eq(users.id, id));
}

export async function findModeratedUser(db: Executor, id: number) {
  const [row] = await db.select(moderatedColumns(users)).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/**
 * The suspended accounts, newest suspension first (users_suspended_idx holds few rows), or the
 * team: moderators and admins (users_staff_idx). Keyed on the suspension or the account's creation.
 */
export async function findAccounts(db: Executor, filter: 'suspended' | 'team', cursor: Cursor | null, limit: number) {
  const key = filter === 'suspended' ? users.suspendedAt : users.createdAt;
  const order = filter === 'suspended' ? 'newest' : 'oldest';
  const by = order === 'newest' ? desc : asc;
  return db
    .select({ ...moderatedColumns(users), cursorTime: cursorTime(key) })
    .from(users)
    .where(
      and(
        filter === 'suspended' ? isNotNull(users.suspendedAt) : ne(users.role, 'member'),
        afterCursor(key, users.id, cursor, order),
      ),
    )
    .orderBy(by(key), by(users.id))
    .limit(limit + 1);
}

/** The audit log, newest first (audit_log_created_idx). */
export async function findAuditPage(db: Executor, cursor: Cursor | null, limit: number) {
  return db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      reportId: auditLog.reportId,
      detail: auditLog.detail,
      createdAt: auditLog.createdAt,
      moderator: summaryOf(moderatorUser),
      subject: summaryOf(subject),
      cursorTime: cursorTime(auditLog.createdAt),
    })
    .from(auditLog)
    .leftJoin(moderatorUser, eq(moderatorUser.id, auditLog.moderatorId))
    .leftJoin(subject, eq(subject.id, auditLog.subjectUserId))
    .where(afterCursor(auditLog.createdAt, auditLog.id, cursor, 'newest'))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit + 1);
}

/** Whether the user is someone elsewhere (their server's host), or null for a member or nobody. */
export async function findDomain(db: Executor, userId: number): Promise<string | null> {
  const [row] = await db.select({ domain: users.domain }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.domain ?? null;
}
