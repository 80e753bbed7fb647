import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import { cookieNames } from '../../lib/auth-cookies.ts';
import { route } from '../../lib/endpoint.ts';
import { unauthenticated } from '../../lib/errors.ts';
import { parseUserId } from '../../lib/ids.ts';
import { requireViewer } from '../../plugins/session.ts';

/** PATCH /api/edit carries up to two images as data URLs; every other route keeps the 64 KB default. */
export const EDIT_BODY_LIMIT = 16 * 1024 * 1024;

export const usersRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  const { users } = app.services;
  const sessionCookie = cookieNames(config).session;

  route(app, e.register, { preHandler: app.limit('register', (request) => request.ip) }, async (request) =>
    users.register(request.body),
  );
  route(app, e.current, {}, async (request) => users.current(requireViewer(request).userId));
  route(app, e.suggestions, {}, async (request) => users.suggestions(request.viewer, request.query.limit));
  route(app, e.user, {}, async (request) => users.profile(request.viewer, parseUserId(request.params.id)));
  route(app, e.userByUsername, {}, async (request) => users.profileByUsername(request.viewer, request.params.username));
  route(
    app,
    e.edit,
    {
      bodyLimit: EDIT_BODY_LIMIT,
      // Without a session cookie there is no one to edit: refuse before reading up to 16 MB.
      onRequest: async (request) => {
        if (!request.cookies[sessionCookie]) throw unauthenticated();
      },
    },
    async (request) => users.edit(requireViewer(request).userId, request.body),
  );
};
