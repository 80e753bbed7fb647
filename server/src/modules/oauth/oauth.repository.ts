import { and, desc, eq, lt, max, min, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { oauthApps, oauthCodes, oauthTokens, users } from '../../db/schema.ts';

export async function insertApp(
  db: Executor,
  values: {
    clientId: string;
    clientSecretHash: string;
    name: string;
    redirectUris: string[];
    scopes: string;
    website: string | null;
  },
) {
  const [row] = await db.insert(oauthApps).values(values).returning();
  return row!;
}

export async function findAppByClientId(db: Executor, clientId: string) {
  const [row] = await db.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).limit(1);
  return row ?? null;
}

export type AppRow = NonNullable<Awaited<ReturnType<typeof findAppByClientId>>>;

export async function insertCode(
  db: Executor,
  values: {
    codeHash: string;
    appId: number;
    userId: number;
    redirectUri: string;
    scopes: string;
    codeChallenge: string | null;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(oauthCodes).values(values);
}

/** The code, locked for the exchange (two exchanges at once: the second sees it used). */
export async function lockCode(db: Executor, codeHash: string) {
  const [row] = await db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).for('update').limit(1);
  return row ?? null;
}

export async function spendCode(db: Executor, id: number): Promise<void> {
  await db.update(oauthCodes).set({ usedAt: sql`now()` }).where(eq(oauthCodes.id, id));
}

/** A code used twice: the tokens it gave are revoked (RFC 6749 §4.1.2). Answers their user. */
export async function revokeTokensOfCode(db: Executor, codeId: number): Promise<number[]> {
  const rows = await db
    .delete(oauthTokens)
    .where(eq(oauthTokens.codeId, codeId))
    .returning({ userId: oauthTokens.userId });
  return rows.flatMap((row) => (row.userId === null ? [] : [row.userId]));
}

export async function insertToken(
  db: Executor,
  values: { tokenHash: string; appId: number; userId: number | null; scopes: string; codeId: number | null },
) {
  // Issued counts as used: a token is first "last used" when it is made (reads then write nothing for an hour).
  const [row] = await db
    .insert(oauthTokens)
    .values({ ...values, lastUsedAt: sql`now()` })
    .returning({ createdAt: oauthTokens.createdAt });
  return row!;
}

/**
 * A token with its app and, for a user token, the person as a session carries them (suspended
 * accounts' tokens answer nothing).
 */
export async function findToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      id: oauthTokens.id,
      appId: oauthTokens.appId,
      userId: oauthTokens.userId,
      scopes: oauthTokens.scopes,
      lastUsedAt: oauthTokens.lastUsedAt,
      name: users.name,
      email: users.email,
      username: users.username,
      profileImage: users.profileImage,
      role: users.role,
      defaultVisibility: users.defaultVisibility,
      suspendedAt: users.suspendedAt,
    })
    .from(oauthTokens)
    .leftJoin(users, eq(users.id, oauthTokens.userId))
    .where(eq(oauthTokens.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** Marks a token used, at most once an hour (what Settings shows as "last used"). */
export async function touchToken(db: Executor, id: number): Promise<void> {
  await db
    .update(oauthTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(oauthTokens.id, id),
        sql`(${oauthTokens.lastUsedAt} is null or ${oauthTokens.lastUsedAt} < now() - interval '1 hour')`,
      ),
    );
}

/** Revokes a token of the app (RFC 7009); answers its user when there was one. */
export async function deleteAppToken(db: Executor, appId: number, tokenHash: string) {
  const [row] = await db
    .delete(oauthTokens)
    .where(and(eq(oauthTokens.appId, appId), eq(oauthTokens.tokenHash, tokenHash)))
    .returning({ userId: oauthTokens.userId });
  return row ?? null;
}

/** Every token of a person (signed out everywhere, a new password, a suspension). */
export async function deleteUserTokens(db: Executor, userId: number): Promise<void> {
  await db.delete(oauthTokens).where(eq(oauthTokens.userId, userId));
  await db.delete(oauthCodes).where(eq(oauthCodes.userId, userId));
}

/** A person's tokens and codes for one app (Settings → Authorized apps → Revoke). Answers whether any went. */
export async function deleteUserAppGrants(db: Executor, userId: number, appId: number): Promise<boolean> {
  const tokens = await db
    .delete(oauthTokens)
    .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.appId, appId)))
    .returning({ id: oauthTokens.id });
  await db.delete(oauthCodes).where(and(eq(oauthCodes.userId, userId), eq(oauthCodes.appId, appId)));
  return tokens.length > 0;
}

/** The apps a person authorized (those holding a token of theirs), most recently authorized first. */
export async function findAuthorizedApps(db: Executor, userId: number) {
  return db
    .select({
      id: oauthApps.id,
      name: oauthApps.name,
      website: oauthApps.website,
      scopes: sql<string>`string_agg(distinct ${oauthTokens.scopes}, ' ')`,
      authorizedAt: min(oauthTokens.createdAt),
      lastAuthorizedAt: max(oauthTokens.createdAt),
      lastUsedAt: max(oauthTokens.lastUsedAt),
    })
    .from(oauthTokens)
    .innerJoin(oauthApps, eq(oauthApps.id, oauthTokens.appId))
    .where(eq(oauthTokens.userId, userId))
    .groupBy(oauthApps.id)
    .orderBy(desc(max(oauthTokens.createdAt)));
}

/** Codes past their time, used or not. */
export async function deleteExpiredCodes(db: Executor, before: Date): Promise<void> {
  await db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, before));
}
