import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { parsePostId, parseUserId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';
import { createInputOf } from './posts.service.ts';

/** Posts, replies and likes (errors: the contract's endpoint table). */
export const postsRoutes: FastifyPluginAsync = async (app) => {
  const { posts, postEdits } = app.services;

  route(app, e.createPost, {}, async (request) => posts.create(requireViewer(request), createInputOf(request.body)));
  route(app, e.post, {}, async (request) => posts.get(request.viewer, parsePostId(request.params.id)));
  route(app, e.deletePost, {}, async (request) => {
    await posts.delete(requireViewer(request), parsePostId(request.params.id));
    return null;
  });
  route(app, e.editPost, {}, async (request) =>
    postEdits.edit(requireViewer(request), parsePostId(request.params.id), request.body),
  );
  route(app, e.postHistory, {}, async (request) => postEdits.history(request.viewer, parsePostId(request.params.id)));
  route(app, e.replies, {}, async (request) =>
    posts.listReplies(request.viewer, parsePostId(request.params.id), request.query),
  );
  route(app, e.ancestors, {}, async (request) => posts.listAncestors(request.viewer, parsePostId(request.params.id)));
  route(app, e.likePost, {}, async (request) => posts.like(requireViewer(request), parsePostId(request.params.id)));
  route(app, e.unlikePost, {}, async (request) => posts.unlike(requireViewer(request), parsePostId(request.params.id)));
  route(app, e.repostPost, {}, async (request) => posts.repost(requireViewer(request), parsePostId(request.params.id)));
  route(app, e.unrepostPost, {}, async (request) =>
    posts.unrepost(requireViewer(request), parsePostId(request.params.id)),
  );
  route(app, e.userPosts, {}, async (request) =>
    posts.listByUser(request.viewer, parseUserId(request.params.id), request.query),
  );
};
