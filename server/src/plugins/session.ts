import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { baseCookieOptions, cookieNames } from '../lib/auth-cookies.ts';
import { unauthenticated } from '../lib/errors.ts';
import { isMastodonApi } from '../lib/surfaces.ts';
import type { SessionUser, Viewer } from '../modules/sessions/sessions.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, or null for a visitor. Resolved once per /api request. */
    viewer: Viewer;
    /** The raw session cookie token, when one was sent. */
    sessionToken: string | undefined;
  }
}

/** The signed-in person or a 401 UNAUTHENTICATED. */
export function requireViewer(request: FastifyRequest): SessionUser {
  if (!request.viewer) throw unauthenticated();
  return request.viewer;
}

/** Reads the session cookie and resolves it against the sessions table (one indexed query). */
export const sessionPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  const names = cookieNames(config);
  app.decorateRequest('viewer', null);
  app.decorateRequest('sessionToken', undefined);
  const cookieOptions = { ...baseCookieOptions(config), encode: encodeURIComponent };
  app.addHook('preHandler', async (request, reply) => {
    // The Mastodon API (/api/v1, /api/v2) takes bearer tokens only: a cookie never authorizes it.
    if (!request.url.startsWith('/api/') || isMastodonApi(request.url)) return;
    const token = request.cookies[names.session];
    request.sessionToken = token;
    if (!token) return;
    request.viewer = await app.services.sessions.resolve(token);
    // Renewed on use, whatever the call (at most one UPDATE a day). /api/auth renews and re-sets
    // the cookie in its own answers.
    if (request.viewer && !request.url.startsWith('/api/auth/')) {
      const before = request.viewer.expiresAt.getTime();
      const expires = await app.services.sessions.touch(request.viewer);
      if (expires.getTime() !== before) reply.setCookie(names.session, token, { ...cookieOptions, expires });
    }
  });
});
