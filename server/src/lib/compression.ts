import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * JSON answers go out compressed when the client asks (browsers and Mastodon apps all do): a home
 * page of 20 statuses is 28 kB as it is and 3.4 kB gzipped. Two ways, one set of settings:
 * - `compressJson` (@fastify/compress) compresses the answers of the routes of a scope as they are sent;
 * - `KeptBody` holds an answer that is sent many times (a member's first home page, the visitors'
 *   Everyone page) with its compressed forms, each made once, when first asked for.
 */

/** What is offered, preferred first (zstd: node:zlib has it from Node 22.15 and 24, not in every 22 that `engines` allows). */
const ENCODINGS: Encoding[] = ['br', 'gzip'];
type Encoding = 'br' | 'gzip';
/** Smaller answers gain too little to be worth it (@fastify/compress's default). */
const THRESHOLD_BYTES = 1024;
/** Brotli's quality 4 (11, zlib's default, takes ~20 ms for 28 kB; 4 takes 0.15 ms, as gzip's 6). */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * Compression for the routes registered after it in this scope (the product API, the Mastodon API).
 * Not for /api/auth or /oauth, whose answers carry secrets (BREACH), nor the event stream
 * (text/event-stream is not compressed: its events must go out as they happen). Request bodies are
 * read as sent (no inflating of a Content-Encoding: a small gzip can be a large body).
 */
export async function compressJson(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ENCODINGS,
    threshold: THRESHOLD_BYTES,
    brotliOptions: BROTLI,
    globalDecompression: false,
  });
}

/** The encoding to send to a request (its Accept-Encoding, as @fastify/compress reads it), or null. */
export function acceptedEncoding(request: FastifyRequest): Encoding | null {
  const header = request.headers['accept-encoding'];
  if (!header) return null;
  // As @fastify/compress: `*` and `x-gzip` are gzip.
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ENCODINGS);
}

/** A serialized JSON answer sent many times, with its compressed forms made once each, when first needed. */
export class KeptBody {
  private br: Buffer | null = null;
  private gzip: Buffer | null = null;
  private readonly small: boolean;

  constructor(readonly text: string) {
    this.small = text.length < THRESHOLD_BYTES;
  }

  /** The bytes in `encoding` (null: too small to compress, sent as it is). */
  encoded(encoding: Encoding): Buffer | null {
    if (this.small) return null;
    if (encoding === 'br') {
      this.br ??= brotliCompressSync(this.text, BROTLI);
      return this.br;
    }
    this.gzip ??= gzipSync(this.text);
    return this.gzip;
  }
}

/** Sends a kept JSON answer in the encoding the request accepts (the compress hook leaves it as it is). */
export function sendKept(request: FastifyRequest, reply: FastifyReply, body: KeptBody): FastifyReply {
  reply.type('application/json; charset=utf-8');
  varyOnEncoding(reply);
  const encoding = acceptedEncoding(request);
  const bytes = encoding ? body.encoded(encoding) : null;
  if (!encoding || !bytes) return reply.send(body.text);
  return reply.header('content-encoding', encoding).send(bytes);
}

/** Adds Accept-Encoding to the answer's Vary, keeping what is there (the visitors' page varies by Cookie too). */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const names = (Array.isArray(vary) ? vary.join(',') : String(vary ?? '')).split(',').map((v) => v.trim());
  if (names.some((name) => name.toLowerCase() === 'accept-encoding' || name === '*')) return;
  reply.header('vary', [...names.filter(Boolean), 'accept-encoding'].join(', '));
}
