import { endpoints as e } from '@pipit/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { requireViewer } from '../../plugins/session.ts';

/**
 * The signed-in person's notifications. Reading is a GET and changes nothing; marking read is an
 * explicit POST (CSRF-checked, rate limited). Errors: the contract's endpoint table.
 */
export const notificationsRoutes: FastifyPluginAsync = async (app) => {
  const { notifications } = app.services;

  route(app, e.notifications, {}, async (request) => notifications.list(requireViewer(request), request.query));
  route(app, e.unreadNotifications, {}, async (request) => notifications.unreadCount(requireViewer(request)));
  route(app, e.markNotificationsRead, {}, async (request) => {
    await notifications.markAllRead(requireViewer(request));
    return null;
  });
};
