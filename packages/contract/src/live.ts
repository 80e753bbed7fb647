import type { PollCounts } from './polls.ts';
import type { Post } from './posts.ts';

/** Which timelines a new post belongs to, for the person the stream is for. */
export type LiveTimeline = 'following' | 'everyone';

/**
 * What GET /api/stream sends (Server-Sent Events: the SSE `event` is `type`, `data` the JSON of the
 * rest, `id` what a reconnect sends back as Last-Event-ID). Visitors receive posts for Everyone and
 * deletions; members also posts for Following and their own notifications.
 */
export type LiveEvent =
  | {
      type: 'post.created';
      post: Post;
      timelines: LiveTimeline[];
      /** The ids of the member's lists whose timelines show it (left out when none). */
      lists?: string[];
    }
  | { type: 'post.deleted'; id: string; parentId: string | null; authorId: string }
  /**
   * Its author edited a post (text, content warning, pictures): sent to everyone who may see it
   * (visitors: public and unlisted posts), whatever they have open; `timelines`/`lists` as for a new
   * post (where it would show live). The page replaces what it shows of the post.
   */
  | { type: 'post.updated'; post: Post; timelines: LiveTimeline[]; lists?: string[] }
  /**
   * A post's link card arrived after it was posted: wherever the post is shown, `post.card` is its card
   * now (nothing else of `post` is the reader's own: it is the post as its audience sees it, for apps
   * that replace the whole status). Sent to whoever may see the post; `timelines`/`lists` as for
   * post.created (where it would have arrived).
   */
  | { type: 'post.card'; post: Post; timelines: LiveTimeline[]; lists?: string[] }
  /**
   * The poll of the post `postId` has new counts (a vote), has ended (`ended`: the final counts), or
   * its author changed its options (`reset`: every vote went, the reader's own too). Sent to whoever
   * may see the post; option counts are null while hidden from this reader. The reader's own votes
   * are not in it: they keep theirs.
   */
  | { type: 'poll'; postId: string; counts: PollCounts; ended: boolean; reset: boolean }
  /** Something new in the member's notifications: the dot and the list are asked again. */
  | { type: 'notification'; notificationType: string }
  /** The member read their notifications (in this tab or another): the dot clears everywhere. */
  | { type: 'notifications.read' }
  /**
   * One of the member's conversations changed (`id`): a new post in it (`post`), or they read or
   * removed it (`read`, `removed`, in this tab or another). The list and its badge are asked again.
   */
  | { type: 'conversation'; id: string; change: 'post' | 'read' | 'removed' }
  /** The stream could not resume from Last-Event-ID (too old, or another server process): reload the lists. */
  | { type: 'reset' };

export type LiveEventType = LiveEvent['type'];
