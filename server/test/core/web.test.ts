import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';

const dist = mkdtempSync(path.join(tmpdir(), 'pipit-web-'));
mkdirSync(path.join(dist, 'assets'));
mkdirSync(path.join(dist, 'images'));
writeFileSync(path.join(dist, 'images', 'placeholder.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Pipit</title><div id="root"></div>');
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
// What the web build's precompress step writes beside each text file.
writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log("app")'));
writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), gzipSync('console.log("app")'));
writeFileSync(path.join(dist, 'index.html.gz'), gzipSync(readFileSync(path.join(dist, 'index.html'))));

describe('the web app on the API origin', () => {
  const ctx = useTestApp({ webDist: dist });

  it.each(['/', '/notifications', '/users/42', '/posts/7', '/users/@alice', '/no/such/page'])(
    'deep link %s loads the app',
    async (url) => {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    },
  );

  it('serves hashed assets as immutable', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('lets other origins show the pictures in images/ (Mastodon web apps), in CORS mode too, and only those', async () => {
    const picture = await ctx.app.inject({
      method: 'GET',
      url: '/images/placeholder.png',
      headers: { origin: 'https://elk.zone' },
    });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(picture.headers['access-control-allow-origin']).toBe('*');
    expect(picture.headers['access-control-allow-credentials']).toBeUndefined();
    const script = await ctx.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { origin: 'https://elk.zone' },
    });
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(script.headers['access-control-allow-origin']).toBeUndefined();
    const page = await ctx.app.inject({ method: 'GET', url: '/', headers: { origin: 'https://elk.zone' } });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  describe('the consent page of Mastodon apps, opened in a popup by web apps on other origins', () => {
    const consent = '/oauth/authorize?client_id=abc&redirect_uri=https%3A%2F%2Fphanpy.social%2F&response_type=code';

    it.each([
      ['GET', false],
      ['GET', true],
      ['HEAD', false],
    ] as const)('%s (compressed: %s) keeps its opener: no same-origin COOP', async (method, compressed) => {
      const res = await ctx.app.inject({
        method,
        url: consent,
        headers: compressed ? { 'accept-encoding': 'gzip' } : {},
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    });

    it('keeps its other protections: no framing, the CSP, never cached', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: consent });
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it.each(['/', '/notifications', '/posts/7', '/oauth/authorize/x', '/oauth', '/settings'])(
      'every other page keeps same-origin COOP: %s',
      async (url) => {
        const res = await ctx.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      },
    );

    it("the API keeps same-origin COOP, the consent page's own calls included", async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/oauth/authorization?client_id=abc' });
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    });
  });

  it('sends the pre-compressed file the browser accepts, with the same caching', async () => {
    const br = await ctx.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("app")');

    const gz = await ctx.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');

    const plain = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("app")');
  });

  it('sends the app for a deep link compressed too', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/posts/7', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(res.rawPayload).toString()).toContain('<div id="root">');
  });

  it.each(['/assets/index-gone.js', '/favicon.ico', '/users/1/avatar.png'])(
    'answers a missing file %s with a 404, not the app',
    async (url) => {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    },
  );

  it('keeps unknown API paths a JSON 404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('does not answer other methods with the app', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/users/42' });
    expect(res.statusCode).toBe(404);
  });
});
