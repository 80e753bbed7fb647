import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, invalid } from '../lib/errors.ts';

/** A UTF-16 surrogate without its pair: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (value === null || typeof value !== 'object') return false;
  for (const [key, item] of Object.entries(value)) {
    if (LONE_SURROGATE.test(key) || hasLoneSurrogate(item)) return true;
  }
  return false;
}

/**
 * The JSON body parser every route uses. Fastify's own decodes bytes leniently, so invalid UTF-8
 * became U+FFFD and was stored as if the person had typed it, and an escaped lone surrogate
 * ("\ud800") was stored mangled too; both are now 400 INVALID_INPUT (RFC 8259 §8.1). Parsing is
 * still Fastify's (secure-json-parse, prototype and constructor poisoning refused).
 * A plugin that replaces its content-type parsers should add this one back for application/json.
 */
export function strictJsonParser(app: FastifyInstance): ContentTypeParserFn {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body as Buffer);
    } catch {
      done(invalid('body', 'The body is not valid UTF-8.'), undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      if (hasLoneSurrogate(value)) return done(invalid('body', 'The body contains invalid Unicode.'), undefined);
      done(null, value);
    });
  };
}

type ContentTypeParserFn = (
  request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, body?: unknown) => void,
) => void;

/**
 * Bodies are JSON only: Fastify's built-in parsers (its lenient JSON and text/plain) go, so any other
 * type is a 415 everywhere. /api/auth registers its form parser in its own scope.
 * Bodies are read as sent: a compressed one (Content-Encoding other than identity) is a 415 saying so
 * — it is not inflated, since a few kilobytes of gzip can be gigabytes of body.
 */
export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, strictJsonParser(app));
  app.addHook('preParsing', async (request) => {
    const encoding = request.headers['content-encoding'];
    if (encoding === undefined || encoding.trim().toLowerCase() === 'identity') return;
    const hasBody =
      request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return;
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the body uncompressed: Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not accepted.`,
    );
  });
});
