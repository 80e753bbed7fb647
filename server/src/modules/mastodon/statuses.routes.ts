import { createPostBody, editPostBody, MAX_PAGE_SIZE, type PollInputBody, type Post } from '@pipit/contract';
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
import { quotePolicyOf, visibilityOf } from './visibility.ts';

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
 * different than asked.
 */
function refuseWhatCannotBeHonoured(body: StatusBody): void {
  const refuse = (field: string, message: string) => {
    throw invalid(field, `${field}: ${message}`);
  };
  if (body.visibility != null && visibilityOf(body.visibility) === undefined) {
    refuse('visibility', `"${body.visibility}" is not one of public, unlisted, private, direct.`);
  }
  if (body.quote_approval_policy != null && quotePolicyOf(body.quote_approval_policy) === undefined) {
    refuse('quote_approval_policy', `"${body.quote_approval_policy}" is not one of public, followers, nobody.`);
  }
}

/** Pipit's names of the fields a status is refused for, as Mastodon names them. */
const MASTODON_FIELD: Record<string, string> = {
  visibility: 'visibility',
  quotePolicy: 'quote_approval_policy',
  text: 'status',
  spoilerText: 'spoiler_text',
  media: 'media_ids',
  poll: 'poll',
};

/** A status refused for one of Pipit's fields: the app is told its own name for it. */
function asMastodonError(error: unknown): unknown {
  const field = error instanceof AppError && error.field ? MASTODON_FIELD[error.field] : undefined;
  return field ? invalid(field, `${field}: ${(error as AppError).message}`) : error;
}

/** A focal point other than the centre (Pipit shows pictures centred: it keeps none). */
const offCentre = (focus: string | null | undefined) =>
  focus != null && focus.trim() !== '' && focus.split(',').some((n) => Number(n.trim()) !== 0);

/** Statuses: write and delete one, read one and its thread, who liked or reposted it, and the actions on it. */
export async function statusesRoutes(app: FastifyInstance, { present }: MastodonContext) {
  const { posts, postEdits, bookmarks, scheduledPosts } = app.services;

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
      ...(body.visibility ? { visibility: visibilityOf(body.visibility) } : {}),
      ...(body.quote_approval_policy ? { quotePolicy: quotePolicyOf(body.quote_approval_policy) } : {}),
      ...(body.spoiler_text != null ? { spoilerText: body.spoiler_text } : {}),
      ...(body.sensitive != null ? { sensitive: body.sensitive } : {}),
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
          spoilerText: 'spoiler_text',
          sensitive: 'sensitive',
        } as Record<string, string>
      )[String(issue?.path[0])];
      const named = field ?? 'status';
      throw invalid(named, `${named}: ${issue?.message ?? 'The status is not valid.'}`);
    }
    const { text, parentId, media, quoteOfId, visibility, quotePolicy, spoilerText, sensitive } = parsed.data;
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
        spoilerText,
        sensitive,
        poll: parsed.data.poll,
      });
      return await present.status(viewer, created);
    } catch (error) {
      // The service names Pipit's fields; an app is told its own.
      throw asMastodonError(error);
    }
  });

  /**
   * An edit, as Mastodon takes it: the whole new status (text, warning, sensitive, pictures with their
   * alt text in `media_attributes`, its poll); what is left out is empty (no poll: the poll goes, as on
   * Mastodon). The same service and rules as the web's edit: a poll sent moves its end to `expires_in`
   * from now, and other options reset its votes. A change of who may quote it is refused.
   */
  route(app, e.editStatus, async (request, _reply, { params, body }) => {
    const viewer = userOf(request);
    const id = postIdOf(params.id ?? '');
    const refuse = (field: string, message: string) => invalid(field, `${field}: ${message}`);
    // 404 when the viewer cannot see it, before anything about its content is said.
    const post = await posts.get(viewer, id);
    if (body.quote_approval_policy != null && quotePolicyOf(body.quote_approval_policy) !== post.quotePolicy) {
      throw refuse('quote_approval_policy', 'Pipit cannot change who may quote a post after it is written.');
    }
    const mediaIds = body.media_ids ?? [];
    const alts = new Map<string, string>();
    for (const attributes of body.media_attributes ?? []) {
      if (!mediaIds.includes(attributes.id)) {
        throw refuse('media_attributes', `${attributes.id} is not one of media_ids.`);
      }
      if (offCentre(attributes.focus)) throw refuse('media_attributes', 'Pipit cannot keep a focal point yet.');
      if (attributes.description != null) alts.set(attributes.id, attributes.description);
    }
    const parsed = editPostBody.safeParse({
      text: body.status ?? '',
      spoilerText: body.spoiler_text ?? '',
      sensitive: body.sensitive ?? false,
      media: mediaIds.map((mediaId) => ({ id: mediaId, ...(alts.has(mediaId) ? { alt: alts.get(mediaId) } : {}) })),
      poll: pollOf(body.poll) ?? null,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.path[0] === 'poll') {
        const field = POLL_FIELD[String(issue.path[1])] ?? 'poll';
        throw refuse(field, issue.message);
      }
      const path = String(issue?.path[0]);
      const field = path === 'media' && issue?.path[2] === 'alt' ? 'media_attributes' : MASTODON_FIELD[path];
      throw refuse(field ?? 'status', issue?.message ?? 'The status is not valid.');
    }
    try {
      return await present.status(viewer, await postEdits.edit(viewer, id, parsed.data));
    } catch (error) {
      throw asMastodonError(error);
    }
  });

  // Every version of a status, oldest first (StatusEdit), as the viewer may see it.
  route(app, e.statusHistory, async (request, _reply, { params }) => {
    const id = postIdOf(params.id ?? '');
    const history = await postEdits.history(request.viewer, id);
    const post = await posts.get(request.viewer, id);
    return present.statusEdits(request.viewer, post, history);
  });

  // The text as written (for an app's edit box): Mastodon's StatusSource.
  route(app, e.statusSource, async (request, _reply, { params }) => {
    const post = await posts.get(userOf(request), postIdOf(params.id ?? ''));
    return { id: post.id, text: post.text, spoiler_text: post.spoilerText };
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
