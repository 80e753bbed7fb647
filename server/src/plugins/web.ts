import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { ANY_ORIGIN } from '../lib/cors.ts';
import { errorBodyFor, readableByAnyOrigin } from '../lib/surfaces.ts';

const API_PREFIXES = ['/api/', '/media/', '/healthz'];

/**
 * A Mastodon app's consent page (web/src/lib/paths.ts `oauthAuthorize`). Web apps on other origins
 * (Phanpy, Elk) open it in a popup and watch that popup: `Cross-Origin-Opener-Policy: same-origin`
 * would put it in a browsing context group of its own, so the app would see it closed at once and
 * report a failed sign-in. It keeps every other header (no framing, CSP) and is never cached.
 */
export const CONSENT_PAGE = '/oauth/authorize';

/**
 * Serves the built web app from one origin with the API. Hashed assets are immutable; index.html
 * is revalidated. Unknown non-API GETs fall back to index.html so deep links load; unknown API
 * paths get a JSON 404.
 */
export const webPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  const dist = config.webDist;
  const hasWeb = dist !== null && existsSync(path.join(dist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz beside each text file; they go out as they are.
      preCompressed: true,
      setHeaders(reply, filePath) {
        // The placeholder picture is every account's avatar for Mastodon apps, web ones on other origins
        // too, which load pictures in CORS mode (`crossorigin`): public, no credentials.
        if (filePath.includes(`${path.sep}images${path.sep}`))
          reply.header('Cross-Origin-Resource-Policy', 'cross-origin').header('Access-Control-Allow-Origin', '*');
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        } else if (reply.request.url.split('?')[0] === CONSENT_PAGE) {
          // helmet wrote same-origin on the raw response: removed there, and answered over it here.
          reply.raw.removeHeader('Cross-Origin-Opener-Policy');
          reply.header('Cross-Origin-Opener-Policy', 'unsafe-none').header('Cache-Control', 'no-store');
        } else {
          reply.header('Cache-Control', 'no-cache');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const isApi = API_PREFIXES.some((p) => url.startsWith(p)) || url === '/api';
    // A missing file (an old hashed chunk after a deploy) is a 404, not the app: a module script
    // answered with HTML fails obscurely. App routes never have a dot in their last segment.
    const path = url.split('?')[0] ?? '';
    const isFile = path.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf('/')));
    if (hasWeb && !isApi && !isFile && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
    }
    // A Mastodon web app on another origin must see the 404 (without CORS headers it sees a network error).
    if (readableByAnyOrigin(url)) reply.headers(ANY_ORIGIN);
    return reply
      .code(404)
      .send(errorBodyFor(url, { code: 'NOT_FOUND', message: `No route for ${request.method} ${url.split('?')[0]}` }));
  });
});
