import type { Visibility } from '@pipit/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../../db/client.ts';
import {
  type EditedMedia,
  type EditedPoll,
  mediaAttachments,
  notifications,
  postEdits,
  postHashtags,
  postMentions,
  posts,
} from '../../db/schema.ts';

/** What an edit reads of the post it changes (the row locked for the edit's transaction). */
export interface EditablePost {
  id: number;
  authorId: number;
  text: string;
  spoilerText: string;
  sensitive: boolean;
  visibility: Visibility;
  parentId: number | null;
  createdAt: Date;
  editedAt: Date | null;
}

/** The post, locked until the transaction ends (two edits of one post take turns); null when there is none. */
export async function lockPostForEdit(db: Executor, id: number): Promise<EditablePost | null> {
  const [row] = await db
    .select({
      id: posts.id,
      authorId: posts.authorId,
      text: posts.text,
      spoilerText: posts.spoilerText,
      sensitive: posts.sensitive,
      visibility: posts.visibility,
      parentId: posts.parentId,
      createdAt: posts.createdAt,
      editedAt: posts.editedAt,
    })
    .from(posts)
    // A repost's row has no text of its own: it is never edited (the service edits the post it reposts).
    .where(and(eq(posts.id, id), sql`${posts.repostOfId} is null`))
    .for('update')
    .limit(1);
  return row ?? null;
}

/** A post's pictures in grid order, as a version keeps them. */
export async function findPostMedia(db: Executor, postId: number): Promise<EditedMedia[]> {
  return db
    .select({
      id: mediaAttachments.id,
      key: mediaAttachments.key,
      previewKey: mediaAttachments.previewKey,
      width: mediaAttachments.width,
      height: mediaAttachments.height,
      blurhash: mediaAttachments.blurhash,
      alt: mediaAttachments.alt,
    })
    .from(mediaAttachments)
    .where(eq(mediaAttachments.postId, postId))
    .orderBy(asc(mediaAttachments.position));
}

/** A picture the post keeps, at its new place, with its (new) alt text. */
export async function moveMedia(db: Executor, id: number, position: number, alt: string): Promise<void> {
  await db.update(mediaAttachments).set({ position, alt }).where(eq(mediaAttachments.id, id));
}

/** Takes pictures out of a post: their rows go (their files are collected once the edit has committed). */
export async function deleteMedia(db: Executor, postId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(mediaAttachments).where(and(eq(mediaAttachments.postId, postId), inArray(mediaAttachments.id, ids)));
}

/** The post's new words; answers the edit's time. */
export async function updatePostContent(
  db: Executor,
  id: number,
  content: { text: string; spoilerText: string; sensitive: boolean },
): Promise<Date> {
  const [row] = await db
    .update(posts)
    .set({ ...content, editedAt: sql`now()` })
    .where(eq(posts.id, id))
    .returning({ editedAt: posts.editedAt });
  return row!.editedAt!;
}

/** One version of a post. */
export async function insertVersion(
  db: Executor,
  version: {
    postId: number;
    text: string;
    spoilerText: string;
    sensitive: boolean;
    media: EditedMedia[];
    poll: EditedPoll | null;
    at: Date;
  },
): Promise<void> {
  await db.insert(postEdits).values({
    postId: version.postId,
    text: version.text,
    spoilerText: version.spoilerText,
    sensitive: version.sensitive,
    media: version.media,
    poll: version.poll,
    createdAt: version.at,
  });
}

export type VersionRow = typeof postEdits.$inferSelect;

/** Every version of a post, oldest first (post_edits_post_created_idx). */
export async function findVersions(db: Executor, postId: number): Promise<VersionRow[]> {
  return db
    .select()
    .from(postEdits)
    .where(eq(postEdits.postId, postId))
    .orderBy(asc(postEdits.createdAt), asc(postEdits.id));
}

/** Takes out the post's hashtags (an edit writes those of its new text). */
export async function deleteHashtags(db: Executor, postId: number): Promise<void> {
  await db.delete(postHashtags).where(eq(postHashtags.postId, postId));
}

/** The people a post already reaches beyond the author's followers (post_mentions). */
export async function findMentioned(db: Executor, postId: number): Promise<number[]> {
  const rows = await db.select({ id: postMentions.userId }).from(postMentions).where(eq(postMentions.postId, postId));
  return rows.map((row) => row.id);
}

/** Who reposted the post and who quoted it (the authors of those posts), each once. */
export async function findRepostersAndQuoters(db: Executor, postId: number): Promise<number[]> {
  const rows = await executeRows<{ id: string }>(
    db,
    sql`select distinct p.author_id::text as id from ${posts} p
    where p.repost_of_id = ${postId} or p.quote_of_id = ${postId}`,
  );
  return rows.map((row) => Number(row.id));
}

/** Takes back the `update` notifications an earlier edit of the post wrote (the new edit writes them anew, unread). */
export async function withdrawUpdateNotifications(db: Executor, actorId: number, postId: number): Promise<void> {
  await db
    .delete(notifications)
    .where(and(eq(notifications.actorId, actorId), eq(notifications.postId, postId), eq(notifications.type, 'update')));
}
