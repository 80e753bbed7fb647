/**
 * Item 7: every answer — successes, errors, 404s, answers Fastify gives before routing — carries a
 * Content-Security-Policy without inline or eval script (the web build's one inline script is allowed by its
 * hash, never by 'unsafe-inline') and with frame-ancestors 'none', X-Content-Type-Options: nosniff and a
 * Referrer-Policy; HSTS only when the public URL is https.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { inlineScriptHashes } from '../../src/plugins/security.ts';
import { inject, TestClient, useTestApp } from '../helpers/app.ts';
import { fillParams, listRoutes, UNSAFE_METHODS } from './support.ts';

function directives(csp: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

const UNSAFE_SCRIPT_SOURCES = [
  "'unsafe-inline'",
  "'unsafe-eval'",
  "'unsafe-hashes'",
  "'wasm-unsafe-eval'",
  '*',
  'data:',
];
const STRICT_REFERRER = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];

function expectSecurityHeaders(res: LightMyRequestResponse, https: boolean, what: string) {
  const where = `${what} (${res.statusCode})`;
  const csp = res.headers['content-security-policy'];
  expect(typeof csp, `${where}: Content-Security-Policy`).toBe('string');
  const d = directives(String(csp));
  const scriptSources = d.get('script-src') ?? d.get('default-src');
  expect(scriptSources, `${where}: script-src or default-src`).toBeDefined();
  for (const name of ['default-src', 'script-src', 'script-src-elem', 'script-src-attr']) {
    for (const source of d.get(name) ?? []) {
      expect(UNSAFE_SCRIPT_SOURCES, `${where}: ${name} allows ${source}`).not.toContain(source.toLowerCase());
    }
  }
  expect(d.get('frame-ancestors'), `${where}: frame-ancestors`).toEqual(["'none'"]);
  expect(d.get('object-src'), `${where}: object-src`).toEqual(["'none'"]);
  expect(res.headers['x-content-type-options'], `${where}: nosniff`).toBe('nosniff');
  expect(STRICT_REFERRER, `${where}: Referrer-Policy`).toContain(String(res.headers['referrer-policy']));
  const hsts = res.headers['strict-transport-security'];
  if (https) {
    const maxAge = Number(/max-age=(\d+)/.exec(String(hsts))?.[1] ?? 0);
    expect(maxAge, `${where}: HSTS max-age`).toBeGreaterThanOrEqual(15_552_000);
  } else {
    expect(hsts, `${where}: no HSTS over http`).toBeUndefined();
  }
}

/** A request of every kind of answer the app can give, routed or not. */
function cases(app: App): { what: string; req: InjectOptions }[] {
  const routes = listRoutes(app);
  const list: { what: string; req: InjectOptions }[] = [
    { what: 'health', req: { method: 'GET', url: '/healthz' } },
    { what: 'unknown API path', req: { method: 'GET', url: '/api/does-not-exist' } },
    { what: 'unknown page', req: { method: 'GET', url: '/some/page' } },
    { what: 'unknown media', req: { method: 'GET', url: '/media/does-not-exist.png' } },
    { what: 'wrong method', req: { method: 'PATCH', url: '/healthz' } },
    { what: 'OPTIONS', req: { method: 'OPTIONS', url: '/api/current' } },
    { what: 'malformed percent-encoding', req: { method: 'GET', url: '/api/users/%E0%A4%A' } },
    { what: 'lone percent', req: { method: 'GET', url: '/api/%' } },
    { what: 'over-long path parameter', req: { method: 'GET', url: `/api/users/${'9'.repeat(500)}` } },
    { what: 'auth: unknown action', req: { method: 'GET', url: '/api/auth/nope' } },
    { what: 'auth: session', req: { method: 'GET', url: '/api/auth/session' } },
    { what: 'auth: csrf', req: { method: 'GET', url: '/api/auth/csrf' } },
  ];
  for (const route of routes) {
    for (const id of ['1', '999999', 'x']) {
      list.push({
        what: `${route.method} ${route.url} id=${id}`,
        req: { method: route.method as InjectOptions['method'], url: fillParams(route.url, id) },
      });
      if (!route.url.includes(':')) break;
    }
  }
  return list;
}

async function checkAll(ctx: { app: App; config: { secureCookies: boolean } }, https: boolean) {
  for (const { what, req } of cases(ctx.app)) {
    const res = await inject(ctx.app, req);
    expectSecurityHeaders(res, https, `${req.method} ${req.url} — ${what}`);
  }
  // Answers produced after the body parser and by the error handler.
  const client = new TestClient(ctx as never).withCsrf();
  const bodyRoute = listRoutes(ctx.app).find((r) => UNSAFE_METHODS.has(r.method) && r.url.startsWith('/api/'));
  const url = bodyRoute ? fillParams(bodyRoute.url, '1') : '/api/posts';
  const method = (bodyRoute?.method ?? 'POST') as 'POST';
  const bodies: { what: string; opts: Partial<InjectOptions>; payload: unknown }[] = [
    { what: 'invalid JSON', payload: '{"a":', opts: { headers: { 'content-type': 'application/json' } } },
    { what: 'wrong content type', payload: '<x/>', opts: { headers: { 'content-type': 'application/xml' } } },
    { what: 'too large', payload: JSON.stringify({ text: 'a'.repeat(9 * 1024 * 1024) }), opts: {} },
    { what: 'no CSRF token', payload: {}, opts: { headers: { 'x-csrf-token': '' } } },
  ];
  for (const { what, opts, payload } of bodies) {
    const res = await client.request(method, url, payload, {
      ...opts,
      headers: { 'content-type': 'application/json', ...(opts.headers as object) },
    });
    expectSecurityHeaders(res, https, `${method} ${url} — ${what}`);
  }
}

describe('security headers over http', () => {
  const ctx = useTestApp();
  it('are on every answer, errors and 404s included, and there is no HSTS', async () => {
    await checkAll(ctx, false);
  });
});

describe('security headers over https', () => {
  const ctx = useTestApp({ publicUrl: 'https://pipit.example', secureCookies: true });
  it('add HSTS to every answer', async () => {
    await checkAll(ctx, true);
  });
});

/**
 * The web app's own files: served with the same headers. index.html carries one inline script (the web
 * build's boot script), allowed by its hash: no 'unsafe-inline', and nothing else inline runs.
 */
const BOOT = "document.documentElement.dataset.theme='dark';";
const sha256 = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;
const webDist = mkdtempSync(path.join(tmpdir(), 'pipit-web-'));
mkdirSync(path.join(webDist, 'assets'));
writeFileSync(
  path.join(webDist, 'index.html'),
  `<!doctype html><head><script>${BOOT}</script></head><div id="root"></div><script type="module" src="/assets/app.js"></script>`,
);
writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

describe('security headers on the web app', () => {
  const ctx = useTestApp({ webDist });

  it('are on the page, deep links, assets, missing assets and traversal attempts', async () => {
    for (const url of [
      '/',
      '/users/1',
      '/notifications',
      '/assets/app.js',
      '/favicon.svg',
      '/assets/missing-chunk.js',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/..%5c..%5cpackage.json',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expectSecurityHeaders(res, false, `GET ${url}`);
      expect(res.body, `${url} serves nothing outside the web build`).not.toContain('"name"');
    }
  });

  it("allow index.html's inline script by its hash, and no other inline script", async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    const scripts = directives(String(res.headers['content-security-policy'])).get('script-src');
    expect(scripts).toEqual(["'self'", sha256(BOOT)]);
  });

  it('index.html (source, and the build when there is one) has no event handler or javascript: URL, and its inline scripts are what the policy allows', () => {
    const root = path.resolve(import.meta.dirname, '../../../web');
    for (const file of [path.join(root, 'index.html'), path.join(root, 'dist', 'index.html')]) {
      if (!existsSync(file)) continue;
      const html = readFileSync(file, 'utf8');
      const allowed = inlineScriptHashes(path.dirname(file));
      for (const [, code = ''] of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
        expect(allowed, `${file}: an inline script the policy allows`).toContain(sha256(code));
      }
      expect(html, `${file}: no inline event handler`).not.toMatch(/\son[a-z]+\s*=/i);
      expect(html, `${file}: no javascript: URL`).not.toMatch(/javascript:/i);
    }
  });
});
