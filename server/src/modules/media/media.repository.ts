import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { drafts, mediaAttachments, previewCards, scheduledPosts, users } from '../../db/schema.ts';

/**
 * Holds a transaction-scoped lock on one media key: storing a file and collecting it take the same
 * lock, so a collection never deletes a file that a concurrent upload of the same bytes is about to
 * reference. Works alike on PostgreSQL and PGlite.
 */
export async function lockMediaKey(tx: Executor, key: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`media:${key}`}, 0))`);
}

/**
 * Whether any row still points at this file: a profile or cover image (by URL), a post image or preview
 * (by key), a link card's picture (by key).
 */
export async function isMediaReferenced(tx: Executor, key: string, url: string): Promise<boolean> {
  const [byUser] = await tx
    .select({ id: users.id })
    .from(users)
    .where(or(eq(users.profileImage, url), eq(users.coverImage, url)))
    .limit(1);
  if (byUser) return true;
  const [byAttachment] = await tx
    .select({ id: mediaAttachments.id })
    .from(mediaAttachments)
    .where(or(eq(mediaAttachments.key, key), eq(mediaAttachments.previewKey, key)))
    .limit(1);
  if (byAttachment) return true;
  const [byCard] = await tx
    .select({ id: previewCards.id })
    .from(previewCards)
    .where(eq(previewCards.imageKey, key))
    .limit(1);
  return byCard !== undefined;
}

export type AttachmentRow = typeof mediaAttachments.$inferSelect;

export async function insertUpload(
  tx: Executor,
  row: Pick<AttachmentRow, 'ownerId' | 'key' | 'previewKey' | 'width' | 'height' | 'blurhash' | 'alt'>,
): Promise<AttachmentRow> {
  const [created] = await tx.insert(mediaAttachments).values(row).returning();
  return created!;
}

/** An upload of `ownerId`'s, in a post or not; null when there is none. */
export async function findOwnUpload(db: Executor, ownerId: number, id: number): Promise<AttachmentRow | null> {
  const [row] = await db
    .select()
    .from(mediaAttachments)
    .where(and(eq(mediaAttachments.id, id), eq(mediaAttachments.ownerId, ownerId)))
    .limit(1);
  return row ?? null;
}

/** New alt text for an upload of `ownerId`'s that no post has taken yet; null when there is no such upload. */
export async function describeUpload(
  db: Executor,
  ownerId: number,
  id: number,
  alt: string,
): Promise<AttachmentRow | null> {
  const [row] = await db
    .update(mediaAttachments)
    .set({ alt })
    .where(and(eq(mediaAttachments.id, id), eq(mediaAttachments.ownerId, ownerId), isNull(mediaAttachments.postId)))
    .returning();
  return row ?? null;
}

/**
 * Gives an upload of `ownerId`'s that no post has taken yet to `postId`, at `position`, with new alt
 * text when given; null when there is no such upload (unknown, someone else's, already in a post,
 * or expired).
 */
export async function attachUpload(
  tx: Executor,
  upload: { id: number; ownerId: number; postId: number; position: number; alt: string | undefined },
): Promise<AttachmentRow | null> {
  const [row] = await tx
    .update(mediaAttachments)
    .set({ postId: upload.postId, position: upload.position, ...(upload.alt === undefined ? {} : { alt: upload.alt }) })
    .where(
      and(
        eq(mediaAttachments.id, upload.id),
        eq(mediaAttachments.ownerId, upload.ownerId),
        isNull(mediaAttachments.postId),
      ),
    )
    .returning();
  return row ?? null;
}

/** The files of a post's images (to collect once the post is deleted). */
export async function findPostFiles(tx: Executor, postId: number): Promise<string[]> {
  const rows = await tx
    .select({ key: mediaAttachments.key, previewKey: mediaAttachments.previewKey })
    .from(mediaAttachments)
    .where(eq(mediaAttachments.postId, postId))
    .orderBy(asc(mediaAttachments.position));
  return rows.flatMap((r) => [r.key, r.previewKey]);
}

/**
 * Deletes up to `limit` uploads no post took that were made before `before`, but those a draft or a
 * scheduled post holds (their `media_ids`, GIN-indexed); answers their files.
 */
export async function deleteStaleUploads(tx: Executor, before: Date, limit: number): Promise<string[]> {
  const stale = tx
    .select({ id: mediaAttachments.id })
    .from(mediaAttachments)
    .where(
      and(
        isNull(mediaAttachments.postId),
        lt(mediaAttachments.createdAt, before),
        sql`not exists (select 1 from ${drafts} where ${drafts.mediaIds} @> array[${mediaAttachments.id}])`,
        sql`not exists (select 1 from ${scheduledPosts} where ${scheduledPosts.mediaIds} @> array[${mediaAttachments.id}])`,
      ),
    )
    .limit(limit);
  const rows = await tx
    .delete(mediaAttachments)
    .where(sql`${mediaAttachments.id} in ${stale}`)
    .returning({ key: mediaAttachments.key, previewKey: mediaAttachments.previewKey });
  return rows.flatMap((r) => [r.key, r.previewKey]);
}
