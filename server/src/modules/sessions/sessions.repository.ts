import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { memberEmail } from '../users/users.pack.ts';

export async function insertSession(
  db: Executor,
  row: { tokenHash: string; userId: number; expiresAt: Date; userAgent: string | null },
) {
  const [created] = await db.insert(sessions).values(row).returning();
  return created!;
}

/** The live session for a token hash, joined with its user, in one statement. */
export async function findLiveSession(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      expiresAt: sessions.expiresAt,
      renewedAt: sessions.renewedAt,
      name: users.name,
      email: memberEmail,
      username: users.username,
      profileImage: users.profileImage,
      role: users.role,
      defaultVisibility: users.defaultVisibility,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // A suspension deletes the sessions; this keeps one that raced it from answering.
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now), isNull(users.suspendedAt)))
    .limit(1);
  return row ?? null;
}

export async function renewSession(db: Executor, id: number, expiresAt: Date, now: Date) {
  await db.update(sessions).set({ expiresAt, renewedAt: now }).where(eq(sessions.id, id));
}

/** Deletes the session of a token hash; answers its user, or null when there was none. */
export async function deleteSessionByHash(db: Executor, tokenHash: string): Promise<number | null> {
  const [row] = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .returning({ userId: sessions.userId });
  return row?.userId ?? null;
}

export async function deleteExpiredSessions(db: Executor, now: Date) {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

export async function deleteUserSessions(db: Executor, userId: number) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export const countSessions = async (db: Executor) =>
  (await db.select({ n: sql<number>`count(*)::int` }).from(sessions))[0]?.n ?? 0;

/** A member's live sessions, newest first. */
export async function findUserSessions(db: Executor, userId: number, now: Date) {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      renewedAt: sessions.renewedAt,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
}

/** Deletes one of a member's sessions: true when it was theirs and existed. */
export async function deleteUserSession(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Deletes every session of a member but one. */
export async function deleteOtherSessions(db: Executor, userId: number, keepId: number): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)));
}
