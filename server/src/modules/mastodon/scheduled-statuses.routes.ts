import type { FastifyInstance } from 'fastify';
import { invalid } from '../../lib/errors.ts';
import { parseScheduledId } from '../drafts/scheduled.service.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { keyedPage, route, userOf } from './mastodon.http.ts';
import { toScheduledStatus } from './scheduled-status.presenter.ts';

/** A time as Mastodon apps send it (ISO 8601); 422 naming scheduled_at otherwise. */
export function scheduledAtOf(raw: string): Date {
  const at = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(at.getTime())) {
    throw invalid('scheduled_at', `scheduled_at: "${raw}" is not an ISO 8601 date and time.`);
  }
  return at;
}

/** The service names its fields (scheduledAt); an app is told Mastodon's. */
export function asMastodonField<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    const field = (error as { field?: string }).field;
    if (field === 'scheduledAt') throw invalid('scheduled_at', `scheduled_at: ${(error as Error).message}`);
    throw error;
  });
}

/**
 * Scheduled statuses: the member's posts waiting for their time (newest id first, paged by id as
 * Mastodon pages them), one of them, a new time (PUT: Mastodon changes only `scheduled_at`), cancel.
 */
export async function scheduledStatusesRoutes(app: FastifyInstance, { config }: MastodonContext) {
  const { scheduledPosts } = app.services;
  const present = (s: Parameters<typeof toScheduledStatus>[1]) => toScheduledStatus(config.publicUrl, s);

  route(app, e.scheduledStatuses, async (request, reply) => {
    const viewer = userOf(request);
    const items = await keyedPage(request, reply, config.publicUrl, {
      read: (page) => scheduledPosts.page(viewer, page),
      keyOf: (s) => BigInt(s.id),
      cursorBelow: async (id) => String(id),
      limit: { fallback: 20, max: 40 },
    });
    return items.map(present);
  });

  route(app, e.scheduledStatus, async (request, _reply, { params }) =>
    present(await scheduledPosts.get(userOf(request), parseScheduledId(params.id ?? ''))),
  );

  route(app, e.updateScheduledStatus, async (request, _reply, { params, body }) => {
    const viewer = userOf(request);
    const id = parseScheduledId(params.id ?? '');
    if (!body.scheduled_at) {
      // Mastodon changes nothing else here; with nothing to change it answers the scheduled status.
      return present(await scheduledPosts.get(viewer, id));
    }
    const at = scheduledAtOf(body.scheduled_at);
    return present(await asMastodonField(() => scheduledPosts.update(viewer, id, { scheduledAt: at })));
  });

  route(app, e.deleteScheduledStatus, async (request, _reply, { params }) => {
    await scheduledPosts.cancel(userOf(request), parseScheduledId(params.id ?? ''));
    return {};
  });
}
