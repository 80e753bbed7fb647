import { and, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { recoveryCodes, twoFactor } from '../../db/schema.ts';

export async function findTwoFactor(db: Executor, userId: number) {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
  return row ?? null;
}

/** Keeps a secret being set up (replacing any earlier one not confirmed); the active one is untouched. */
export async function savePendingSecret(db: Executor, userId: number, pendingSecret: string): Promise<void> {
  await db
    .insert(twoFactor)
    .values({ userId, pendingSecret })
    .onConflictDoUpdate({ target: twoFactor.userId, set: { pendingSecret } });
}

/**
 * Makes the pending secret the one sign-in asks for (turning two-factor sign-in on, or moving it to a
 * new app), the step of the code that confirmed it counted as used. Only while the pending secret is
 * still the one confirmed: false otherwise (a race).
 */
export async function enable(db: Executor, userId: number, pendingSecret: string, step: number): Promise<boolean> {
  const rows = await db
    .update(twoFactor)
    .set({
      secret: pendingSecret,
      pendingSecret: null,
      enabledAt: sql`coalesce(${twoFactor.enabledAt}, now())`,
      lastUsedStep: step,
    })
    .where(and(eq(twoFactor.userId, userId), eq(twoFactor.pendingSecret, pendingSecret)))
    .returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

/**
 * Spends a code's step: true when it is later than the last step used (one statement, so two requests
 * with the same code cannot both pass), false for a replayed or earlier code.
 */
export async function claimStep(db: Executor, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(twoFactor)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(twoFactor.userId, userId),
        sql`${twoFactor.enabledAt} IS NOT NULL`,
        or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step)),
      ),
    )
    .returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

export async function deleteTwoFactor(db: Executor, userId: number): Promise<void> {
  await db.delete(twoFactor).where(eq(twoFactor.userId, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export async function replaceRecoveryCodes(db: Executor, userId: number, hashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

/** Spends an unused recovery code of the member by its hash: true once, false ever after (one statement). */
export async function spendRecoveryCode(db: Executor, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}
