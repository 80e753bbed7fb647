import type { CreatePostBody, Draft, DraftPostBody, MediaAttachment, ScheduledPost } from '@pipit/contract';
import { toMediaAttachment } from '../media/media.service.ts';
import type { DraftRow, HeldUpload, ScheduledRow } from './drafts.repository.ts';

/** The upload ids a body names, in its order. */
export const mediaIdsOf = (body: { media?: readonly { id: string }[] | undefined }): number[] =>
  (body.media ?? []).map((m) => Number(m.id));

/**
 * A body's images as attachments, in its order and with its alt text, from the uploads it still
 * holds (one taken by a post since, or deleted, is left out).
 */
export function heldMedia(
  body: { media?: readonly { id: string; alt?: string | undefined }[] | undefined },
  uploads: readonly HeldUpload[],
): MediaAttachment[] {
  const byId = new Map(uploads.map((u) => [String(u.id), u]));
  return (body.media ?? []).flatMap((item) => {
    const upload = byId.get(item.id);
    return upload ? [toMediaAttachment({ ...upload, alt: item.alt ?? upload.alt })] : [];
  });
}

export function toDraft(row: DraftRow, uploads: readonly HeldUpload[]): Draft {
  const post = row.body as DraftPostBody;
  return {
    id: String(row.id),
    post,
    media: heldMedia(post, uploads),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toScheduledPost(row: ScheduledRow, uploads: readonly HeldUpload[]): ScheduledPost {
  const post = row.body as CreatePostBody;
  return {
    id: String(row.id),
    scheduledAt: row.scheduledAt.toISOString(),
    post,
    media: heldMedia(post, uploads),
    failure: (row.failure as ScheduledPost['failure']) ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
