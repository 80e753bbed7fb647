import { z } from 'zod';
import { postMediaInput } from './media.ts';
import { pollInput } from './polls.ts';
import { postText, spoilerText } from './posts.ts';

/**
 * PATCH /api/posts/:id: what the author changes of their post — its text, content warning,
 * sensitive mark, pictures (in grid order: pictures it has, with new alt text when given, and
 * uploads of theirs waiting for a post; a picture left out is removed) and poll (polls.ts
 * `pollInput`, or null to remove it). A field left out stays as it is. Not its visibility, parent or
 * quote. The result follows create's rules (not empty: text or a picture; at most
 * LIMITS.postImagesMax pictures; a poll and pictures never together, and a poll needs text). A poll
 * sent is the poll from now on: its end moves to `expiresIn` from now, and when its options or
 * single/multiple choice change its votes are reset (the voters are told, with an `update`
 * notification). An edit that changes nothing is accepted and writes no version (as Mastodon does).
 */
export const editPostBody = z
  .strictObject({
    text: postText.optional(),
    spoilerText: spoilerText.optional(),
    sensitive: z.boolean().optional(),
    media: postMediaInput.optional(),
    poll: pollInput.nullable().optional(),
  })
  .refine((body) => !body.poll || (body.media?.length ?? 0) === 0, {
    message: 'A post cannot have both a poll and images',
    path: ['poll'],
  });
export type EditPostBody = z.infer<typeof editPostBody>;

/**
 * A picture as a version of a post had it. `url`/`previewUrl` are null when the picture has been
 * removed from the post since (its file is deleted with it): its place, size, blurhash and alt stay.
 */
export const versionMedia = z.object({
  id: z.string(),
  url: z.string().nullable(),
  previewUrl: z.string().nullable(),
  width: z.number().int(),
  height: z.number().int(),
  blurhash: z.string(),
  alt: z.string(),
});
export type VersionMedia = z.infer<typeof versionMedia>;

/** A poll as a version of a post had it: its options in order (votes are not kept per version). */
export const versionPoll = z.object({
  options: z.array(z.string()),
  multiple: z.boolean(),
});
export type VersionPoll = z.infer<typeof versionPoll>;

/** What changed from the version before (null for the first version). */
export const versionChanges = z.object({
  text: z.boolean(),
  spoilerText: z.enum(['added', 'removed', 'changed']).nullable(),
  sensitive: z.enum(['marked', 'unmarked']).nullable(),
  mediaAdded: z.number().int(),
  mediaRemoved: z.number().int(),
  /** Pictures kept whose alt text changed. */
  altChanged: z.number().int(),
  /** The kept pictures are in another order. */
  mediaReordered: z.boolean(),
  /** Its poll: added, removed, or its options or single/multiple choice changed (which reset its votes). */
  poll: z.enum(['added', 'removed', 'changed']).nullable(),
});
export type VersionChanges = z.infer<typeof versionChanges>;

/** One version of a post: the original, then one per edit. */
export const postVersion = z.object({
  /** When it was written: the post's time for the original, the edit's for the others. */
  createdAt: z.string(),
  text: z.string(),
  spoilerText: z.string(),
  sensitive: z.boolean(),
  media: z.array(versionMedia),
  /** Its poll's options then (null: none). */
  poll: versionPoll.nullable(),
  changes: versionChanges.nullable(),
});
export type PostVersion = z.infer<typeof postVersion>;

/** GET /api/posts/:id/history: every version, oldest first (a post never edited: its one version). */
export const postHistory = z.object({ items: z.array(postVersion) });
export type PostHistory = z.infer<typeof postHistory>;

type VersionFields = Pick<PostVersion, 'text' | 'spoilerText' | 'sensitive' | 'poll'> & {
  media: readonly Pick<VersionMedia, 'id' | 'alt'>[];
};

/** Whether two versions' polls ask the same: the same options in order, the same single/multiple choice. */
export const samePoll = (a: VersionPoll | null, b: VersionPoll | null) =>
  a === null || b === null
    ? a === b
    : a.multiple === b.multiple &&
      a.options.length === b.options.length &&
      a.options.every((o, i) => o === b.options[i]);

/** What changed from `before` to `after`. */
export function changesBetween(before: VersionFields, after: VersionFields): VersionChanges {
  const was = new Map(before.media.map((m) => [m.id, m]));
  const now = new Set(after.media.map((m) => m.id));
  const kept = after.media.filter((m) => was.has(m.id));
  const keptBefore = before.media.filter((m) => now.has(m.id));
  return {
    text: before.text !== after.text,
    spoilerText:
      before.spoilerText === after.spoilerText
        ? null
        : before.spoilerText === ''
          ? 'added'
          : after.spoilerText === ''
            ? 'removed'
            : 'changed',
    sensitive: before.sensitive === after.sensitive ? null : after.sensitive ? 'marked' : 'unmarked',
    mediaAdded: after.media.length - kept.length,
    mediaRemoved: before.media.length - keptBefore.length,
    altChanged: kept.filter((m) => was.get(m.id)?.alt !== m.alt).length,
    mediaReordered: kept.some((m, i) => keptBefore[i]?.id !== m.id),
    poll: samePoll(before.poll, after.poll)
      ? null
      : before.poll === null
        ? 'added'
        : after.poll === null
          ? 'removed'
          : 'changed',
  };
}

/** Whether anything changed at all. */
export const anyChange = (c: VersionChanges) =>
  c.text ||
  c.spoilerText !== null ||
  c.sensitive !== null ||
  c.mediaAdded > 0 ||
  c.mediaRemoved > 0 ||
  c.altChanged > 0 ||
  c.mediaReordered ||
  c.poll !== null;

const pictures = (n: number) => (n === 1 ? '1 picture' : `${n} pictures`);

/** The changes in words, as the history lists them ("Text changed", "Content warning added", "2 pictures added"). */
export function describeChanges(c: VersionChanges): string[] {
  const said: string[] = [];
  if (c.text) said.push('Text changed');
  if (c.spoilerText) said.push(`Content warning ${c.spoilerText}`);
  // A warning added or removed marks or unmarks the post with it: said once.
  const withWarning = c.spoilerText === 'added' || c.spoilerText === 'removed';
  if (c.sensitive === 'marked' && !withWarning) said.push('Marked sensitive');
  if (c.sensitive === 'unmarked' && !withWarning) said.push('No longer marked sensitive');
  if (c.mediaAdded > 0) said.push(`${pictures(c.mediaAdded)} added`);
  if (c.mediaRemoved > 0) said.push(`${pictures(c.mediaRemoved)} removed`);
  if (c.altChanged > 0)
    said.push(c.altChanged === 1 ? 'Alt text changed' : `Alt text of ${pictures(c.altChanged)} changed`);
  if (c.mediaReordered) said.push('Pictures reordered');
  if (c.poll) said.push(`Poll ${c.poll}`);
  return said;
}
