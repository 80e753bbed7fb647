import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { parsePostId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/** Voting in a post's poll (errors: the contract's endpoint table); the poll itself is read with its post. */
export const pollsRoutes: FastifyPluginAsync = async (app) => {
  const { polls, posts } = app.services;

  route(app, e.votePoll, {}, async (request) => {
    const viewer = requireViewer(request);
    const id = parsePostId(request.params.id);
    await polls.vote(viewer, id, request.body.choices);
    return posts.get(viewer, id);
  });
};
