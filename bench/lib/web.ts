// The web budget: what a first visit to Home downloads (gzip), and Lighthouse on Home in the system Chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT_DIR } from './options.ts';

const WEB_DIST = path.join(ROOT_DIR, 'web/dist');
export interface Asset {
  path: string;
  type: 'js' | 'css';
  bytes: number;
  gzipBytes: number;
}

export interface Budget {
  jsGzip: number;
  cssGzip: number;
  assets: Asset[];
  /** Where the list of files came from: the requests Lighthouse saw, or index.html alone. */
  source: 'lighthouse' | 'index.html';
  /** Only what was requested before the first contentful paint (the rest is prefetched). */
  beforeFcp?: { jsGzip: number; cssGzip: number } | null;
  /** Requested files the server no longer had (web/dist rebuilt during the run): the sums are short. */
  missing?: string[];
}

function assetFor(urlPath: string): Asset | null {
  const file = path.join(WEB_DIST, decodeURIComponent(urlPath));
  if (!file.startsWith(WEB_DIST) || !existsSync(file)) return null;
  const type = file.endsWith('.css') ? 'css' : file.endsWith('.js') ? 'js' : null;
  if (!type) return null;
  const bytes = readFileSync(file);
  return { path: urlPath, type, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
}

/**
 * Gzip sizes of the scripts and stylesheets the page requested, fetched from the server that
 * served them right after the Lighthouse run: web/dist may be rebuilt by someone else meanwhile.
 */
export async function budgetFromServer(baseUrl: string, urlPaths: string[], beforeFcpPaths: string[]): Promise<Budget> {
  const assets: Asset[] = [];
  const missing: string[] = [];
  for (const urlPath of [...new Set(urlPaths)]) {
    const type = urlPath.endsWith('.css') ? 'css' : urlPath.endsWith('.js') ? 'js' : null;
    if (!type) continue;
    const response = await fetch(`${baseUrl}${urlPath}`);
    if (!response.ok) {
      missing.push(urlPath);
      continue;
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    assets.push({ path: urlPath, type, bytes: bytes.length, gzipBytes: gzipSync(bytes).length });
  }
  const sum = (list: Asset[], type: Asset['type']) =>
    list.filter((a) => a.type === type).reduce((n, a) => n + a.gzipBytes, 0);
  const early = assets.filter((a) => beforeFcpPaths.includes(a.path));
  return {
    jsGzip: sum(assets, 'js'),
    cssGzip: sum(assets, 'css'),
    assets,
    source: 'lighthouse',
    beforeFcp: { jsGzip: sum(early, 'js'), cssGzip: sum(early, 'css') },
    missing,
  };
}

/** Gzip sizes of the JS and CSS files among `urlPaths` (what the first visit requested). */
export function budgetOf(urlPaths: string[], source: Budget['source']): Budget {
  const assets = [...new Set(urlPaths)].map(assetFor).filter((a): a is Asset => a !== null);
  const sum = (type: Asset['type']) => assets.filter((a) => a.type === type).reduce((n, a) => n + a.gzipBytes, 0);
  return { jsGzip: sum('js'), cssGzip: sum('css'), assets, source };
}

/** The scripts, module preloads and stylesheets index.html names (the floor of a first visit). */
export function indexHtmlAssets(): string[] {
  const html = readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
  const urls: string[] = [];
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) urls.push(m[1] as string);
  for (const m of html.matchAll(/<link[^>]*\srel="(?:stylesheet|modulepreload)"[^>]*\shref="([^"]+)"/g))
    urls.push(m[1] as string);
  for (const m of html.matchAll(/<link[^>]*\shref="([^"]+)"[^>]*\srel="(?:stylesheet|modulepreload)"/g))
    urls.push(m[1] as string);
  return urls.filter((u) => u.startsWith('/'));
}

export interface LighthouseResult {
  preset: 'mobile' | 'desktop';
  score: number;
  metrics: Record<string, number>;
  /** Same-origin paths of the scripts and stylesheets the page requested. */
  assetPaths: string[];
  /** The same, limited to requests that started before the first contentful paint (observed). */
  beforeFcpPaths: string[];
  /** Every run's score, when several were run (this one is the median). */
  allScores?: number[];
  /** What Lighthouse says would help most: audit id → estimated LCP saving (ms). */
  opportunities: Record<string, number>;
  reportFile: string;
}

const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage';

/** Runs the lighthouse CLI (performance only) against `url` in CHROME_PATH (default /usr/bin/chromium). */
export function runLighthouse(url: string, preset: 'mobile' | 'desktop', reportFile: string): LighthouseResult {
  const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
  if (!existsSync(chromePath)) throw new Error(`No Chromium at ${chromePath}: apt-get install -y chromium`);
  const args = [
    path.join(ROOT_DIR, 'node_modules/lighthouse/cli/index.js'),
    url,
    '--output=json',
    `--output-path=${reportFile}`,
    '--only-categories=performance',
    `--chrome-flags=${CHROME_FLAGS}`,
    '--quiet',
  ];
  if (preset === 'desktop') args.push('--preset=desktop');
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT_DIR,
    env: { ...process.env, CHROME_PATH: chromePath },
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 180_000,
  });
  if (result.status !== 0) throw new Error(`lighthouse exited with ${result.status ?? result.signal}`);
  const lhr = JSON.parse(readFileSync(reportFile, 'utf8')) as {
    categories: { performance: { score: number | null } };
    audits: Record<
      string,
      {
        numericValue?: number;
        score?: number | null;
        metricSavings?: Record<string, number>;
        details?: { items?: { url: string; resourceType?: string; networkRequestTime?: number }[] };
      }
    >;
  };
  const metric = (id: string) => Math.round((lhr.audits[id]?.numericValue ?? Number.NaN) * 1000) / 1000;
  const origin = new URL(url).origin;
  const assets = (lhr.audits['network-requests']?.details?.items ?? [])
    .filter((item) => item.resourceType === 'Script' || item.resourceType === 'Stylesheet')
    .filter((item) => item.url.startsWith(origin));
  const assetPaths = assets.map((item) => new URL(item.url).pathname);
  // What the page needed for its first paint, as opposed to chunks it fetched afterwards (prefetch).
  const observed = (lhr.audits.metrics?.details?.items?.[0] ?? {}) as { observedFirstContentfulPaint?: number };
  const fcpAt = observed.observedFirstContentfulPaint ?? Number.POSITIVE_INFINITY;
  const beforeFcpPaths = assets
    .filter((item) => (item.networkRequestTime ?? 0) <= fcpAt)
    .map((item) => new URL(item.url).pathname);
  const opportunities: Record<string, number> = {};
  for (const [id, audit] of Object.entries(lhr.audits)) {
    const saving = Math.max(audit.metricSavings?.LCP ?? 0, audit.metricSavings?.FCP ?? 0);
    if (saving > 0 && (audit.score ?? 1) < 1) opportunities[id] = saving;
  }
  return {
    preset,
    opportunities,
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    metrics: {
      fcpMs: metric('first-contentful-paint'),
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
      speedIndexMs: metric('speed-index'),
    },
    assetPaths,
    beforeFcpPaths,
    reportFile,
  };
}
