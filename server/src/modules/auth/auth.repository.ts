import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema.ts';
import { memberEmail, memberPasswordHash } from '../users/users.pack.ts';

/** Id, stored email and password hash of the account with this email, ignoring case (users_email_lower_key). */
export async function findCredentialsByEmail(db: Executor, email: string) {
  const [row] = await db
    .select({ id: users.id, email: memberEmail, passwordHash: memberPasswordHash, suspendedAt: users.suspendedAt })
    .from(users)
    // Remote people have no email: only members match.
    .where(eq(sql`lower(${users.email})`, sql`lower(${email})`))
    .limit(1);
  return row ?? null;
}

/** The password hash of an account, by id. */
export async function findCredentialsById(db: Executor, id: number) {
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.domain)))
    .limit(1);
  return row ?? null;
}

export async function updatePasswordHash(db: Executor, id: number, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
}

export async function insertPasswordReset(db: Executor, userId: number, tokenHash: string, expiresAt: Date) {
  await db.insert(passwordResets).values({ userId, tokenHash, expiresAt });
}

/**
 * Spends a live reset (unused, unexpired) by its token's hash, with every other reset of the same
 * account: its account (id and email), or null when the token names no live reset. One statement, so
 * a token is spent once however many requests race with it.
 */
export async function spendPasswordReset(db: Executor, tokenHash: string, now: Date) {
  const rows = await executeRows<{ user_id: string; email: string }>(
    db,
    sql`
    with spent as (
      update ${passwordResets} set used_at = ${now.toISOString()}::timestamptz
      where token_hash = ${tokenHash} and used_at is null and expires_at > ${now.toISOString()}::timestamptz
      returning user_id
    ), others as (
      update ${passwordResets} set used_at = ${now.toISOString()}::timestamptz
      where user_id in (select user_id from spent) and used_at is null
    )
    select u.id::text as user_id, u.email from spent join ${users} u on u.id = spent.user_id`,
  );
  const row = rows[0];
  return row ? { id: Number(row.user_id), email: row.email } : null;
}

/** Resets past their hour (or spent) a day ago: removed. */
export async function deleteOldPasswordResets(db: Executor, before: Date): Promise<void> {
  await db.delete(passwordResets).where(lt(passwordResets.expiresAt, before));
}

/** The account (id, email) a live reset (unused, unexpired) belongs to, by its token's hash; null otherwise. */
export async function findLivePasswordReset(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ id: users.id, email: memberEmail })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(
      and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)),
    )
    .limit(1);
  return row ?? null;
}
