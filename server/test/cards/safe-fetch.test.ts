/**
 * lib/safe-fetch.ts: the address classifier, and the fetcher against a local server that counts its
 * connections — a refused target must reach nothing.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addressAllowed,
  addressRange,
  portAllowed,
  type Resolve,
  SafeFetchError,
  type SafeFetchOptions,
  safeFetch,
} from '../../src/lib/safe-fetch.ts';
import { html, type PageServer, redirect, startPageServer } from './page-server.ts';

describe('the address classifier', () => {
  it.each([
    // IPv4
    ['8.8.8.8', 'unicast'],
    ['93.184.216.34', 'unicast'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    // IPv6
    ['2606:4700:4700::1111', 'unicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'discard'],
    // IPv6 carrying IPv4: what the IPv4 address is
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:8.8.8.8', 'unicast'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:5', 'private'],
    ['64:ff9b::808:808', 'unicast'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:808:808::1', 'unicast'],
    ['::7f00:1', 'loopback'],
    ['::a00:1', 'private'],
    ['2001::1', 'teredo'],
    // not an address
    ['example.com', 'invalid'],
    ['127.1', 'invalid'],
    ['', 'invalid'],
  ])('%s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(addressAllowed(address)).toBe(range === 'unicast');
  });

  it('allows loopback only when asked (tests), and nothing else private with it', () => {
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('::1', true)).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', true)).toBe(true);
    for (const address of ['10.0.0.1', '169.254.169.254', '0.0.0.0', '::', 'fc00::1', '100.64.0.1']) {
      expect(addressAllowed(address, true)).toBe(false);
    }
  });

  it('takes ports 80, 443 and 1024 and above, less the denied ones', () => {
    expect([80, 443, 1024, 8080, 8443, 40000, 65535].every(portAllowed)).toBe(true);
    expect([0, 22, 25, 81, 1023, 3306, 5432, 6379, 9200, 11211, 27017, 65536].some(portAllowed)).toBe(false);
  });
});

describe('safeFetch', () => {
  let server: PageServer;
  beforeAll(async () => {
    server = await startPageServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const PAGE = html('<title>Fine</title>');
  /** Names the tests resolve: evil.test to this machine, mixed.test to a public and a private address. */
  const names: Record<string, string[]> = {
    'evil.test': ['127.0.0.1'],
    'evil6.test': ['::1'],
    'mixed.test': ['93.184.216.34', '10.0.0.5'],
    'metadata.test': ['169.254.169.254'],
    'public.test': ['93.184.216.34'],
  };
  const resolve: Resolve = async (host) => {
    const addresses = names[host];
    if (!addresses) throw new Error(`ENOTFOUND ${host}`);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const options = (over: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
    timeoutMs: 5_000,
    maxBytes: 1024 * 1024,
    types: ['text/html'],
    resolve,
    ...over,
  });
  async function refusal(url: string, over: Partial<SafeFetchOptions> = {}): Promise<string> {
    try {
      await safeFetch(url, options(over));
    } catch (error) {
      expect(error).toBeInstanceOf(SafeFetchError);
      return (error as SafeFetchError).code;
    }
    throw new Error(`${url} was fetched`);
  }

  it('refuses every spelling of this machine and of private networks, and connects to nothing', async () => {
    server.route('/', PAGE);
    const port = server.port;
    const hostile = [
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      `http://[64:ff9b::7f00:1]:${port}/`,
      `http://[2002:7f00:1::]:${port}/`,
      `http://[::7f00:1]:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://0:${port}/`,
      `http://[::]:${port}/`,
      `http://evil.test:${port}/`,
      `http://evil6.test:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://metadata.test/latest/meta-data/',
      'http://10.0.0.1/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://255.255.255.255/',
      'http://224.0.0.1/',
      // Any private address among a name's answers refuses it, whichever would be connected to.
      'http://mixed.test/',
    ];
    for (const url of hostile) expect([url, await refusal(url)]).toEqual([url, 'FORBIDDEN_ADDRESS']);
    // And through the system's resolver (localhost, and names under it, are this machine whatever it answers).
    for (const url of [`http://localhost:${port}/`, `http://LOCALHOST.:${port}/`, `http://a.b.localhost:${port}/`]) {
      expect([url, await refusal(url, { resolve: undefined })]).toEqual([url, 'FORBIDDEN_ADDRESS']);
    }
    expect(server.connections).toBe(0);
  });

  it('refuses other schemes, credentials and ports before connecting', async () => {
    expect(await refusal('ftp://public.test/')).toBe('FORBIDDEN_SCHEME');
    expect(await refusal('file:///etc/passwd')).toBe('FORBIDDEN_SCHEME');
    expect(await refusal('gopher://public.test/')).toBe('FORBIDDEN_SCHEME');
    expect(await refusal('http://user:secret@public.test/')).toBe('INVALID_URL');
    expect(await refusal('not a url')).toBe('INVALID_URL');
    expect(await refusal('http://public.test:22/')).toBe('FORBIDDEN_PORT');
    expect(await refusal('http://public.test:6379/')).toBe('FORBIDDEN_PORT');
    expect(await refusal('https://public.test:5432/')).toBe('FORBIDDEN_PORT');
    expect(await refusal('http://nowhere.test/')).toBe('DNS_FAILED');
    expect(server.connections).toBe(0);
  });

  describe('with loopback allowed (the test setting)', () => {
    const loopback = { allowLoopback: true };

    it('fetches a page, and connects to the address it checked (a name resolved once: no rebinding)', async () => {
      server.route('/page', PAGE);
      const page = await safeFetch(`${server.origin}/page`, options(loopback));
      expect(page).toMatchObject({ url: `${server.origin}/page`, contentType: 'text/html', charset: 'utf-8' });
      expect(page.body.toString()).toContain('<title>Fine</title>');

      // The first answer is checked and connected to; a later answer (rebinding to 10.0.0.5) is never asked.
      let lookups = 0;
      const rebinding: Resolve = async () => {
        lookups++;
        return [{ address: lookups === 1 ? '127.0.0.1' : '10.0.0.5', family: 4 }];
      };
      await safeFetch(`http://rebind.test:${server.port}/page`, options({ ...loopback, resolve: rebinding }));
      expect(lookups).toBe(1);
      expect(server.hits('/page')).toBe(2);
    });

    it('checks every redirect like the first URL: to a private address or the metadata address it stops', async () => {
      server.route('/to-private', redirect('http://10.0.0.1/admin'));
      server.route('/to-metadata', redirect('http://169.254.169.254/latest/meta-data/'));
      server.route('/to-evil', redirect(`http://metadata.test/`));
      server.route('/to-file', redirect('file:///etc/passwd'));
      expect(await refusal(`${server.origin}/to-private`, loopback)).toBe('FORBIDDEN_ADDRESS');
      expect(await refusal(`${server.origin}/to-metadata`, loopback)).toBe('FORBIDDEN_ADDRESS');
      expect(await refusal(`${server.origin}/to-evil`, loopback)).toBe('FORBIDDEN_ADDRESS');
      expect(await refusal(`${server.origin}/to-file`, loopback)).toBe('FORBIDDEN_SCHEME');
      expect(server.hits('/to-private')).toBe(1);
    });

    it('follows at most three redirects', async () => {
      for (const n of [0, 1, 2, 3]) server.route(`/r${n}`, redirect(`/r${n + 1}`, 301));
      server.route('/r4', PAGE);
      expect(await refusal(`${server.origin}/r0`, loopback)).toBe('TOO_MANY_REDIRECTS');
      expect(server.hits('/r4')).toBe(0);
      expect((await safeFetch(`${server.origin}/r1`, options(loopback))).url).toBe(`${server.origin}/r4`);
    });

    it('stops reading past the size limit, declared or not, and counts what a compressed body becomes', async () => {
      const big = Buffer.alloc(64 * 1024, 'a');
      server.route('/declared', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(big.length) }).end(big);
      });
      let written = 0;
      server.route('/endless', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const more = () => {
          // Chunked, no length: written until the reader goes away (at most 4 MB).
          while (written < 4 * 1024 * 1024 && res.write(big)) written += big.length;
          if (written < 4 * 1024 * 1024 && !res.destroyed) res.once('drain', more);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        more();
      });
      server.route('/bomb', (_req, res) => {
        res
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
          .end(gzipSync(Buffer.alloc(2 * 1024 * 1024, 'a')));
      });
      const small = { ...loopback, maxBytes: 32 * 1024 };
      expect(await refusal(`${server.origin}/declared`, small)).toBe('TOO_LARGE');
      expect(await refusal(`${server.origin}/endless`, small)).toBe('TOO_LARGE');
      expect(written).toBeLessThan(4 * 1024 * 1024);
      expect(await refusal(`${server.origin}/bomb`, { ...loopback, maxBytes: 1024 * 1024 })).toBe('TOO_LARGE');
    });

    it('refuses a type it was not asked for, and an answer other than 200', async () => {
      server.route('/json', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
      server.route('/none', (_req, res) => {
        res.writeHead(200).end('<html></html>');
      });
      server.route('/gone', html('<title>Gone</title>', 410));
      expect(await refusal(`${server.origin}/json`, loopback)).toBe('UNSUPPORTED_TYPE');
      expect(await refusal(`${server.origin}/none`, loopback)).toBe('UNSUPPORTED_TYPE');
      expect(await refusal(`${server.origin}/gone`, loopback)).toBe('HTTP_STATUS');
      expect(await refusal(`${server.origin}/missing`, loopback)).toBe('HTTP_STATUS');
    });

    it('gives up on a server that does not answer within the time limit', async () => {
      server.route('/slow', (_req, res) => {
        // Headers, then nothing: only the time limit ends it.
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html>');
      });
      server.route('/silent', () => {});
      expect(await refusal(`${server.origin}/slow`, { ...loopback, timeoutMs: 300 })).toBe('TIMEOUT');
      expect(await refusal(`${server.origin}/silent`, { ...loopback, timeoutMs: 300 })).toBe('TIMEOUT');
    });
  });
});
