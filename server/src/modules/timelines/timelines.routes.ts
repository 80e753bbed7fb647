import { api, type Page, type Post, pageQuery, postPage } from '@pipit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CACHE_PUBLIC_FOR_VISITORS } from '../../plugins/security.ts';
import { requireViewer } from '../../plugins/session.ts';

/** Home timelines. Errors: 400 INVALID_INPUT (cursor, limit), 401 UNAUTHENTICATED (Following for visitors). */
export const timelinesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { timelines } = app.services;

  app.get(
    api.timelineEveryone,
    { schema: { querystring: pageQuery, response: { 200: postPage } } },
    async (request, reply) => {
      if (request.viewer) return timelines.everyone(request.viewer, request.query);
      // Visitors all see the same pages: serve them from the shared cache, serialized once by the schema.
      const { cursor, limit } = request.query;
      const body = await app.sharedCache.get(`everyone:${limit}:${cursor ?? ''}`, async () =>
        JSON.stringify(postPage.parse(await timelines.everyone(null, request.query))),
      );
      // A string body skips the serializer: it was serialized by the same schema when cached.
      return reply
        .headers(CACHE_PUBLIC_FOR_VISITORS)
        .type('application/json; charset=utf-8')
        .send(body as unknown as Page<Post>);
    },
  );

  app.get(api.timelineFollowing, { schema: { querystring: pageQuery, response: { 200: postPage } } }, async (request) =>
    timelines.following(requireViewer(request), request.query),
  );
};
