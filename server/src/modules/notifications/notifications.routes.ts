import { api, notificationPage, pageQuery } from '@pipit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { requireViewer } from '../../plugins/session.ts';
import { NotificationsService } from './notifications.service.ts';

/**
 * The signed-in person's notifications. Reading is a GET and changes nothing; marking read is an
 * explicit POST (CSRF-checked, rate limited). Errors: 400 INVALID_INPUT (cursor, limit), 401 UNAUTHENTICATED.
 */
export const notificationsRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app) => {
  const notifications = new NotificationsService(app.db);

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
