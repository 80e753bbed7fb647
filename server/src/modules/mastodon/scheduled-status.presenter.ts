import type { ScheduledPost } from '@pipit/contract';
import { toMedia } from './media.presenter.ts';
import { MASTODON_QUOTE_POLICY, MASTODON_VISIBILITY } from './visibility.ts';

/**
 * Mastodon's ScheduledStatus: its id, time, images and `params`, the status as it will be posted, in
 * the names POST /api/v1/statuses takes (Mastodon keeps the request's options; Pipit keeps the post's
 * create body and answers it in those names). `application_id` is Mastodon's internal id of the app
 * (deprecated, "can be ignored"): Pipit keeps none with the post, and answers 0 where the description
 * requires a number. Fields Pipit's posts do not have yet answer null.
 */
export function toScheduledStatus(publicUrl: string, s: ScheduledPost) {
  const post = s.post;
  return {
    id: s.id,
    scheduled_at: s.scheduledAt,
    params: {
      text: post.text,
      visibility: MASTODON_VISIBILITY[post.visibility ?? 'public'],
      media_ids: post.media && post.media.length > 0 ? post.media.map((m) => m.id) : null,
      in_reply_to_id: post.parentId ? Number(post.parentId) : null,
      quoted_status_id: post.quoteOfId ?? null,
      quote_approval_policy: post.quotePolicy ? MASTODON_QUOTE_POLICY[post.quotePolicy] : null,
      // As scheduled: the warning and the mark when given (null when left out, as Mastodon keeps params).
      sensitive: post.sensitive ?? (post.spoilerText ? true : null),
      spoiler_text: post.spoilerText ? post.spoilerText : null,
      poll: post.poll
        ? {
            options: post.poll.options,
            expires_in: post.poll.expiresIn,
            multiple: post.poll.multiple ?? false,
            hide_totals: post.poll.hideTotals ?? false,
          }
        : null,
      language: null,
      idempotency: null,
      scheduled_at: null,
      application_id: 0,
      with_rate_limit: false,
    },
    media_attachments: s.media.map((m) => toMedia(publicUrl, m)),
  };
}
