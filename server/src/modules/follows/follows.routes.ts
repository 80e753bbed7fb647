import { api, idParams, page, pageQuery, user } from '@pipit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { parseUserId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

const userPage = page(user);

/**
 * Follow, unfollow and the follow lists. Errors: 400 CANNOT_FOLLOW_SELF, 400 INVALID_INPUT (cursor,
 * limit), 401 UNAUTHENTICATED (visitors following), 404 NOT_FOUND (unknown user).
 */
export const followsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { follows } = app.services;

  app.put(api.follow(':id'), { schema: { params: idParams, response: { 200: user } } }, async (request) =>
    follows.follow(requireViewer(request), parseUserId(request.params.id)),
  );

  app.delete(api.follow(':id'), { schema: { params: idParams, response: { 200: user } } }, async (request) =>
    follows.unfollow(requireViewer(request), parseUserId(request.params.id)),
  );

  app.get(
    api.followers(':id'),
    { schema: { params: idParams, querystring: pageQuery, response: { 200: userPage } } },
    async (request) => follows.followers(request.viewer, parseUserId(request.params.id), request.query),
  );

  app.get(
    api.following(':id'),
    { schema: { params: idParams, querystring: pageQuery, response: { 200: userPage } } },
    async (request) => follows.following(request.viewer, parseUserId(request.params.id), request.query),
  );
};
