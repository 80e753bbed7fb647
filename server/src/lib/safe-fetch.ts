/**
 * Fetching a URL that someone else chose (a link in a post; later, federation) without letting them
 * reach what only this server can reach (SSRF): its own ports, the private network, the cloud's
 * metadata address. docs/security.md "Fetching other servers" has the rules and why.
 *
 * - The URL is parsed by the WHATWG parser, which turns `http://2130706433/`, `0x7f.1`, `0177.0.0.1` and
 *   `127.1` into the address they mean; the check is made on that.
 * - http and https only, no credentials in the URL; ports 80 and 443, or 1024 and above except the
 *   well-known ports of databases and admin services (DENIED_PORTS).
 * - A name is resolved once (`resolve`, every address); if ANY address is not public unicast
 *   (`addressRange`) nothing is fetched. The connection then goes to the checked address itself
 *   (a pinned `lookup` and no pooled socket): a DNS answer that changes between the check and the
 *   connection (rebinding) is never asked for.
 * - Redirects are followed by hand, at most `maxRedirects`, each hop checked the same way.
 * - One time limit for the whole fetch (every hop, resolving included), a byte limit on the body as it
 *   is read (decompressed), the content type checked before the body is read.
 */
import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';

export type SafeFetchErrorCode =
  /** Not an absolute URL, or it carries a user name or password. */
  | 'INVALID_URL'
  /** Not http or https. */
  | 'FORBIDDEN_SCHEME'
  /** A port outside 80, 443 and 1024–65535, or one of DENIED_PORTS. */
  | 'FORBIDDEN_PORT'
  /** The host is, or resolves to (any of its addresses), an address that is not public unicast. */
  | 'FORBIDDEN_ADDRESS'
  /** The name did not resolve. */
  | 'DNS_FAILED'
  | 'TOO_MANY_REDIRECTS'
  | 'TIMEOUT'
  /** The body (decompressed), or its declared length, is past the limit. */
  | 'TOO_LARGE'
  /** Not one of the content types asked for (checked before the body is read). */
  | 'UNSUPPORTED_TYPE'
  /** An answer other than 200 (or a redirect without a Location). */
  | 'HTTP_STATUS'
  /** The connection failed, or the answer was malformed. */
  | 'NETWORK';

export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
    /** The answer's status, for HTTP_STATUS. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

/** Every address of a name (dns.lookup with `all`); injected by tests to map names to chosen addresses. */
export type Resolve = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface SafeFetchOptions {
  /** The whole fetch, every redirect and name resolution included. */
  timeoutMs: number;
  /** The body is read up to this many bytes (after decompression); one more aborts the fetch. */
  maxBytes: number;
  /** Content types taken (lower case, without parameters); an entry ending in `/` takes the whole family (`image/`). */
  types: readonly string[];
  /** Redirects followed; one more is TOO_MANY_REDIRECTS. Default 3. */
  maxRedirects?: number;
  /** The Accept header. */
  accept?: string;
  /** Default: systemResolve. */
  resolve?: Resolve;
  /**
   * Tests only (config `cards.allowLoopback`, refused in production): loopback addresses (127.0.0.0/8,
   * ::1, and their mapped forms) may be fetched, on any port. Every other private address stays refused.
   */
  allowLoopback?: boolean;
  userAgent?: string;
}

export interface SafeResponse {
  /** The URL answered last (after redirects). */
  url: string;
  /** Its content type, lower case, without parameters. */
  contentType: string;
  /** The charset the Content-Type names, or null. */
  charset: string | null;
  body: Buffer;
}

export const DEFAULT_USER_AGENT = 'Pipit (link preview)';

/**
 * Well-known ports of services that live on private networks or speak another protocol (databases,
 * caches, container and cluster admin, mail): refused even on a public address.
 */
export const DENIED_PORTS: ReadonlySet<number> = new Set([
  1080, // SOCKS
  1433, // SQL Server
  1521, // Oracle
  2049, // NFS
  2375,
  2376, // Docker
  2379,
  2380, // etcd
  3306, // MySQL
  3389, // RDP
  4369, // Erlang port mapper
  5432, // PostgreSQL
  5601, // Kibana
  5672, // AMQP
  5984, // CouchDB
  6379, // Redis
  6443, // Kubernetes API
  8500, // Consul
  9042, // Cassandra
  9092, // Kafka
  9200,
  9300, // Elasticsearch
  10250,
  10255, // kubelet
  11211, // memcached
  15672, // RabbitMQ admin
  27017, // MongoDB
]);

/** Whether a port may be fetched: 80, 443, or 1024–65535 outside DENIED_PORTS. */
export function portAllowed(port: number): boolean {
  return port === 80 || port === 443 || (port >= 1024 && port <= 65535 && !DENIED_PORTS.has(port));
}

/**
 * What an address is: `unicast` for a public one, else the name of its range (loopback, private,
 * linkLocal, carrierGradeNat, uniqueLocal, multicast, unspecified, broadcast, reserved, …), `invalid`
 * for what is not an address. An IPv6 address that carries an IPv4 one (mapped `::ffff:a.b.c.d`,
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:aabb:ccdd::`, the deprecated compatible
 * `::a.b.c.d`) is what that IPv4 address is; Teredo and the local NAT64 prefix are refused as they are.
 */
export function addressRange(address: string): string {
  if (!net.isIP(address)) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  const parts = v6.parts;
  const embedded = (high: number, low: number) => addressRange(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
  const range = v6.range();
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return embedded(parts[6] as number, parts[7] as number);
    case 'rfc6052':
      // 64:ff9b::/96 (well-known NAT64) embeds it in the last 32 bits; 64:ff9b:1::/48 is for local use.
      return parts[2] === 0 ? embedded(parts[6] as number, parts[7] as number) : 'rfc6052';
    case '6to4':
      return embedded(parts[1] as number, parts[2] as number);
    case 'unicast':
      // ::/96 less :: and ::1 (IPv4-compatible, deprecated) and the rest of ::/8 (reserved by the IETF).
      if (parts[0] === 0 && parts.slice(1, 6).every((p) => p === 0)) {
        return parts[6] === 0 && parts[7] === 0 ? 'unspecified' : embedded(parts[6] as number, parts[7] as number);
      }
      if ((parts[0] as number) < 0x100) return 'reserved';
      return 'unicast';
    default:
      return range;
  }
}

/** Whether a connection to `address` is allowed (see addressRange; loopback only when allowed for tests). */
export function addressAllowed(address: string, allowLoopback = false): boolean {
  const range = addressRange(address);
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/** A URL checked to be fetched: its parsed form and the address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * Checks a URL as safeFetch does before connecting (exported for the tests and for callers that want to
 * refuse early): scheme, credentials, port, then every address of its host.
 */
export async function checkTarget(
  input: string | URL,
  options: Pick<SafeFetchOptions, 'resolve' | 'allowLoopback'> = {},
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SafeFetchError('INVALID_URL', `Not an absolute URL: ${String(input).slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('FORBIDDEN_SCHEME', `Only http and https are fetched, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new SafeFetchError('INVALID_URL', 'A URL with a user name or password is not fetched');
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const allowLoopback = options.allowLoopback === true;
  // The WHATWG parser has already turned every IPv4 spelling into dotted decimal, and IPv6 into its
  // bracketed canonical form.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: readonly { address: string; family: number }[];
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) }];
  } else if (/(^|\.)localhost\.?$/i.test(host)) {
    // This machine by definition (RFC 6761), whatever a resolver would answer.
    addresses = [{ address: '127.0.0.1', family: 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      throw new SafeFetchError('DNS_FAILED', `${host} did not resolve`);
    }
    if (addresses.length === 0) throw new SafeFetchError('DNS_FAILED', `${host} did not resolve`);
  }
  for (const { address } of addresses) {
    if (!addressAllowed(address, allowLoopback)) {
      throw new SafeFetchError(
        'FORBIDDEN_ADDRESS',
        `${host} is ${address} (${addressRange(address)}): only public addresses are fetched`,
      );
    }
  }
  const loopbackOnly = allowLoopback && addresses.every(({ address }) => addressRange(address) === 'loopback');
  if (!portAllowed(port) && !loopbackOnly) {
    throw new SafeFetchError(
      'FORBIDDEN_PORT',
      `Port ${port} is not fetched (80, 443, or 1024 and above but DENIED_PORTS)`,
    );
  }
  const first = addresses[0] as { address: string; family: number };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` that answers the checked address whatever it is asked: the connection goes where the check looked. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Content type and charset of a Content-Type header. */
function parseContentType(header: string | undefined): { type: string; charset: string | null } {
  const [type = '', ...params] = (header ?? '').split(';');
  let charset: string | null = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(param);
    if (match) charset = (match[1] as string).toLowerCase();
  }
  return { type: type.trim().toLowerCase(), charset };
}

function typeTaken(type: string, types: readonly string[]): boolean {
  return types.some((taken) => (taken.endsWith('/') ? type.startsWith(taken) : type === taken));
}

/** A request's options to the checked address: the connection pinned to it, and of its own (never a pooled socket opened to another address). */
function pinnedRequest(
  target: CheckedTarget,
  method: 'GET' | 'POST',
  signal: AbortSignal,
  headers: http.OutgoingHttpHeaders | undefined,
): http.RequestOptions {
  const { url } = target;
  return {
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method,
    family: target.family,
    lookup: pinnedLookup(target.address, target.family),
    agent: false,
    signal,
    headers,
  };
}

/** One GET to the checked address; resolves with the answer's head (the body not read yet). */
function get(target: CheckedTarget, options: SafeFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const { url } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      pinnedRequest(target, 'GET', signal, {
        'User-Agent': options.userAgent ?? DEFAULT_USER_AGENT,
        Accept: options.accept ?? '*/*',
        'Accept-Encoding': 'gzip, deflate, br',
      }),
      resolve,
    );
    request.on('error', (error) => reject(error));
    request.end();
  });
}

/** The body, decompressed, refused the moment it passes `maxBytes`. */
async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  let stream: Readable = response;
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = response.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') stream = response.pipe(zlib.createInflate());
  else if (encoding === 'br') stream = response.pipe(zlib.createBrotliDecompress());
  else if (encoding !== 'identity') {
    response.destroy();
    throw new SafeFetchError('NETWORK', `Content-Encoding ${encoding} is not read`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new SafeFetchError('TOO_LARGE', `The body is larger than ${maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
  } finally {
    // Past the limit (or on any failure) the download stops here: the socket is closed.
    if (size > maxBytes || !response.complete) response.destroy();
  }
  return Buffer.concat(chunks);
}

/**
 * GETs a URL someone else chose, with the checks above. Throws SafeFetchError (its `code` says why);
 * nothing is connected to before the target passed its checks.
 */
export async function safeFetch(input: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new SafeFetchError('TIMEOUT', `Not fetched within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
  });
  timedOut.catch(() => {}); // raced below; never left unhandled
  try {
    return await Promise.race([fetchHops(input, options, controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

async function fetchHops(input: string, options: SafeFetchOptions, signal: AbortSignal): Promise<SafeResponse> {
  const maxRedirects = options.maxRedirects ?? 3;
  let url = input;
  for (let hop = 0; ; hop++) {
    const target = await checkTarget(url, options);
    if (signal.aborted) throw new SafeFetchError('TIMEOUT', `Not fetched within ${options.timeoutMs} ms`);
    let response: IncomingMessage;
    try {
      response = await get(target, options, signal);
    } catch (error) {
      if (signal.aborted) throw new SafeFetchError('TIMEOUT', `Not fetched within ${options.timeoutMs} ms`);
      throw new SafeFetchError('NETWORK', `${target.url.host}: ${(error as Error).message}`);
    }
    const status = response.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      response.destroy();
      const location = response.headers.location;
      if (!location) throw new SafeFetchError('HTTP_STATUS', `${status} without a Location`);
      if (hop >= maxRedirects) throw new SafeFetchError('TOO_MANY_REDIRECTS', `More than ${maxRedirects} redirects`);
      try {
        url = new URL(location, target.url).href;
      } catch {
        throw new SafeFetchError('INVALID_URL', 'A redirect to something that is not a URL');
      }
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw new SafeFetchError('HTTP_STATUS', `${target.url.host} answered ${status}`, status);
    }
    const { type, charset } = parseContentType(response.headers['content-type']);
    if (!typeTaken(type, options.types)) {
      response.destroy();
      throw new SafeFetchError(
        'UNSUPPORTED_TYPE',
        `${type || 'No content type'} is not one of ${options.types.join(', ')}`,
      );
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.destroy();
      throw new SafeFetchError('TOO_LARGE', `The body is ${declared} bytes, more than ${options.maxBytes}`);
    }
    let body: Buffer;
    try {
      body = await readBody(response, options.maxBytes);
    } catch (error) {
      if (error instanceof SafeFetchError) throw error;
      if (signal.aborted) throw new SafeFetchError('TIMEOUT', `Not fetched within ${options.timeoutMs} ms`);
      throw new SafeFetchError('NETWORK', `${target.url.host}: ${(error as Error).message}`);
    }
    return { url: target.url.href, contentType: type, charset, body };
  }
}

export interface SafePostOptions {
  headers: Record<string, string | number>;
  body: Buffer | null;
  /** The whole send, resolving included. */
  timeoutMs: number;
  resolve?: Resolve;
  /** Tests only, as for safeFetch: loopback addresses may be sent to. */
  allowLoopback?: boolean;
}

/**
 * POSTs to a URL someone else chose (a Web Push endpoint) with safeFetch's checks on the target: only
 * public addresses (any address of the name), the allowed ports, the connection pinned to the checked
 * address. No redirect is followed (the answer is the status); at most 4 KiB of the answer's body is
 * kept (push services answer errors in a sentence). Throws SafeFetchError for a refused target, a
 * failed connection or the time limit.
 */
export async function safePost(input: string, options: SafePostOptions): Promise<{ status: number; body: string }> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new SafeFetchError('TIMEOUT', `Not sent within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
  });
  timedOut.catch(() => {});
  const send = async () => {
    const target = await checkTarget(input, options);
    const { url } = target;
    const client = url.protocol === 'https:' ? https : http;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = client.request(pinnedRequest(target, 'POST', controller.signal, options.headers), resolve);
      request.on('error', (error) => reject(new SafeFetchError('NETWORK', `${url.host}: ${error.message}`)));
      request.end(options.body ?? undefined);
    });
    let body = '';
    try {
      body = (await readBody(response, 4096)).toString('utf8');
    } catch {
      // The status is what counts; a long or broken error text is not read.
    }
    return { status: response.statusCode ?? 0, body };
  };
  try {
    return await Promise.race([send(), timedOut]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
