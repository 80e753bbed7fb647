import { z } from 'zod';
import { idSchema, page } from './common.ts';
import { post } from './posts.ts';
import { userSummary } from './users.ts';

/**
 * A conversation: a direct post (mentioned people only) and the direct replies under it, as one
 * person sees it. Its id is its thread's first post's id (that post may since have been deleted).
 */
export const conversation = z.object({
  id: idSchema,
  /** Everyone else in it whom the viewer may see: the authors and mentioned people of its posts they can read. */
  participants: z.array(userSummary),
  /** The newest post of it the viewer may see (the post page of this one opens the thread). */
  lastPost: post,
  /** Something came in since the viewer last read it (their own posts never make it unread). */
  unread: z.boolean(),
  /** When its newest post was written. */
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof conversation>;

/** GET /api/conversations: the latest first. */
export const conversationPage = page(conversation);
export type ConversationPage = z.infer<typeof conversationPage>;
