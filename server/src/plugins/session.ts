import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { cookieNames } from '../lib/auth-cookies.ts';
import { unauthenticated } from '../lib/errors.ts';
import { SessionsService, type SessionUser } from '../modules/sessions/sessions.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionsService;
  }
  interface FastifyRequest {
    /** The signed-in person, or null for a visitor. Resolved once per /api request. */
    viewer: SessionUser | null;
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
  app.decorate('sessions', new SessionsService(app.db, config.sessionMaxAgeMs));
  app.decorateRequest('viewer', null);
  app.decorateRequest('sessionToken', undefined);
  app.addHook('preHandler', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[names.session];
    request.sessionToken = token;
    if (token) request.viewer = await app.sessions.resolve(token);
  });
});
