import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../../db/client.ts';
import { drafts, mediaAttachments, scheduledPosts, users } from '../../db/schema.ts';

export type DraftRow = typeof drafts.$inferSelect;
export type ScheduledRow = typeof scheduledPosts.$inferSelect;
export type HeldUpload = typeof mediaAttachments.$inferSelect;

// Drafts

export async function countDrafts(db: Executor, authorId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(drafts).where(eq(drafts.authorId, authorId));
  return Number(row?.n ?? 0);
}

export async function insertDraft(db: Executor, row: { authorId: number; body: unknown; mediaIds: number[] }) {
  const [created] = await db.insert(drafts).values(row).returning();
  return created!;
}

/** The member's drafts, the latest edited first. */
export async function findDrafts(db: Executor, authorId: number): Promise<DraftRow[]> {
  return db.select().from(drafts).where(eq(drafts.authorId, authorId)).orderBy(desc(drafts.updatedAt), desc(drafts.id));
}

export async function findDraft(db: Executor, authorId: number, id: number): Promise<DraftRow | null> {
  const [row] = await db
    .select()
    .from(drafts)
    .where(and(eq(drafts.id, id), eq(drafts.authorId, authorId)))
    .limit(1);
  return row ?? null;
}

export async function updateDraft(
  db: Executor,
  authorId: number,
  id: number,
  values: { body: unknown; mediaIds: number[] },
): Promise<DraftRow | null> {
  const [row] = await db
    .update(drafts)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(drafts.id, id), eq(drafts.authorId, authorId)))
    .returning();
  return row ?? null;
}

export async function deleteDraft(db: Executor, authorId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(drafts)
    .where(and(eq(drafts.id, id), eq(drafts.authorId, authorId)))
    .returning({ id: drafts.id });
  return rows.length > 0;
}

// Scheduled posts

export async function countScheduled(db: Executor, authorId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(scheduledPosts)
    .where(eq(scheduledPosts.authorId, authorId));
  return Number(row?.n ?? 0);
}

/** The member's scheduled posts due on the UTC day of `at` (but `exceptId`). */
export async function countScheduledOnDay(
  db: Executor,
  authorId: number,
  at: Date,
  exceptId: number | null,
): Promise<number> {
  const [row] = await executeRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from scheduled_posts
        where author_id = ${authorId}
          and (scheduled_at at time zone 'UTC')::date = (${at.toISOString()}::timestamptz at time zone 'UTC')::date
          and id <> ${exceptId ?? 0}`,
  );
  return Number(row?.n ?? 0);
}

export async function insertScheduled(
  db: Executor,
  row: { authorId: number; body: unknown; mediaIds: number[]; scheduledAt: Date },
): Promise<ScheduledRow> {
  const [created] = await db.insert(scheduledPosts).values(row).returning();
  return created!;
}

/** The member's scheduled posts, soonest first. */
export async function findScheduledList(db: Executor, authorId: number): Promise<ScheduledRow[]> {
  return db
    .select()
    .from(scheduledPosts)
    .where(eq(scheduledPosts.authorId, authorId))
    .orderBy(asc(scheduledPosts.scheduledAt), asc(scheduledPosts.id));
}

/** A page of the member's scheduled posts by id, newest id first, below `belowId` (Mastodon's paging). */
export async function findScheduledByIdDesc(
  db: Executor,
  authorId: number,
  belowId: number | null,
  limit: number,
): Promise<ScheduledRow[]> {
  return db
    .select()
    .from(scheduledPosts)
    .where(and(eq(scheduledPosts.authorId, authorId), belowId === null ? undefined : lt(scheduledPosts.id, belowId)))
    .orderBy(desc(scheduledPosts.id))
    .limit(limit);
}

export async function findScheduled(db: Executor, authorId: number, id: number): Promise<ScheduledRow | null> {
  const [row] = await db
    .select()
    .from(scheduledPosts)
    .where(and(eq(scheduledPosts.id, id), eq(scheduledPosts.authorId, authorId)))
    .limit(1);
  return row ?? null;
}

/** A scheduled post, locked for its publication or its change (null when it is gone). */
export async function lockScheduled(db: Executor, id: number): Promise<ScheduledRow | null> {
  const [row] = await db.select().from(scheduledPosts).where(eq(scheduledPosts.id, id)).for('update').limit(1);
  return row ?? null;
}

export async function updateScheduled(
  db: Executor,
  id: number,
  values: { body: unknown; mediaIds: number[]; scheduledAt: Date },
): Promise<ScheduledRow> {
  const [row] = await db
    .update(scheduledPosts)
    .set({ ...values, failure: null, updatedAt: sql`now()` })
    .where(eq(scheduledPosts.id, id))
    .returning();
  return row!;
}

export async function markScheduledFailed(
  db: Executor,
  id: number,
  failure: { code: string; message: string; at: string },
): Promise<void> {
  await db.update(scheduledPosts).set({ failure, updatedAt: sql`now()` }).where(eq(scheduledPosts.id, id));
}

export async function deleteScheduled(db: Executor, authorId: number | null, id: number): Promise<boolean> {
  const rows = await db
    .delete(scheduledPosts)
    .where(and(eq(scheduledPosts.id, id), authorId === null ? undefined : eq(scheduledPosts.authorId, authorId)))
    .returning({ id: scheduledPosts.id });
  return rows.length > 0;
}

// Authors and their uploads

/** What a post's author is made of when it is published without a session (and whether they are suspended). */
export async function findAuthor(db: Executor, id: number) {
  const [row] = await db
    .select({
      userId: users.id,
      name: users.name,
      username: users.username,
      profileImage: users.profileImage,
      defaultVisibility: users.defaultVisibility,
      suspendedAt: users.suspendedAt,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}

/** Those of `ids` that are uploads of `ownerId`'s no post has taken (unordered). */
export async function findHeldUploads(db: Executor, ownerId: number, ids: readonly number[]): Promise<HeldUpload[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(mediaAttachments)
    .where(
      and(
        inArray(mediaAttachments.id, [...ids]),
        eq(mediaAttachments.ownerId, ownerId),
        isNull(mediaAttachments.postId),
      ),
    );
}
