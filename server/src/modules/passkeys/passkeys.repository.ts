import { and, asc, count, eq, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { passkeys, users, webauthnChallenges } from '../../db/schema.ts';

type Purpose = 'register' | 'authenticate';

export async function listPasskeys(db: Executor, userId: number) {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
}

export async function countPasskeys(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return Number(row?.n ?? 0);
}

/** A passkey by its credential id, with its owner's email and suspension. */
export async function findByCredentialId(db: Executor, credentialId: string) {
  const [row] = await db
    .select({ passkey: passkeys, email: users.email, suspendedAt: users.suspendedAt })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialId, credentialId))
    .limit(1);
  return row ?? null;
}

export async function insertPasskey(db: Executor, values: typeof passkeys.$inferInsert) {
  const [row] = await db.insert(passkeys).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/**
 * Records a sign-in: the authenticator's new counter, if it grew (or both are 0: authenticators that
 * keep none). False when another sign-in moved it first (the same counter twice is a cloned key).
 */
export async function recordUse(db: Executor, id: number, oldCounter: number, newCounter: number): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: new Date() })
    .where(
      and(
        eq(passkeys.id, id),
        or(
          and(eq(passkeys.counter, oldCounter), sql`${newCounter} > ${oldCounter}`),
          and(eq(passkeys.counter, 0), sql`${newCounter} = 0`),
        ),
      ),
    )
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

export async function deletePasskey(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

/** Keeps a challenge handed out; the expired ones go at the same time. */
export async function saveChallenge(
  db: Executor,
  challenge: string,
  purpose: Purpose,
  userId: number | null,
  expiresAt: Date,
): Promise<void> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, new Date()));
  await db.insert(webauthnChallenges).values({ challenge, purpose, userId, expiresAt });
}

/**
 * Spends a challenge: true once when it was handed out for this purpose (and this member, for a
 * registration) and has not expired; it is deleted whatever the outcome, so it never works twice.
 */
export async function takeChallenge(
  db: Executor,
  challenge: string,
  purpose: Purpose,
  userId: number | null,
): Promise<boolean> {
  const [row] = await db.delete(webauthnChallenges).where(eq(webauthnChallenges.challenge, challenge)).returning();
  if (!row) return false;
  return row.purpose === purpose && row.userId === userId && row.expiresAt > new Date();
}
