import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';

function helmetOptions(config: Config): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.secureCookies ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: config.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  };
}

/**
 * The same headers for answers Fastify gives before routing (a malformed URL, an over-long path
 * parameter), where no hook runs: see `frameworkErrors` in app.ts.
 */
export function securityHeadersFor(config: Config): (req: IncomingMessage, res: ServerResponse) => void {
  const middleware = helmet(helmetOptions(config));
  return (req, res) =>
    middleware(req, res, (error?: unknown) => {
      if (error) throw error;
    });
}

/** Security headers on every response, errors and 404s included. */
export const securityPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  // @fastify/helmet types its options from helmet's CommonJS typings; the values are the same.
  await app.register(fastifyHelmet, { global: true, ...(helmetOptions(config) as FastifyHelmetOptions) });
});
