import type { FastifyError, FastifyInstance } from 'fastify';
import { toBearerApiError } from '../../plugins/errors.ts';
import { Refused } from './bearer.ts';

/**
 * An error of the OAuth 2 protocol, answered as RFC 6749 §5.2 says: `{error, error_description}`
 * with 400, or 401 for a client that failed to authenticate.
 */
export class OAuthError extends Error {
  constructor(
    readonly error:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unauthorized_client'
      | 'unsupported_grant_type'
      | 'unsupported_response_type'
      | 'invalid_scope'
      | 'access_denied',
    readonly description: string,
  ) {
    super(description);
  }

  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}

/** OAuth's endpoints answer RFC 6749's `{error, error_description}`, a refused bearer token RFC 6750's challenge, anything else `{error}`. */
export function oauthErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof OAuthError) {
      if (error.status === 401) reply.header('WWW-Authenticate', 'Basic realm="Pipit"');
      return reply.code(error.status).send({ error: error.error, error_description: error.description });
    }
    if (error instanceof Refused) {
      if (error.challenge) reply.header('WWW-Authenticate', error.challenge);
      return reply.code(error.status).send({ error: error.message });
    }
    const { status, body } = toBearerApiError(error);
    if (status >= 500) request.log.error({ err: error }, 'oauth error');
    return reply.code(status).send(body);
  });
}
