import type { webcrypto } from 'node:crypto';
import { and, desc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import {
  actorKeys,
  follows,
  mediaAttachments,
  postMentions,
  posts,
  remoteActors,
  reports,
  users,
} from '../../db/schema.ts';
import { findCounts, findPoll } from '../polls/polls.repository.ts';
import type { FederatedPoll } from './federation.ts';

/** A member as their actor shows them: local, not suspended. */
export async function findLocalActor(db: Executor, id: number) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      name: users.name,
      bio: users.bio,
      profileImage: users.profileImage,
      coverImage: users.coverImage,
      locked: users.locked,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      followersCount: users.followersCount,
      followingCount: users.followingCount,
      postsCount: users.postsCount,
    })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.domain), isNull(users.suspendedAt)))
    .limit(1);
  return row ?? null;
}

export type LocalActorRow = NonNullable<Awaited<ReturnType<typeof findLocalActor>>>;

/** A member's id by username (WebFinger's acct:), not suspended; null for anyone else. */
export async function findLocalIdByUsername(db: Executor, username: string): Promise<number | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(sql`lower(${users.username}) = ${username.toLowerCase()}`, isNull(users.domain), isNull(users.suspendedAt)),
    )
    .limit(1);
  return row?.id ?? null;
}

/** The stored key pairs (JWK) of a member, or of the instance actor (`userId` null). */
export async function findKeys(db: Executor, userId: number | null) {
  return db
    .select({ keyType: actorKeys.keyType, publicKey: actorKeys.publicKey, privateKey: actorKeys.privateKey })
    .from(actorKeys)
    .where(userId === null ? isNull(actorKeys.userId) : eq(actorKeys.userId, userId))
    .orderBy(actorKeys.keyType);
}

/** Stores a key pair unless one of that type exists (two first needs at once: the first one stays). */
export async function insertKey(
  db: Executor,
  userId: number | null,
  keyType: string,
  publicKey: webcrypto.JsonWebKey,
  privateKey: webcrypto.JsonWebKey,
): Promise<void> {
  await db.insert(actorKeys).values({ userId, keyType, publicKey, privateKey }).onConflictDoNothing();
}

/** A member's public posts (not reposts), newest first, below `beforeId`: their outbox. */
export async function findOutboxPage(db: Executor, authorId: number, beforeId: number | null, limit: number) {
  return db
    .select({
      id: posts.id,
      text: posts.text,
      parentId: posts.parentId,
      createdAt: posts.createdAt,
      spoilerText: posts.spoilerText,
      sensitive: posts.sensitive,
      editedAt: posts.editedAt,
    })
    .from(posts)
    .where(
      and(
        eq(posts.authorId, authorId),
        eq(posts.visibility, 'public'),
        isNull(posts.repostOfId),
        beforeId === null ? undefined : lt(posts.id, beforeId),
      ),
    )
    .orderBy(desc(posts.id))
    .limit(limit);
}

export async function countOutbox(db: Executor, authorId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(posts)
    .where(and(eq(posts.authorId, authorId), eq(posts.visibility, 'public'), isNull(posts.repostOfId)));
  return row?.n ?? 0;
}

/** A public or unlisted post of a member not suspended (a Note others may fetch). */
export async function findPublicPost(db: Executor, id: number) {
  const [row] = await db
    .select({
      id: posts.id,
      authorId: posts.authorId,
      text: posts.text,
      parentId: posts.parentId,
      visibility: posts.visibility,
      createdAt: posts.createdAt,
      spoilerText: posts.spoilerText,
      sensitive: posts.sensitive,
      editedAt: posts.editedAt,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(
      and(
        eq(posts.id, id),
        isNull(posts.repostOfId),
        sql`${posts.visibility} in ('public', 'unlisted')`,
        isNull(users.domain),
        isNull(users.suspendedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** What federation knows of a remote person, as fetched from their actor. */
export interface RemoteActorData {
  uri: string;
  type: string;
  username: string;
  domain: string;
  name: string;
  bio: string;
  inbox: string;
  sharedInbox: string | null;
  url: string | null;
  followersUrl: string | null;
  publicKeys: Array<{ id: string; type: string; jwk: webcrypto.JsonWebKey }>;
  locked: boolean;
  /** Their avatar's address on their server (shown as published; not fetched). */
  avatar: string | null;
}

/**
 * Creates or refreshes a remote person: their `users` row (username unique per domain, no email or
 * password) and their `remote_actors` row, by actor URI. Answers their user id.
 */
export async function upsertRemoteActor(
  db: Executor,
  actor: RemoteActorData,
  /** Their avatar as kept here (our copy) and the address it was made from; left as it is when undefined. */
  avatar?: { url: string | null; source: string | null },
): Promise<number> {
  const [existing] = await db
    .select({ userId: remoteActors.userId })
    .from(remoteActors)
    .where(eq(remoteActors.uri, actor.uri))
    .limit(1);
  const profile = {
    username: actor.username,
    name: actor.name,
    bio: actor.bio,
    locked: actor.locked,
    ...(avatar ? { profileImage: avatar.url } : {}),
  };
  let userId: number;
  if (existing) {
    userId = existing.userId;
    await db
      .update(users)
      .set({ ...profile, updatedAt: new Date() })
      .where(eq(users.id, userId));
  } else {
    const [row] = await db
      .insert(users)
      .values({ ...profile, domain: actor.domain, email: null, passwordHash: null })
      .returning({ id: users.id });
    userId = (row as { id: number }).id;
  }
  const values = {
    uri: actor.uri,
    type: actor.type,
    inbox: actor.inbox,
    sharedInbox: actor.sharedInbox,
    url: actor.url,
    followersUrl: actor.followersUrl,
    publicKeys: actor.publicKeys,
    ...(avatar ? { avatarSource: avatar.source } : {}),
    fetchedAt: new Date(),
  };
  await db
    .insert(remoteActors)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: remoteActors.userId, set: values });
  return userId;
}

/** A remote person's user id by their actor URI, or null. */
export async function findRemoteUserId(db: Executor, uri: string): Promise<number | null> {
  const [row] = await db
    .select({ userId: remoteActors.userId })
    .from(remoteActors)
    .where(eq(remoteActors.uri, uri))
    .limit(1);
  return row?.userId ?? null;
}

/** A remote person (not suspended) as deliveries reach them; null for a member or nobody. */
export async function findRemoteActor(db: Executor, userId: number) {
  const [row] = await db
    .select({ uri: remoteActors.uri, inbox: remoteActors.inbox, sharedInbox: remoteActors.sharedInbox })
    .from(remoteActors)
    .innerJoin(users, eq(users.id, remoteActors.userId))
    .where(and(eq(remoteActors.userId, userId), isNull(users.suspendedAt)))
    .limit(1);
  return row ?? null;
}

/** A remote person by username and server, with when their actor was last fetched; null when unknown. */
export async function findRemoteByHandle(db: Executor, username: string, domain: string) {
  const [row] = await db
    .select({ userId: users.id, fetchedAt: remoteActors.fetchedAt })
    .from(users)
    .innerJoin(remoteActors, eq(remoteActors.userId, users.id))
    .where(and(sql`lower(${users.username}) = ${username.toLowerCase()}`, eq(users.domain, domain.toLowerCase())))
    .limit(1);
  return row ?? null;
}

/** A member's post as federation sends it (not a repost; its author not suspended); null otherwise. */
export async function findFederatedPost(db: Executor, id: number) {
  const parent = alias(posts, 'parent');
  const quoted = alias(posts, 'quoted');
  const [row] = await db
    .select({
      id: posts.id,
      authorId: posts.authorId,
      text: posts.text,
      parentId: posts.parentId,
      parentUri: parent.uri,
      quoteOfId: posts.quoteOfId,
      quoteUri: quoted.uri,
      visibility: posts.visibility,
      spoilerText: posts.spoilerText,
      sensitive: posts.sensitive,
      createdAt: posts.createdAt,
      editedAt: posts.editedAt,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .leftJoin(parent, eq(parent.id, posts.parentId))
    .leftJoin(quoted, eq(quoted.id, posts.quoteOfId))
    .where(and(eq(posts.id, id), isNull(posts.repostOfId), isNull(users.domain), isNull(users.suspendedAt)))
    .limit(1);
  return row ?? null;
}

export type FederatedPost = NonNullable<Awaited<ReturnType<typeof findFederatedPost>>>;

/** The people a post reaches beyond followers (its mentions, the author it answers): remote ones with their actor. */
export async function findMentionedPeople(db: Executor, postId: number) {
  return db
    .select({
      userId: users.id,
      username: users.username,
      domain: users.domain,
      uri: remoteActors.uri,
      inbox: remoteActors.inbox,
      sharedInbox: remoteActors.sharedInbox,
    })
    .from(postMentions)
    .innerJoin(users, eq(users.id, postMentions.userId))
    .leftJoin(remoteActors, eq(remoteActors.userId, users.id))
    .where(and(eq(postMentions.postId, postId), isNull(users.suspendedAt)));
}

/** A member's followers on other servers (not suspended), as deliveries reach them. */
export async function findRemoteFollowers(db: Executor, userId: number) {
  return db
    .select({ uri: remoteActors.uri, inbox: remoteActors.inbox, sharedInbox: remoteActors.sharedInbox })
    .from(follows)
    .innerJoin(remoteActors, eq(remoteActors.userId, follows.followerId))
    .innerJoin(users, eq(users.id, follows.followerId))
    .where(and(eq(follows.followeeId, userId), isNull(users.suspendedAt)));
}

/** A remote person by actor URI: their user id and followers collection; null when unknown. */
export async function findRemoteActorByUri(db: Executor, uri: string) {
  const [row] = await db
    .select({ userId: remoteActors.userId, followersUrl: remoteActors.followersUrl })
    .from(remoteActors)
    .innerJoin(users, eq(users.id, remoteActors.userId))
    .where(and(eq(remoteActors.uri, uri), isNull(users.suspendedAt)))
    .limit(1);
  return row ?? null;
}

/** A remote person as an author of posts here (not suspended); null otherwise. */
export async function findRemoteAuthor(db: Executor, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      username: users.username,
      profileImage: users.profileImage,
      domain: users.domain,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.domain), isNull(users.suspendedAt)))
    .limit(1);
  return row ?? null;
}

/** A post by its ActivityPub id (a remote post's `uri`); null when none. */
export async function findPostIdByUri(db: Executor, uri: string): Promise<number | null> {
  const [row] = await db.select({ id: posts.id }).from(posts).where(eq(posts.uri, uri)).limit(1);
  return row?.id ?? null;
}

/** Whether a member of this server follows the person. */
export async function hasLocalFollower(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followerId))
    .where(and(eq(follows.followeeId, userId), isNull(users.domain)))
    .limit(1);
  return row !== undefined;
}

/**
 * A post as a like or repost of it names it elsewhere: its ActivityPub id when it came from elsewhere (null for a
 * member's: its id is ours), and its author as deliveries reach them (null for a member).
 */
export async function findPostTarget(db: Executor, postId: number) {
  const [row] = await db
    .select({
      id: posts.id,
      uri: posts.uri,
      authorUri: remoteActors.uri,
      authorInbox: remoteActors.inbox,
      authorSharedInbox: remoteActors.sharedInbox,
    })
    .from(posts)
    .leftJoin(remoteActors, eq(remoteActors.userId, posts.authorId))
    .where(eq(posts.id, postId))
    .limit(1);
  if (!row) return null;
  const author =
    row.authorUri && row.authorInbox
      ? { uri: row.authorUri, inbox: row.authorInbox, sharedInbox: row.authorSharedInbox }
      : null;
  return { id: row.id, uri: row.uri, author };
}

/** A report as its Flag carries it: the reported person elsewhere, the reported post's id there, the comment. */
export async function findForwardedReport(db: Executor, reportId: number) {
  const [row] = await db
    .select({
      comment: reports.comment,
      actorUri: remoteActors.uri,
      inbox: remoteActors.inbox,
      sharedInbox: remoteActors.sharedInbox,
      postUri: posts.uri,
    })
    .from(reports)
    .innerJoin(remoteActors, eq(remoteActors.userId, reports.subjectUserId))
    .leftJoin(posts, eq(posts.id, reports.postId))
    .where(eq(reports.id, reportId))
    .limit(1);
  return row ?? null;
}

/** A post's images in order, as a note attaches them. */
export async function findPostImages(db: Executor, postId: number) {
  return db
    .select({
      key: mediaAttachments.key,
      width: mediaAttachments.width,
      height: mediaAttachments.height,
      alt: mediaAttachments.alt,
    })
    .from(mediaAttachments)
    .where(eq(mediaAttachments.postId, postId))
    .orderBy(mediaAttachments.position);
}

/** A remote person's avatar as kept: our copy, and the address on their server it was made from. */
export async function findKeptAvatar(db: Executor, uri: string) {
  const [row] = await db
    .select({ source: remoteActors.avatarSource, url: users.profileImage })
    .from(remoteActors)
    .innerJoin(users, eq(users.id, remoteActors.userId))
    .where(eq(remoteActors.uri, uri))
    .limit(1);
  return row ?? null;
}

/** A post's poll as a Question carries it (its options with their counts), or null when it has none. */
export async function findFederatedPoll(db: Executor, postId: number): Promise<FederatedPoll | null> {
  const poll = await findPoll(db, postId);
  const counts = poll ? await findCounts(db, postId) : null;
  if (!poll || !counts) return null;
  return {
    expiresAt: poll.expiresAt,
    expired: poll.expired,
    multiple: poll.multiple,
    hideTotals: poll.hideTotals,
    votersCount: counts.votersCount,
    options: poll.options.map((title, i) => ({ title, votesCount: counts.options[i] ?? 0 })),
  };
}
