import { api, notificationPage, pageQuery } from '@pipit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireViewer } from '../../plugins/session.ts';

/**
 * The signed-in person's notifications. Reading is a GET and changes nothing; marking read is an
 * explicit POST (CSRF-checked, rate limited). Errors: 400 INVALID_INPUT (cursor, limit), 401 UNAUTHENTICATED.
 */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.services;

  app.get(
    api.notifications,
    { schema: { querystring: pageQuery, response: { 200: notificationPage } } },
    async (request) => notifications.list(requireViewer(request), request.query),
  );

  app.post(api.notificationsRead, { schema: { response: { 204: z.null() } } }, async (request, reply) => {
    await notifications.markAllRead(requireViewer(request));
    return reply.code(204).send(null);
  });
};
