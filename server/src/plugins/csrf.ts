import { CSRF_HEADER } from '@pipit/contract';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Config } from '../config.ts';
import { cookieNames, safeEqual, verifyCsrfCookie } from '../lib/auth-cookies.ts';
import { AppError } from '../lib/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * An onRequest hook for the product API's scope (app.ts): every state-changing call must carry the
 * token of GET /api/auth/csrf in X-CSRF-Token, matching its cookie. /api/auth is outside that scope:
 * the auth protocol checks the token in its own form bodies.
 */
export function requireCsrfToken(config: Config): onRequestAsyncHookHandler {
  const names = cookieNames(config);
  return async function csrfCheck(request) {
    if (SAFE_METHODS.has(request.method)) return;
    const header = request.headers[CSRF_HEADER];
    const expected = verifyCsrfCookie(request.cookies[names.csrf], config.authSecret);
    if (typeof header !== 'string' || !expected || !safeEqual(header, expected)) {
      throw new AppError(
        'CSRF_FAILED',
        'Missing or invalid CSRF token. Fetch one from /api/auth/csrf and send it in X-CSRF-Token.',
      );
    }
  };
}
