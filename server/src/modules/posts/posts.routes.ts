import { api, createPostBody, idParams, pageQuery, post, postAncestors, postPage } from '@pipit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePostId, parseUserId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/**
 * Posts, replies and likes. Errors: 400 INVALID_INPUT (body, cursor), 401 UNAUTHENTICATED (writes
 * by visitors), 403 FORBIDDEN (deleting someone else's post), 404 NOT_FOUND (unknown post or user).
 * CSRF and the write rate limit apply to every state-changing call (global hooks).
 */
export const postsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { posts } = app.services;

  app.post(api.posts, { schema: { body: createPostBody, response: { 201: post } } }, async (request, reply) => {
    const created = await posts.create(requireViewer(request), {
      text: request.body.text,
      parentId: request.body.parentId ? parsePostId(request.body.parentId) : null,
    });
    return reply.code(201).send(created);
  });

  app.get(api.post(':id'), { schema: { params: idParams, response: { 200: post } } }, async (request) =>
    posts.get(request.viewer, parsePostId(request.params.id)),
  );

  app.delete(api.post(':id'), { schema: { params: idParams, response: { 204: z.null() } } }, async (request, reply) => {
    await posts.delete(requireViewer(request), parsePostId(request.params.id));
    return reply.code(204).send(null);
  });

  app.get(
    api.replies(':id'),
    { schema: { params: idParams, querystring: pageQuery, response: { 200: postPage } } },
    async (request) => posts.listReplies(request.viewer, parsePostId(request.params.id), request.query),
  );

  app.get(api.ancestors(':id'), { schema: { params: idParams, response: { 200: postAncestors } } }, async (request) =>
    posts.listAncestors(request.viewer, parsePostId(request.params.id)),
  );

  app.put(api.like(':id'), { schema: { params: idParams, response: { 200: post } } }, async (request) =>
    posts.like(requireViewer(request), parsePostId(request.params.id)),
  );

  app.delete(api.like(':id'), { schema: { params: idParams, response: { 200: post } } }, async (request) =>
    posts.unlike(requireViewer(request), parsePostId(request.params.id)),
  );

  app.get(
    api.userPosts(':id'),
    { schema: { params: idParams, querystring: pageQuery, response: { 200: postPage } } },
    async (request) => posts.listByUser(request.viewer, parseUserId(request.params.id), request.query),
  );
};
