import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

/** Id and password hash of the account with this email, ignoring case (uses users_email_lower_key). */
export async function findCredentialsByEmail(db: Executor, email: string) {
  const [row] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(sql`lower(${users.email})`, sql`lower(${email})`))
    .limit(1);
  return row ?? null;
}

/** The password hash of an account, by id. */
export async function findCredentialsById(db: Executor, id: number) {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function updatePasswordHash(db: Executor, id: number, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
}
