import { eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

/**
 * Holds a transaction-scoped lock on one media key: storing a file and collecting it take the same
 * lock, so a collection never deletes a file that a concurrent upload of the same bytes is about to
 * reference. Works alike on PostgreSQL and PGlite.
 */
export async function lockMediaKey(tx: Executor, key: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`media:${key}`}, 0))`);
}

/** Whether any row still points at this /media URL (profile images and covers today). */
export async function isMediaReferenced(tx: Executor, url: string): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(or(eq(users.profileImage, url), eq(users.coverImage, url)))
    .limit(1);
  return rows.length > 0;
}
