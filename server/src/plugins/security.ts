import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';

/**
 * The hash sources of the web build's inline scripts: index.html carries one (web/src/boot.ts: the theme
 * before the first paint, Home's first requests started early), allowed by its sha256 so the policy needs
 * no 'unsafe-inline'. Read once at start, as the build's files are (a new build needs a restart anyway).
 */
export function inlineScriptHashes(webDist: string | null): string[] {
  const index = webDist === null ? null : path.join(webDist, 'index.html');
  if (index === null || !existsSync(index)) return [];
  const html = readFileSync(index, 'utf8');
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)]
    .map((match) => match[1] ?? '')
    .filter((code) => code.trim() !== '')
    .map((code) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
}

function helmetOptions(config: Config): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(config.webDist)],
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

/**
 * Security headers on every response, errors and 404s included. One helmet middleware, built once:
 * @fastify/helmet builds a new one for every request (re-parsing the CSP each time), which was the
 * largest cost of serving a cached page (bench/README.md).
 */
export const securityPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  const apply = securityHeadersFor(config);
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw);
    // API answers are personal unless a route says otherwise (likedByMe, isFollowing, the current
    // user, notifications): no shared cache in front may keep one person's answer for another.
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', CACHE_PRIVATE);
    done();
  });
});

/** The default of every /api answer. */
export const CACHE_PRIVATE = 'private, no-store';
/**
 * For an answer that is the same for everyone who sends no cookie (a visitor's page). `Vary: Cookie`
 * keeps a shared cache from serving it to someone signed in, whose answer stays private.
 */
export const CACHE_PUBLIC_FOR_VISITORS = { 'cache-control': 'public, max-age=1', vary: 'Cookie' } as const;
