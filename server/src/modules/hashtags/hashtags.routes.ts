import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';

/** A hashtag's posts and the trending hashtags, for visitors and members alike (errors: the endpoint table). */
export const hashtagsRoutes: FastifyPluginAsync = async (app) => {
  const { hashtags } = app.services;

  route(app, e.hashtagPosts, {}, async (request) => hashtags.posts(request.viewer, request.params.tag, request.query));
  route(app, e.trendingHashtags, {}, async () => hashtags.trendingNow());
};
