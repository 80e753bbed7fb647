import type { FastifyInstance } from 'fastify';

/**
 * CORS for Mastodon web apps on other origins (Elk, Phanpy call the API from the browser), as
 * Mastodon answers it (config/initializers/cors.rb): any origin, no credentials — these paths take
 * bearer tokens only (plugins/session.ts never reads the cookie there), so a page on another origin
 * can do nothing a token does not allow. Only in the scopes that call it (the client API's and
 * OAuth's): the product API, the session protocol and the consent page answer no other origin.
 *
 * Written here rather than with @fastify/cors: a policy by path needs the library's delegator on a
 * root hook, run on every request of the app, and a dynamic policy adds `Vary: Origin` to every
 * answer (the visitors' shared Everyone page included); here the scopes that want it add constant
 * headers, and only their paths answer a preflight.
 */
/** What every answer readable by any origin carries (errors and 404s included: else a browser app sees a network error). */
export const ANY_ORIGIN = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Link, Retry-After' };
const PREFLIGHT = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
  'access-control-max-age': '86400',
};
/** Request headers a preflight may ask for: names, comma-separated (echoed back), else the usual two. */
const HEADER_NAMES = /^[A-Za-z0-9-]+(?:\s*,\s*[A-Za-z0-9-]+){0,30}$/;

/** Every answer of this scope may be read by any origin; `preflightPaths` answer the browser's OPTIONS. */
export function allowAnyOrigin(app: FastifyInstance, preflightPaths: string[]): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(ANY_ORIGIN);
    done();
  });
  for (const path of preflightPaths) {
    app.options(path, (request, reply) => {
      const asked = request.headers['access-control-request-headers'];
      const allowed = typeof asked === 'string' && HEADER_NAMES.test(asked) ? asked : 'Authorization, Content-Type';
      return reply.code(204).headers(PREFLIGHT).header('access-control-allow-headers', allowed).send();
    });
  }
}
