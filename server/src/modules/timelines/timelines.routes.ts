import { endpoints as e, postPage } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { KeptBody, sendKept } from '../../lib/compression.ts';
import { route } from '../../lib/endpoint.ts';
import { CACHE_PUBLIC_FOR_VISITORS } from '../../plugins/security.ts';
import { requireViewer } from '../../plugins/session.ts';

/** Home timelines (errors: the contract's endpoint table). */
export const timelinesRoutes: FastifyPluginAsync = async (app) => {
  const { timelines } = app.services;

  route(app, e.timelineEveryone, {}, async (request, reply) => {
    if (request.viewer) return timelines.everyone(request.viewer, request.query);
    // Visitors all see the same pages: serve them from the shared cache, serialized once by the schema.
    const { cursor, limit } = request.query;
    const body = await app.sharedCache.get(`everyone:${limit}:${cursor ?? ''}`, async () =>
      JSON.stringify(postPage.parse(await timelines.everyone(null, request.query))),
    );
    // Serialized by the same schema when cached; sent as kept, compressed once per encoding.
    return sendKept(request, reply.headers(CACHE_PUBLIC_FOR_VISITORS), body);
  });

  route(app, e.timelineFollowing, {}, async (request, reply) => {
    const body = await timelines.followingJson(requireViewer(request), request.query);
    // The page members open most: serialized as built (toPost makes the contract's shape, in its
    // order; a test holds the body to the schema), without validating it again on every answer.
    if (body instanceof KeptBody) return sendKept(request, reply, body);
    return reply.type('application/json; charset=utf-8').send(body);
  });
};
