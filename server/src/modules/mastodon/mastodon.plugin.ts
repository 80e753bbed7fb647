import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { compressJson } from '../../lib/compression.ts';
import { allowAnyOrigin } from '../../lib/cors.ts';
import { limitWrites } from '../../plugins/rate-limit.ts';
import { UPLOAD_LIMITS } from '../media/media.upload.ts';
import { badToken, bearerToken } from '../oauth/bearer.ts';
import type { TokenGrant } from '../oauth/oauth.service.ts';
import { accountsRoutes, accountUploadRoutes } from './accounts.routes.ts';
import { conversationsRoutes } from './conversations.routes.ts';
import { emptyRoutes } from './empty.routes.ts';
import { groupedNotificationsRoutes } from './grouped-notifications.routes.ts';
import { instanceRoutes } from './instance.routes.ts';
import { listsRoutes } from './lists.routes.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonErrors } from './mastodon.errors.ts';
import { mediaRoutes } from './media.routes.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { pollsRoutes } from './polls.routes.ts';
import { MastodonPresenter } from './presenter.ts';
import { pushRoutes } from './push.routes.ts';
import { reportsRoutes } from './reports.routes.ts';
import { scheduledStatusesRoutes } from './scheduled-statuses.routes.ts';
import { searchRoutes } from './search.routes.ts';
import { statusesRoutes } from './statuses.routes.ts';
import { streamingRoutes } from './streaming.routes.ts';
import { tagsRoutes } from './tags.routes.ts';
import { timelinesRoutes } from './timelines.routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The bearer token's grant on /api/v1 and /api/v2 (null without one). */
    grant: TokenGrant | null;
    /** The bearer token itself, once resolved (a stream keeps it, to ask whether it still holds). */
    bearer: string | null;
  }
}

/**
 * The Mastodon client API (docs.joinmastodon.org/methods) over the services the web API uses, in its
 * own scope: bearer tokens only (the session cookie is never read here: plugins/session.ts), no CSRF
 * header (a browser never sends a bearer token by itself), CORS for web apps on other origins,
 * Mastodon's `{error}`, the write limit per person. Routes by resource, one file each; the table of
 * them is mastodon.endpoints.ts; entities come from the presenters.
 */
export async function mastodonPlugin(app: FastifyInstance, { config }: { config: Config }) {
  const { oauth } = app.services;
  await compressJson(app);
  // Mastodon web apps on other origins (Elk, Phanpy) call it from the browser.
  allowAnyOrigin(app, ['/api/v1/*', '/api/v2/*']);
  mastodonErrors(app);
  app.decorateRequest('grant', null);
  app.decorateRequest('bearer', null);
  app.addHook('onRequest', async (request) => {
    if (!request.headers.authorization) return;
    const token = bearerToken(request.headers.authorization);
    const grant = token ? await oauth.resolve(token) : null;
    if (!grant) throw badToken();
    request.grant = grant;
    request.bearer = token;
    request.viewer = grant.viewer;
  });
  app.addHook('preHandler', limitWrites(app));

  const context: MastodonContext = { config, present: new MastodonPresenter(app.services, config.publicUrl) };
  await app.register(instanceRoutes, context);
  // Forms and multipart form fields (what apps send besides JSON), in the routes that take them.
  await app.register(async (forms) => {
    await forms.register(formbody, { bodyLimit: 64 * 1024 });
    await forms.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fields: 40, fieldSize: 16 * 1024, files: 0, parts: 40 },
    });
    await forms.register(accountsRoutes, context);
    await forms.register(statusesRoutes, context);
    await forms.register(timelinesRoutes, context);
    await forms.register(notificationsRoutes, context);
    await forms.register(conversationsRoutes, context);
    await forms.register(groupedNotificationsRoutes, context);
    await forms.register(searchRoutes, context);
    await forms.register(tagsRoutes, context);
    await forms.register(listsRoutes, context);
    await forms.register(pollsRoutes, context);
    await forms.register(reportsRoutes, context);
    await forms.register(scheduledStatusesRoutes, context);
    await forms.register(pushRoutes, context);
    await forms.register(emptyRoutes);
  });
  await app.register(streamingRoutes, context);
  // Uploads: one image and its description, read as they arrive (media.upload.ts's limits); the
  // profile's form with its two pictures (its own limits), or as form fields or JSON.
  await app.register(async (uploads) => {
    await uploads.register(formbody, { bodyLimit: 64 * 1024 });
    await uploads.register(multipart, { limits: UPLOAD_LIMITS });
    await uploads.register(mediaRoutes, context);
    await uploads.register(accountUploadRoutes, context);
  });
}
