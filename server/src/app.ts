import type { IncomingMessage, ServerResponse } from 'node:http';
import cookie from '@fastify/cookie';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RawServerDefault,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { type DbHandle, openDatabase } from './db/client.ts';
import { compressJson } from './lib/compression.ts';
import { ANY_ORIGIN } from './lib/cors.ts';
import type { Resolve } from './lib/safe-fetch.ts';
import { errorBodyFor, readableByAnyOrigin } from './lib/surfaces.ts';
import { accountRoutes } from './modules/account/account.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { passwordResetRoutes } from './modules/auth/password-reset.routes.ts';
import { bookmarksRoutes } from './modules/bookmarks/bookmarks.routes.ts';
import { conversationsRoutes } from './modules/conversations/conversations.routes.ts';
import { draftsRoutes } from './modules/drafts/drafts.routes.ts';
import { federationPlugin } from './modules/federation/federation.routes.ts';
import type { FederationTestSeam } from './modules/federation/federation.service.ts';
import { followsRoutes } from './modules/follows/follows.routes.ts';
import { hashtagsRoutes } from './modules/hashtags/hashtags.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { listsRoutes } from './modules/lists/lists.routes.ts';
import { mastodonPlugin } from './modules/mastodon/mastodon.plugin.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { mediaUploadRoutes } from './modules/media/media.upload.ts';
import { moderationRoutes } from './modules/moderation/moderation.routes.ts';
import { nodeInfoRoutes } from './modules/nodeinfo/nodeinfo.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { oauthConsentRoutes } from './modules/oauth/oauth.consent.routes.ts';
import { oauthRoutes } from './modules/oauth/oauth.routes.ts';
import { passkeysRoutes } from './modules/passkeys/passkeys.routes.ts';
import { pollsRoutes } from './modules/polls/polls.routes.ts';
import { postsRoutes } from './modules/posts/posts.routes.ts';
import { pushRoutes } from './modules/push/push.routes.ts';
import { safetyRoutes } from './modules/safety/safety.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { streamRoutes } from './modules/stream/stream.routes.ts';
import { timelinesRoutes } from './modules/timelines/timelines.routes.ts';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { requireCsrfToken } from './plugins/csrf.ts';
import { dbPlugin } from './plugins/db.ts';
import { errorsPlugin, frameworkErrorAnswer } from './plugins/errors.ts';
import { jsonBodyPlugin } from './plugins/json-body.ts';
import { limitWrites, rateLimitPlugin } from './plugins/rate-limit.ts';
import { redisPlugin } from './plugins/redis.ts';
import { securityHeadersFor, securityPlugin } from './plugins/security.ts';
import { servicesPlugin } from './plugins/services.ts';
import { sessionPlugin } from './plugins/session.ts';
import { sharedCachePlugin } from './plugins/shared-cache.ts';
import { shutdownPlugin } from './plugins/shutdown.ts';
import { webPlugin } from './plugins/web.ts';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface AppDeps {
  /** An open database to use instead of opening one from config (tests share one per worker). */
  db?: DbHandle;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): unknown };
  /** How link cards resolve names, instead of the system's (tests map names to chosen addresses). */
  resolve?: Resolve;
  /** Tests: what the federation uses instead of the network (modules/federation). */
  federation?: FederationTestSeam;
}

/** One line per request, when it is answered ("GET /api/x 200 3.1 ms"), instead of Fastify's two. */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const fields = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    const line = `${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;
    if (error) reply.log.error({ ...fields, err: error }, line);
    else reply.log.info(fields, line);
  }
}

/**
 * JSON lines for machines (production, tests); one readable line per event for people (development),
 * formatted in this thread: pino-pretty as a transport ran in a worker thread whose own V8 heap grew
 * by ~60 MB under a burst of requests (docs/performance.md, "Embedded database memory"). Written
 * synchronously, so nothing is lost when the process exits. pino-pretty is a dev dependency, loaded
 * only here (the compiled server leaves it external).
 */
async function loggerOptions(config: Config) {
  const base = { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]'] };
  if (config.logFormat === 'json') return base;
  const { default: pretty } = await import('pino-pretty');
  return {
    ...base,
    stream: pretty({
      sync: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss',
      // The request line already says method, url, status and time.
      ignore: 'pid,hostname,reqId,method,url,statusCode,responseTime',
    }),
  };
}

/** JSON bodies are small; routes that take images raise their own limit. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** Builds the whole app without listening: plugins in a fixed order (external → app → routes). */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const securityHeaders = securityHeadersFor(config);
  const app = Fastify({
    logger: deps.logStream ? { ...(await loggerOptions(config)), stream: deps.logStream } : await loggerOptions(config),
    logController: new OneLinePerRequest(),
    // Fastify accepts a hop count at run time; its types omit number.
    trustProxy: config.trustProxy as boolean | string,
    bodyLimit: DEFAULT_BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Draining requests get a coded 503 from plugins/shutdown.ts instead of Fastify's bare one.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    requestTimeout: 30_000,
    // A hashtag of 100 characters percent-encoded is up to 1,200 (the default is 100); ids are far shorter.
    routerOptions: { maxParamLength: 1_200 },
    // A malformed URL or an over-long path parameter is answered before routing, so no hook runs:
    // give it the security headers and the `{code, message}` shape here.
    frameworkErrors: (error, request, reply) => {
      securityHeaders(request.raw, reply.raw);
      if (readableByAnyOrigin(request.url ?? '')) reply.headers(ANY_ORIGIN);
      const { status, body } = frameworkErrorAnswer(error);
      return (reply as FastifyReply)
        .code(status)
        .type('application/json; charset=utf-8')
        .send(errorBodyFor(request.url ?? '', body));
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const handle =
    deps.db ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: config.dataDir,
      log: (message) => app.log.info(message),
    }));

  // External plugins, then the app's cross-cutting ones (order matters: session before rate limits).
  await app.register(cookie);
  await app.register(errorsPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(securityPlugin, { config });
  await app.register(shutdownPlugin);
  await app.register(dbPlugin, { handle, owned: !deps.db });
  await app.register(redisPlugin, { config });
  await app.register(servicesPlugin, { config, ...(deps.resolve ? { resolve: deps.resolve } : {}) });
  await app.register(sessionPlugin, { config });
  await app.register(rateLimitPlugin, { config });
  await app.register(sharedCachePlugin, { config });

  // Routes.
  await app.register(healthRoutes);
  // The auth protocol checks CSRF tokens in its own form bodies and has its own limits.
  await app.register(authRoutes, { config });
  // The product API: its own scope, so these rules cover exactly its routes, whatever their URLs.
  await app.register(async function productApi(api) {
    await compressJson(api);
    api.addHook('onRequest', requireCsrfToken(config));
    api.addHook('preHandler', limitWrites(api));
    await api.register(usersRoutes, { config });
    await api.register(postsRoutes);
    await api.register(pollsRoutes);
    await api.register(mediaUploadRoutes);
    await api.register(bookmarksRoutes);
    await api.register(hashtagsRoutes);
    await api.register(searchRoutes);
    await api.register(timelinesRoutes);
    await api.register(followsRoutes);
    await api.register(notificationsRoutes);
    await api.register(conversationsRoutes);
    await api.register(settingsRoutes);
    await api.register(twoFactorRoutes);
    await api.register(passkeysRoutes);
    await api.register(pushRoutes);
    await api.register(safetyRoutes);
    await api.register(listsRoutes);
    await api.register(draftsRoutes);
    await api.register(moderationRoutes);
    await api.register(oauthConsentRoutes);
    await api.register(passwordResetRoutes);
    await api.register(accountRoutes);
    await api.register(streamRoutes, { config });
  });
  // Mastodon apps: OAuth 2 and the client API (bearer tokens; no cookie, no CSRF header).
  await app.register(oauthRoutes, { config });
  await app.register(mastodonPlugin, { config });
  await app.register(mediaRoutes);
  // Discovery for other servers and apps (host-meta, NodeInfo): before the web app's fallback.
  await app.register(nodeInfoRoutes, { config });
  // ActivityPub (when on): actors, WebFinger, inboxes; a browser at an actor's URL falls through to the web app.
  await app.register(federationPlugin, { config, ...(deps.federation ? { seam: deps.federation } : {}) });
  await app.register(webPlugin, { config });

  return app;
}
