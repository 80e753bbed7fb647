import type { FastifyError, FastifyInstance } from 'fastify';
import { toBearerApiError } from '../../plugins/errors.ts';
import { Refused } from '../oauth/bearer.ts';

/** Errors as Mastodon apps read them: `{error}`, with Mastodon's statuses and RFC 6750's challenge on 401 and 403. */
export function mastodonErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof Refused) {
      if (error.challenge) reply.header('WWW-Authenticate', error.challenge);
      // Mastodon's 422 is its ValidationError: `details` by field (none here: the request as a whole).
      return reply.code(error.status).send({ error: error.message, ...(error.status === 422 ? { details: {} } : {}) });
    }
    const { status, body } = toBearerApiError(error);
    if (status >= 500) request.log.error({ err: error }, 'mastodon api error');
    if (status === 503) reply.header('Retry-After', '5');
    return reply.code(status).send(body);
  });
}
