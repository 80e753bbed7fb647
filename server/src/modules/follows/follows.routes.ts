import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { parseUserId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/** Follow, unfollow, the follow lists and the requests to follow a locked account (errors: the contract's endpoint table). */
export const followsRoutes: FastifyPluginAsync = async (app) => {
  const { follows } = app.services;

  route(app, e.follow, {}, async (request) => follows.follow(requireViewer(request), parseUserId(request.params.id)));
  route(app, e.unfollow, {}, async (request) =>
    follows.unfollow(requireViewer(request), parseUserId(request.params.id)),
  );
  route(app, e.followers, {}, async (request) =>
    follows.followers(request.viewer, parseUserId(request.params.id), request.query),
  );
  route(app, e.following, {}, async (request) =>
    follows.following(request.viewer, parseUserId(request.params.id), request.query),
  );
  route(app, e.followRequests, {}, async (request) => follows.requests(requireViewer(request), request.query));
  route(app, e.approveFollowRequest, {}, async (request) =>
    follows.approve(requireViewer(request), parseUserId(request.params.id)),
  );
  route(app, e.rejectFollowRequest, {}, async (request) =>
    follows.reject(requireViewer(request), parseUserId(request.params.id)),
  );
};
