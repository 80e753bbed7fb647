/**
 * A push service on 127.0.0.1 (the outside world, so a stand-in: RFC 8030's side that receives what
 * the server pushes), and a browser's side of a subscription: its P-256 key pair and auth secret, which
 * decrypt what was pushed (RFC 8291, written here from the RFC, not with the library that encrypts).
 */
import { createDecipheriv, createECDH, createHmac, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PushedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** When it arrived (performance.now()). */
  at: number;
}

export class MockPushService {
  readonly received: PushedRequest[] = [];
  /** The status answered per path (default 201). */
  readonly answers = new Map<string, number>();
  private waiters: { count: number; resolve: () => void }[] = [];
  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<MockPushService> {
    let service: MockPushService | null = null;
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const self = service as MockPushService;
        const path = request.url ?? '/';
        self.received.push({ path, headers: request.headers, body: Buffer.concat(chunks), at: performance.now() });
        response.statusCode = self.answers.get(path) ?? 201;
        response.end();
        self.waiters = self.waiters.filter((w) => {
          if (self.received.length < w.count) return true;
          w.resolve();
          return false;
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    service = new MockPushService(server, `http://127.0.0.1:${port}`);
    return service;
  }

  /** Resolves once `count` requests have arrived in all (a signal, not a sleep). */
  waitFor(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  reset(): void {
    this.received.length = 0;
    this.answers.clear();
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A browser's subscription keys, and the decryption of what is pushed to it. */
export class BrowserKeys {
  readonly ecdh: ECDH = createECDH('prime256v1');
  readonly auth = randomBytes(16);
  constructor() {
    this.ecdh.generateKeys();
  }

  get keys() {
    return { p256dh: this.ecdh.getPublicKey().toString('base64url'), auth: this.auth.toString('base64url') };
  }

  /** RFC 8291 §3.4 and RFC 8188: one aes128gcm record, its header carrying the server's public key. */
  decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const idLength = body[20] as number;
    const serverPublic = body.subarray(21, 21 + idLength);
    const ciphertext = body.subarray(21 + idLength);
    const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
    const secret = this.ecdh.computeSecret(serverPublic);
    const prkKey = hmac(this.auth, secret);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), this.ecdh.getPublicKey(), serverPublic]);
    const ikm = hmac(prkKey, Buffer.concat([keyInfo, Buffer.from([1])]));
    const prk = hmac(salt, ikm);
    const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
    const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
    const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
    // The last record ends with the delimiter 2, then zero padding.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (padded[end] !== 2) throw new Error('not the last record of an aes128gcm body');
    return padded.subarray(0, end).toString('utf8');
  }
}

/**
 * Checks a VAPID `Authorization: vapid t=<JWT>, k=<key>` header (RFC 8292): the key is `publicKey`, the
 * JWT is ES256-signed by it, for the push service's origin, not expired. Answers the JWT's claims.
 */
export function verifyVapid(header: string | undefined, publicKey: string): { aud: string; exp: number; sub: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([^,\s]+)$/.exec(header ?? '');
  if (!match) throw new Error(`not a VAPID header: ${header}`);
  const [, jwt, key] = match as unknown as [string, string, string];
  if (key !== publicKey) throw new Error('signed with another key');
  const [head, claims, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(publicKey, 'base64url');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
  };
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('the JWT does not verify');
  return JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
}
