import type { FastifyError, FastifyInstance } from 'fastify';
import { toApiError } from '../../plugins/errors.ts';
import { OAuthError } from './oauth.service.ts';

/** A token missing (401) or without the scope an endpoint needs (403). */
export class Refused extends Error {
  constructor(
    readonly status: 401 | 403,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Errors as Mastodon apps read them: `{error}` (and for OAuth, RFC 6749's `{error,
 * error_description}`), with Mastodon's 422 for a request it understood but refused.
 */
export function mastodonErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof Refused) return reply.code(error.status).send({ error: error.message });
    if (error instanceof OAuthError) {
      if (error.status === 401) reply.header('WWW-Authenticate', 'Basic realm="Pipit"');
      return reply.code(error.status).send({ error: error.error, error_description: error.description });
    }
    const { status, body } = toApiError(error);
    if (status >= 500) request.log.error({ err: error }, 'mastodon api error');
    return reply.code(status === 400 && body.code === 'INVALID_INPUT' ? 422 : status).send({ error: body.message });
  });
}
