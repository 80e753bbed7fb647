import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import serverPackage from '../../../package.json' with { type: 'json' };
import type { Config } from '../../config.ts';
import { compressJson } from '../../lib/compression.ts';
import { limitWrites } from '../../plugins/rate-limit.ts';
import { UPLOAD_LIMITS } from '../media/media.upload.ts';
import { findUser } from '../users/users.repository.ts';
import { groupedNotificationsRoutes } from './grouped-notifications.routes.ts';
import { mastodonApiRoutes } from './mastodon.api.routes.ts';
import { need } from './mastodon.auth.ts';
import { allowAnyOrigin } from './mastodon.cors.ts';
import { configuration, mastodonVersion, toCredentialAccount } from './mastodon.entities.ts';
import { mastodonErrors, Refused } from './mastodon.errors.ts';
import { mastodonMediaRoutes } from './mastodon.media.routes.ts';
import { mastodonMoreRoutes } from './mastodon.more.routes.ts';
import { mastodonProfileRoutes } from './mastodon.profile.routes.ts';
import { mastodonSocialRoutes } from './mastodon.social.routes.ts';
import { mastodonStreamingRoutes } from './mastodon.streaming.ts';
import type { TokenGrant } from './oauth.service.ts';

/** This server's version (its package.json's; the build inlines it), in the instance's version string. */
const PIPIT_VERSION: string = serverPackage.version;

declare module 'fastify' {
  interface FastifyRequest {
    /** The bearer token's grant on /api/v1 and /api/v2 (null without one). */
    grant: TokenGrant | null;
  }
}

/**
 * The Mastodon client API (docs.joinmastodon.org/methods) over the services the web API uses. Its
 * own scope: no CSRF header (a bearer token is not sent by a browser on its own), the session cookie
 * is never read here (plugins/session.ts), errors are Mastodon's `{error}`.
 */
export async function mastodonRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const { oauth } = app.services;
  await compressJson(app);
  // Mastodon web apps on other origins (Elk, Phanpy) call it from the browser.
  allowAnyOrigin(app, ['/api/v1/*', '/api/v2/*']);
  mastodonErrors(app);
  app.decorateRequest('grant', null);
  app.addHook('onRequest', async (request, reply: FastifyReply) => {
    const header = request.headers.authorization;
    if (!header) return;
    const token = /^Bearer (\S+)$/i.exec(header)?.[1];
    const grant = token ? await oauth.resolve(token) : null;
    if (!grant) {
      return reply.code(401).header('WWW-Authenticate', 'Bearer error="invalid_token"').send({
        error: 'The access token is invalid',
      });
    }
    request.grant = grant;
    request.viewer = grant.viewer;
  });
  app.addHook('preHandler', limitWrites(app));

  const domain = new URL(config.publicUrl).host;
  // Who to write to: the first admin's email, else the address mail comes from.
  const contactEmail = config.adminEmails[0] ?? /<([^>]+)>/.exec(config.mail.from)?.[1] ?? config.mail.from;

  app.get('/api/v2/instance', async () => ({
    domain,
    title: 'Pipit',
    version: mastodonVersion(PIPIT_VERSION),
    source_url: 'https://github.com/pipit-social/pipit',
    description: 'Pipit: short messages, among people.',
    usage: { users: { active_month: 0 } },
    thumbnail: { url: `${config.publicUrl}/images/placeholder.png`, blurhash: null, versions: {} },
    icon: [],
    languages: ['en'],
    configuration: configuration(config.publicUrl),
    registrations: { enabled: true, approval_required: false, message: null, min_age: null, reason_required: false },
    api_versions: { mastodon: 2 },
    contact: { email: contactEmail, account: null },
    rules: [],
  }));

  app.get('/api/v1/instance', async () => ({
    uri: domain,
    title: 'Pipit',
    short_description: 'Pipit: short messages, among people.',
    description: 'Pipit: short messages, among people.',
    email: contactEmail,
    version: mastodonVersion(PIPIT_VERSION),
    urls: { streaming_api: config.publicUrl.replace(/^http/, 'ws') },
    stats: { user_count: 0, status_count: 0, domain_count: 0 },
    thumbnail: null,
    languages: ['en'],
    registrations: true,
    approval_required: false,
    invites_enabled: false,
    configuration: configuration(config.publicUrl),
    contact_account: null,
    rules: [],
  }));

  // Forms and multipart form fields (what apps send besides JSON), in the routes that take them.
  await app.register(async (forms) => {
    await forms.register(formbody, { bodyLimit: 64 * 1024 });
    await forms.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fields: 40, fieldSize: 16 * 1024, files: 0, parts: 40 },
    });
    await forms.register(mastodonApiRoutes, { config });
    await forms.register(mastodonSocialRoutes, { config });
    await forms.register(mastodonMoreRoutes, { config });
    await forms.register(groupedNotificationsRoutes, { config });
  });
  await app.register(mastodonStreamingRoutes, { config });
  // Uploads: one image and its description, read as they arrive (media.upload.ts's limits); the
  // profile's form with its two pictures (its own limits), or as form fields or JSON.
  await app.register(async (uploads) => {
    await uploads.register(formbody, { bodyLimit: 64 * 1024 });
    await uploads.register(multipart, { limits: UPLOAD_LIMITS });
    await uploads.register(mastodonMediaRoutes, { config });
    await uploads.register(mastodonProfileRoutes, { config });
  });

  app.get('/api/v1/accounts/verify_credentials', { preHandler: need('profile') }, async (request) => {
    const viewer = request.viewer!;
    const row = await findUser(app.db, { id: viewer.userId }, viewer.userId);
    if (!row) throw new Refused(401, 'The access token is invalid');
    return toCredentialAccount(config.publicUrl, row);
  });
}
