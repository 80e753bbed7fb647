import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors.ts';
import type { PostId } from '../../lib/ids.ts';
import type { Viewer } from '../sessions/sessions.service.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { postIdOf, route, userOf } from './mastodon.http.ts';
import { toMastodonPoll } from './poll.presenter.ts';

/**
 * Polls (a poll's id is its post's): read one, vote in one. The rules (one vote per person, not after
 * the end, the options there are, a post the viewer may not see answering as absent) are the polls
 * service's; its refusals are Mastodon's 422 with the reason, as Mastodon answers them.
 */
export async function pollsRoutes(app: FastifyInstance, _context: MastodonContext) {
  const { polls, posts } = app.services;

  const pollOf = async (viewer: Viewer, id: PostId) => {
    const post = await posts.get(viewer, id);
    if (!post.poll) throw notFound('Record not found');
    return toMastodonPoll(post.poll);
  };

  route(app, e.poll, async (request, _reply, { params }) => pollOf(request.viewer, postIdOf(params.id ?? '')));

  route(app, e.votePoll, async (request, _reply, { params, body }) => {
    const viewer = userOf(request);
    const id = postIdOf(params.id ?? '');
    await polls.vote(viewer, id, body.choices);
    return pollOf(viewer, id);
  });
}
