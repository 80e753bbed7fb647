import type { Endpoint } from '@pipit/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Path parameters that fail their schema name nothing that can exist: answered 404 NOT_FOUND
     * (plugins/errors.ts), not 400, on the endpoints that declare NOT_FOUND.
     */
    malformedParamsNotFound?: boolean;
  }
}

/** A request to endpoint `E`, its params, query and body as the contract's schemas parsed them. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: Parsed<E['params']>;
  Querystring: Parsed<E['query']>;
  Body: Parsed<E['body']>;
}>;

/**
 * Answers the call: the success answer (sent with the endpoint's status), or the reply when the
 * handler has sent something itself.
 */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<z.input<E['answer']> | FastifyReply>;

/**
 * Registers the route of a contract endpoint (packages/contract/src/endpoints.ts): its method, path
 * and schemas come from the table, so the server cannot drift from what the web and the tests read.
 * Only the success answer is in the response schema; errors leave through the error handler.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: Omit<RouteShorthandOptions, 'schema'>,
  handler: EndpointHandler<E>,
): void {
  app.route({
    ...options,
    config: { ...options.config, malformedParamsNotFound: endpoint.errors.includes('NOT_FOUND') },
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: { [endpoint.status]: endpoint.answer },
    },
    handler: async (request, reply) => {
      const answer = await handler(request as EndpointRequest<E>, reply);
      if (reply.sent) return reply;
      return reply.code(endpoint.status).send(answer ?? null);
    },
  });
}
