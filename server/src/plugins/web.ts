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
        // The placeholder picture is every account's avatar for Mastodon apps, web ones on other origins too.
        if (filePath.includes(`${path.sep}images${path.sep}`))
          reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
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
