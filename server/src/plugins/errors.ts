import type { IncomingMessage } from 'node:http';
import type { ApiError } from '@pipit/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseBadInput, isDatabaseUnavailable } from '../lib/db-errors.ts';
import { AppError } from '../lib/errors.ts';

function fieldOf(path: readonly PropertyKey[] | undefined): string {
  return (path ?? []).map(String).join('.') || 'body';
}

export function toApiError(error: FastifyError | AppError | Error): { status: number; body: ApiError } {
  if (error instanceof AppError) {
    return {
      status: error.statusCode,
      body: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) },
    };
  }
  const fe = error as FastifyError & { validationContext?: string };
  if (hasZodFastifySchemaValidationErrors(fe)) {
    const issues = fe.validation.map((v) => {
      const params = v.params as { issue?: { path?: PropertyKey[]; message?: string } } | undefined;
      const field =
        fieldOf(params?.issue?.path) === 'body'
          ? v.instancePath.replace(/^\//, '').replace(/\//g, '.') || fe.validationContext || 'body'
          : fieldOf(params?.issue?.path);
      return { field, message: `${field}: ${params?.issue?.message ?? v.message ?? 'is invalid'}` };
    });
    const first = issues[0] ?? { field: 'body', message: 'Invalid input' };
    return { status: 400, body: { code: 'INVALID_INPUT', message: first.message, field: first.field, issues } };
  }
  if (fe.statusCode === 429 || (fe as { code?: string }).code === 'RATE_LIMITED') {
    return {
      status: 429,
      body: { code: 'RATE_LIMITED', message: fe.message || 'Too many requests. Try again later.' },
    };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json.' } };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { code: 'INVALID_INPUT', message: 'The JSON body is empty.', field: 'body' } };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: { code: 'INVALID_INPUT', message: 'The body is not valid JSON.', field: 'body' } };
  }
  if (fe.statusCode === 400 && (error instanceof SyntaxError || /JSON|prototype|constructor/i.test(fe.message))) {
    return { status: 400, body: { code: 'INVALID_INPUT', message: 'The body is not valid JSON.', field: 'body' } };
  }
  if (isDatabaseBadInput(error)) {
    return {
      status: 400,
      body: { code: 'INVALID_INPUT', message: 'The request contains characters that cannot be stored.' },
    };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable. Try again shortly.' },
    };
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    const status = fe.statusCode;
    const code =
      status === 404
        ? 'NOT_FOUND'
        : status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : 'INVALID_INPUT';
    return { status, body: { code, message: fe.message } };
  }
  return { status: 500, body: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' } };
}

/** Errors Fastify raises before routing (FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH, …): bad input, never internals. */
export function frameworkErrorAnswer(error: FastifyError): { status: number; body: ApiError } {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? 400 : 500;
  return status === 400
    ? { status, body: { code: 'INVALID_INPUT', message: 'The URL is malformed or too long.', field: 'url' } }
    : { status, body: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' } };
}

/**
 * A path parameter that fails its schema (`/api/posts/abc`) names nothing that can exist: where the
 * endpoint declares NOT_FOUND (lib/endpoint.ts) that is the answer, as for an id that does not exist.
 */
function malformedParams(error: unknown, request: FastifyRequest): { status: number; body: ApiError } | null {
  const fe = error as FastifyError & { validationContext?: string };
  if (!request.routeOptions.config?.malformedParamsNotFound) return null;
  if (fe.validationContext !== 'params' || !hasZodFastifySchemaValidationErrors(fe)) return null;
  return { status: 404, body: { code: 'NOT_FOUND', message: 'Nothing exists at this address.' } };
}

/** Node's `aborted` error on a request body the client stopped sending (its socket closed). */
function clientAborted(raw: IncomingMessage, error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return raw.readableAborted || (code === 'ECONNRESET' && message === 'aborted');
}

/** Every error leaves as JSON `{code, message, field?}`; a 500 says nothing internal. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error, request, reply) => {
    if (clientAborted(request.raw, error)) {
      // The client went away mid-body (a closed tab, a lost connection): nobody is there to answer
      // and nothing is wrong on our side, so one info line without a stack, not an error per abort.
      request.log.info({ method: request.method, url: request.url }, 'client aborted the request');
      return reply.code(400).send({ code: 'INVALID_INPUT', message: 'The request body was cut off.', field: 'body' });
    }
    const { status, body } = malformedParams(error, request) ?? toApiError(error as FastifyError);
    if (status >= 500) {
      request.log.error({ err: error, serialization: isResponseSerializationError(error) }, 'request failed');
    }
    if (status === 503) reply.header('Retry-After', '5');
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });
});

/**
 * An error as the APIs for bearer tokens answer it (Mastodon's client API and OAuth 2): `{error}`,
 * with Mastodon's 422 for a request it understood but refused, which also names the field in
 * Mastodon's `details` (its ValidationError: `{field: [{error, description}]}`).
 */
export function toBearerApiError(error: FastifyError | AppError | Error): {
  status: number;
  body: { error: string; details?: Record<string, { error: string; description: string }[]> };
} {
  const { status, body } = toApiError(error);
  if (status !== 400 || body.code !== 'INVALID_INPUT') return { status, body: { error: body.message } };
  const field = body.field ?? 'base';
  return {
    status: 422,
    body: { error: body.message, details: { [field]: [{ error: 'ERR_INVALID', description: body.message }] } },
  };
}
