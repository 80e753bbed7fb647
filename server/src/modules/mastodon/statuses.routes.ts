import {
  createPostBody,
  MAX_PAGE_SIZE,
  type PollInputBody,
  type Post,
  type QuotePolicy,
  type Visibility,
} from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import { AppError, invalid } from '../../lib/errors.ts';
import type { PostId } from '../../lib/ids.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e, type MastodonEndpoint } from './mastodon.endpoints.ts';
import { limitOf, postIdOf, route, userOf } from './mastodon.http.ts';
import { pollField, type StatusBody } from './mastodon.schemas.ts';
import { toScheduledStatus } from './scheduled-status.presenter.ts';
import { asMastodonField, scheduledAtOf } from './scheduled-statuses.routes.ts';

/**
 * A status's poll (JSON, or a form's `poll[options][]`, `poll[expires_in]`…) in Pipit's shape, or
 * undefined when there is none; a poll that cannot be read is refused naming its field.
 */
function pollOf(raw: unknown): PollInputBody | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const parsed = pollField.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    const field = typeof key === 'string' ? `poll[${key}]` : 'poll';
    throw invalid(field, `${field}: ${issue?.message ?? 'the poll is not valid'}`);
  }
  const { options, expires_in, multiple, hide_totals } = parsed.data;
  return {
    options,
    expiresIn: expires_in,
    ...(multiple !== undefined ? { multiple } : {}),
    ...(hide_totals !== undefined ? { hideTotals: hide_totals } : {}),
  };
}

/** Pipit's names of a poll's fields, as Mastodon's form names them. */
const POLL_FIELD: Record<string, string> = {
  options: 'poll[options]',
  expiresIn: 'poll[expires_in]',
  multiple: 'poll[multiple]',
  hideTotals: 'poll[hide_totals]',
};

/**
 * What Pipit cannot honour yet, refused by name: a post is never published wider, sooner or
 * different than asked. Every Pipit post is public, now, plain.
 */
function refuseWhatCannotBeHonoured(body: StatusBody): void {
  const refuse = (field: string, message: string) => {
    throw invalid(field, `${field}: ${message}`);
  };
  if (body.visibility != null && !(body.visibility in VISIBILITY_OF)) {
    refuse('visibility', `"${body.visibility}" is not one of public, unlisted, private, direct.`);
  }
  if (body.spoiler_text != null && body.spoiler_text.trim() !== '') {
    refuse('spoiler_text', 'Pipit has no content warnings yet.');
  }
  if (body.sensitive === true) refuse('sensitive', 'Pipit cannot mark media sensitive yet.');
  if (body.quote_approval_policy != null && !(body.quote_approval_policy in QUOTE_POLICY_OF)) {
    refuse('quote_approval_policy', `"${body.quote_approval_policy}" is not one of public, followers, nobody.`);
  }
}

/** Mastodon's visibilities as Pipit's (`private` is followers only). */
const VISIBILITY_OF: Record<string, Visibility> = {
  public: 'public',
  unlisted: 'unlisted',
  private: 'followers',
  direct: 'direct',
};

/** Pipit's names of the fields a status is refused for, as Mastodon names them. */
const MASTODON_FIELD: Record<string, string> = {
  visibility: 'visibility',
  quotePolicy: 'quote_approval_policy',
  media: 'media_ids',
  text: 'status',
};

/** Mastodon's quote approval policies as Pipit's quote policies. */
const QUOTE_POLICY_OF: Record<string, QuotePolicy> = { public: 'anyone', followers: 'followers', nobody: 'nobody' };

/** Statuses: write and delete one, read one and its thread, who liked or reposted it, and the actions on it. */
export async function statusesRoutes(app: FastifyInstance, { present }: MastodonContext) {
  const { posts, bookmarks, scheduledPosts } = app.services;

  route(app, e.createStatus, async (request, _reply, { body }) => {
    const viewer = userOf(request);
    refuseWhatCannotBeHonoured(body);
    const quote = body.quoted_status_id ?? body.quote_id ?? null;
    const poll = pollOf(body.poll);
    const parsed = createPostBody.safeParse({
      text: body.status ?? '',
      parentId: body.in_reply_to_id ?? null,
      media: (body.media_ids ?? []).map((id) => ({ id })),
      ...(quote ? { quoteOfId: quote } : {}),
      ...(body.visibility ? { visibility: VISIBILITY_OF[body.visibility] } : {}),
      ...(body.quote_approval_policy ? { quotePolicy: QUOTE_POLICY_OF[body.quote_approval_policy] } : {}),
      ...(poll ? { poll } : {}),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.path[0] === 'poll') {
        const field = POLL_FIELD[String(issue.path[1])] ?? 'poll';
        throw invalid(field, `${field}: ${issue.message}`);
      }
      const field = (
        {
          text: 'status',
          parentId: 'in_reply_to_id',
          media: 'media_ids',
          visibility: 'visibility',
          quotePolicy: 'quote_approval_policy',
        } as Record<string, string>
      )[String(issue?.path[0])];
      throw invalid(field ?? 'status', issue?.message ?? 'The status is not valid.');
    }
    const { text, parentId, media, quoteOfId, visibility, quotePolicy } = parsed.data;
    if (body.scheduled_at != null && body.scheduled_at !== '') {
      // Answered as Mastodon does: the ScheduledStatus (at least 5 minutes ahead; a past time is refused too).
      const at = scheduledAtOf(body.scheduled_at);
      const scheduled = await asMastodonField(() => scheduledPosts.schedule(viewer, parsed.data, at)).catch(
        (error: unknown) => {
          const field = error instanceof AppError && error.field?.startsWith('post.') ? error.field.slice(5) : null;
          const named = field ? MASTODON_FIELD[field] : undefined;
          if (named) throw invalid(named, `${named}: ${(error as AppError).message}`);
          throw error;
        },
      );
      return toScheduledStatus(present.publicUrl, scheduled);
    }
    try {
      const created = await posts.create(viewer, {
        text,
        parentId: parentId ? postIdOf(parentId) : null,
        media,
        quoteOfId: quoteOfId ? postIdOf(quoteOfId) : null,
        visibility,
        quotePolicy,
        poll: parsed.data.poll,
      });
      return await present.status(viewer, created);
    } catch (error) {
      // The service names Pipit's fields; an app is told its own.
      const field = error instanceof AppError && error.field ? MASTODON_FIELD[error.field] : undefined;
      if (field) throw invalid(field, `${field}: ${(error as AppError).message}`);
      throw error;
    }
  });

  route(app, e.status, async (request, _reply, { params }) =>
    present.status(request.viewer, await posts.get(request.viewer, postIdOf(params.id ?? ''))),
  );

  route(app, e.deleteStatus, async (request, _reply, { params }) => {
    const viewer = userOf(request);
    const id = postIdOf(params.id ?? '');
    const post = await posts.get(viewer, id);
    await posts.delete(viewer, id);
    // Mastodon answers the deleted status with its source text (for "delete and redraft").
    return { ...(await present.status(viewer, post)), text: post.text };
  });

  route(app, e.context, async (request, _reply, { params }) => {
    const id = postIdOf(params.id ?? '');
    // The post itself first: 404 when the viewer cannot see it.
    await posts.get(request.viewer, id);
    const ancestors = await posts.listAncestors(request.viewer, id);
    const replies = await posts.listReplies(request.viewer, id, { limit: MAX_PAGE_SIZE });
    return {
      ancestors: await present.statuses(request.viewer, ancestors.items),
      descendants: await present.statuses(request.viewer, replies.items),
    };
  });

  // Who liked or reposted a status (newest first, at most 80), as the viewer may see them.
  route(app, e.favouritedBy, async (request, _reply, { params, query }) =>
    present.accounts(
      await posts.likedBy(request.viewer, postIdOf(params.id ?? ''), limitOf(query.limit as string, 40, 80)),
    ),
  );
  route(app, e.rebloggedBy, async (request, _reply, { params, query }) =>
    present.accounts(
      await posts.repostedBy(request.viewer, postIdOf(params.id ?? ''), limitOf(query.limit as string, 40, 80)),
    ),
  );

  const action = (endpoint: MastodonEndpoint, run: (viewer: SessionUser, id: PostId) => Promise<Post>) =>
    route(app, endpoint, async (request, _reply, { params }) => {
      const viewer = userOf(request);
      return present.status(viewer, await run(viewer, postIdOf(params.id ?? '')));
    });
  action(e.favourite, (viewer, id) => posts.like(viewer, id));
  action(e.unfavourite, (viewer, id) => posts.unlike(viewer, id));
  // Mastodon answers a reblog with the new status: the repost, the post inside it (apps read `reblog`).
  action(e.reblog, async (viewer, id) => {
    await posts.repost(viewer, id);
    return posts.repostEntry(viewer, id);
  });
  action(e.unreblog, (viewer, id) => posts.unrepost(viewer, id));
  action(e.bookmark, (viewer, id) => bookmarks.add(viewer, id));
  action(e.unbookmark, (viewer, id) => bookmarks.remove(viewer, id));
}
