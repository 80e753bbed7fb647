import type { Notification } from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { idOf, keyedPage, route, userOf } from './mastodon.http.ts';

const MISSING = 'No such notification.';

/** Notifications (newest first, paged by Mastodon's keys), one by id, clear, dismiss, and the notifications marker. */
export async function notificationsRoutes(app: FastifyInstance, { config, present }: MastodonContext) {
  const { notifications } = app.services;

  route(app, e.notifications, async (request, reply) => {
    const viewer = userOf(request);
    const items = await keyedPage(request, reply, config.publicUrl, {
      read: (page) => notifications.list(viewer, page),
      keyOf: (n: Notification) => BigInt(n.id),
      cursorBelow: (id) => notifications.cursorBelow(viewer, id),
      limit: { fallback: 40, max: 80 },
    });
    return present.notifications(viewer, items);
  });

  route(app, e.notification, async (request, _reply, { params }) => {
    const viewer = userOf(request);
    const found = await notifications.get(viewer, idOf(params.id ?? '', MISSING));
    const [shown] = found ? await present.notifications(viewer, [found]) : [];
    if (!shown) throw notFound(MISSING);
    return shown;
  });

  route(app, e.clearNotifications, async (request) => {
    await notifications.clear(userOf(request));
    return {};
  });
  route(app, e.dismissNotification, async (request, _reply, { params }) => {
    if (!(await notifications.dismiss(userOf(request), idOf(params.id ?? '', MISSING)))) throw notFound(MISSING);
    return {};
  });

  /**
   * Pipit keeps one marker, the notifications' (read together); the home marker is not kept. Someone
   * who has read nothing yet has it at 0 (apps such as Elk read it without checking it is there).
   */
  const marker = async (viewer: SessionUser) => {
    const read = await notifications.readMarker(viewer);
    return {
      notifications: {
        last_read_id: read ? String(read.id) : '0',
        version: 0,
        updated_at: (read?.readAt ?? new Date(0)).toISOString(),
      },
    };
  };
  route(app, e.markers, async (request) => marker(userOf(request)));
  route(app, e.saveMarkers, async (request, _reply, { body }) => {
    const viewer = userOf(request);
    if (body.notifications) await notifications.markReadUpTo(viewer, Number(body.notifications.last_read_id));
    return marker(viewer);
  });
}
