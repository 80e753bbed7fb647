import { z } from 'zod';
import { CONTROL_CHARS_NO_NEWLINE, graphemeLength, idSchema } from './common.ts';
import { LIMITS, userSummary } from './users.ts';

/** 1–280 user-perceived characters after trimming; newlines allowed, other control characters not. */
export const postText = z
  .string()
  .max(LIMITS.postMax * 16, `Post must be at most ${LIMITS.postMax} characters`)
  .transform((t) => t.trim())
  .refine((t) => t.length > 0, 'Post must not be empty')
  .refine((t) => graphemeLength(t) <= LIMITS.postMax, `Post must be at most ${LIMITS.postMax} characters`)
  .refine((t) => !CONTROL_CHARS_NO_NEWLINE.test(t.replace(/\r?\n/g, '')), 'Post must not contain control characters');

export const createPostBody = z.strictObject({
  text: postText,
  /** Set when this post is a reply. */
  parentId: idSchema.nullable().optional(),
});
export type CreatePostBody = z.infer<typeof createPostBody>;

export const post = z.object({
  id: idSchema,
  text: z.string(),
  createdAt: z.string(),
  author: userSummary,
  parentId: idSchema.nullable(),
  replyCount: z.number().int(),
  likeCount: z.number().int(),
  likedByMe: z.boolean(),
});
export type Post = z.infer<typeof post>;
