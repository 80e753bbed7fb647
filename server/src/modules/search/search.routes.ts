import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';

/** Search, for visitors and members alike (errors: the contract's endpoint table). */
export const searchRoutes: FastifyPluginAsync = async (app) => {
  const { search } = app.services;

  route(app, e.searchPosts, {}, async (request) => search.posts(request.viewer, request.query));
  route(app, e.searchPeople, {}, async (request) => search.people(request.viewer, request.query));
  route(app, e.searchHashtags, {}, async (request) => search.hashtags(request.query));
};
