import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { peopleByHandle } from '../federation/people.ts';

/** Search, for visitors and members alike (errors: the contract's endpoint table). */
export const searchRoutes: FastifyPluginAsync = async (app) => {
  const { search } = app.services;

  route(app, e.searchPosts, {}, async (request) => search.posts(request.viewer, request.query));
  route(app, e.searchPeople, {}, async (request) => {
    // A handle (`@user@host`) is one person, found at their server when asked (federation/people.ts).
    const found = await peopleByHandle(app, request.viewer, request.query.q, request.query.resolve === 'true');
    if ('people' in found) return { items: found.people };
    return search.people(request.viewer, { ...request.query, q: found.q });
  });
  route(app, e.searchHashtags, {}, async (request) => search.hashtags(request.query));
};
