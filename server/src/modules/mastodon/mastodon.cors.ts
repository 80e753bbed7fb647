import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * What a Mastodon web app on another origin (Elk, Phanpy) calls from the browser: the client API,
 * OAuth's token and revoke endpoints, and its metadata. Not /oauth/authorize (the consent page is
 * opened, not fetched) and nothing of the product API, whose cookie must never travel cross-origin.
 */
const CORS_PATHS = ['/api/v1/', '/api/v2/', '/oauth/token', '/oauth/revoke', '/.well-known/oauth-authorization-server'];

export const isMastodonCorsPath = (url: string) => CORS_PATHS.some((prefix) => url.startsWith(prefix));

/** Headers an app reads from answers: the pages (Link) and when to try again (Retry-After, with a 429). */
const EXPOSED = ['Link', 'Retry-After'];

/**
 * CORS as Mastodon answers it (config/initializers/cors.rb): any origin, no credentials — these
 * paths take bearer tokens only (plugins/session.ts never reads the cookie there), so a page on
 * another origin can do nothing a token does not allow. Registered once at the root (its OPTIONS
 * route answers every path); every other path gets no CORS headers and a preflight there is a 404.
 */
export const mastodonCors = fp(async (app: FastifyInstance) => {
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback) => {
      if (!isMastodonCorsPath(request.url)) return callback(null, { origin: false });
      callback(null, {
        origin: '*',
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        exposedHeaders: EXPOSED,
        credentials: false,
        maxAge: 86_400,
      });
    },
  });
});
