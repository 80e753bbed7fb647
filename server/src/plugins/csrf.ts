import { CSRF_HEADER } from '@pipit/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { cookieNames, safeEqual, verifyCsrfCookie } from '../lib/auth-cookies.ts';
import { AppError } from '../lib/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every state-changing call under /api (outside /api/auth, which checks the token in its own
 * form bodies) must carry the token of GET /api/auth/csrf in X-CSRF-Token, matching its cookie.
 */
export const csrfPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  const names = cookieNames(config);
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/auth/')) return;
    const header = request.headers[CSRF_HEADER];
    const expected = verifyCsrfCookie(request.cookies[names.csrf], config.authSecret);
    if (typeof header !== 'string' || !expected || !safeEqual(header, expected)) {
      throw new AppError(
        'CSRF_FAILED',
        'Missing or invalid CSRF token. Fetch one from /api/auth/csrf and send it in X-CSRF-Token.',
      );
    }
  });
});
