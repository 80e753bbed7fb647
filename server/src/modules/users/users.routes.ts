import {
  api,
  currentUser,
  editBody,
  idParams,
  registerBody,
  suggestionsQuery,
  user,
  usernameParams,
  userSummary,
} from '@pipit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { cookieNames } from '../../lib/auth-cookies.ts';
import { unauthenticated } from '../../lib/errors.ts';
import { parseUserId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/** PATCH /api/edit carries up to two images as data URLs; every other route keeps the 64 KB default. */
export const EDIT_BODY_LIMIT = 16 * 1024 * 1024;

export const usersRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const { users } = app.services;

  const sessionCookie = cookieNames(config).session;

  app.post(
    api.register,
    {
      schema: { body: registerBody, response: { 201: currentUser } },
      preHandler: app.limit('register', (request) => request.ip),
    },
    async (request, reply) => {
      const created = await users.register(request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(api.current, { schema: { response: { 200: currentUser } } }, async (request, reply) => {
    const me = await users.current(requireViewer(request).userId);
    return reply.send(me);
  });

  app.get(
    api.users,
    { schema: { querystring: suggestionsQuery, response: { 200: z.array(userSummary) } } },
    async (request) => users.suggestions(request.viewer, request.query.limit),
  );

  app.get(api.user(':id'), { schema: { params: idParams, response: { 200: user } } }, async (request) =>
    users.profile(request.viewer, parseUserId(request.params.id)),
  );

  app.get(
    api.userByUsername(':username'),
    { schema: { params: usernameParams, response: { 200: user } } },
    async (request) => users.profileByUsername(request.viewer, request.params.username),
  );

  app.patch(
    api.edit,
    {
      bodyLimit: EDIT_BODY_LIMIT,
      // Without a session cookie there is no one to edit: refuse before reading up to 16 MB.
      onRequest: async (request) => {
        if (!request.cookies[sessionCookie]) throw unauthenticated();
      },
      schema: { body: editBody, response: { 200: currentUser } },
    },
    async (request, reply) => {
      const updated = await users.edit(requireViewer(request).userId, request.body);
      return reply.send(updated);
    },
  );
};
