import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The first visit to Home's budget (issue 31): what a visitor's phone downloads before Home can
 * show, gzip. JS: index.html's scripts (inline or from public/), the entry chunk, the Home page's chunk and every
 * chunk they import statically (the modulepreloads of index.html, and those the router's `lazy`
 * import of Home brings). CSS: the stylesheets those chunks carry. What loads on demand (other
 * pages, modals, the composer for members, the right column on wide screens) is not in it.
 * The bench (bench/README.md) measures the same thing as Lighthouse requests it.
 */
const BUDGET = { jsGzip: 150_000, cssGzip: 20_000, i18nGzip: 5_000, englishCatalogGzip: 6_000 };
/**
 * The i18n runtime (issue 30): Lingui's core and src/i18n in the first visit's chunks; the English catalog (the
 * messages with a placeholder or a plural, compiled) is measured on its own, the others must not be there.
 */
const I18N_MODULE = /node_modules[\\/]@lingui[\\/]|src[\\/]i18n[\\/]|pipit-catalog/;
const isCatalog = (id: string) => id.includes('pipit-catalog');

const WEB = path.resolve(import.meta.dirname, '../..');
const HOME_PAGE = path.join(WEB, 'src/app/routes/home.tsx');

interface FirstVisit {
  jsGzip: number;
  /** The i18n runtime's modules, as rendered into the first visit's chunks, gzipped together. */
  i18nGzip: number;
  englishCatalogGzip: number;
  i18nModules: string[];
  cssGzip: number;
  files: { name: string; gzip: number }[];
}

const gzipLength = (source: string | Uint8Array) => gzipSync(source).length;

type OutputChunk = Rolldown.OutputChunk;
type OutputAsset = Rolldown.OutputAsset;

function firstVisit(output: readonly (OutputChunk | OutputAsset)[]): FirstVisit {
  const chunks = new Map(
    output.filter((item): item is OutputChunk => item.type === 'chunk').map((chunk) => [chunk.fileName, chunk]),
  );
  const assets = new Map(
    output.filter((item): item is OutputAsset => item.type === 'asset').map((asset) => [asset.fileName, asset]),
  );
  const roots = [...chunks.values()].filter((chunk) => chunk.isEntry || chunk.moduleIds.includes(HOME_PAGE));
  if (!roots.some((chunk) => chunk.moduleIds.includes(HOME_PAGE))) throw new Error('no chunk for the Home page');
  const loaded = new Set<string>();
  const visit = (fileName: string) => {
    if (loaded.has(fileName)) return;
    loaded.add(fileName);
    for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root.fileName);

  const files: FirstVisit['files'] = [];
  const css = new Set<string>();
  let i18nCode = '';
  let catalogCode = '';
  const i18nModules: string[] = [];
  for (const fileName of loaded) {
    const chunk = chunks.get(fileName) as OutputChunk;
    files.push({ name: fileName, gzip: gzipLength(chunk.code) });
    for (const [id, module] of Object.entries(chunk.modules)) {
      if (!I18N_MODULE.test(id) || !module.code) continue;
      i18nModules.push(id.replace(/^.*node_modules[\\/]/, '').replace(`${WEB}${path.sep}`, ''));
      if (isCatalog(id)) catalogCode += module.code;
      else i18nCode += module.code;
    }
    for (const sheet of chunk.viteMetadata?.importedCss ?? []) css.add(sheet);
  }
  const html = assets.get('index.html')?.source;
  if (typeof html !== 'string') throw new Error('the build wrote no index.html');
  for (const [index, match] of [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].entries()) {
    if (match[1]?.trim()) files.push({ name: `index.html inline script ${index + 1}`, gzip: gzipLength(match[1]) });
  }
  // Scripts copied from public/ as they are.
  for (const match of html.matchAll(/<script[^>]*\bsrc="\/(?!assets\/)([^"]+)"/g)) {
    files.push({ name: `/${match[1]}`, gzip: gzipLength(readFileSync(path.join(WEB, 'public', match[1] as string))) });
  }
  const cssFiles = [...css].map((name) => ({ name, gzip: gzipLength((assets.get(name) as OutputAsset).source) }));
  const sum = (list: FirstVisit['files']) => list.reduce((total, file) => total + file.gzip, 0);
  return {
    jsGzip: sum(files),
    cssGzip: sum(cssFiles),
    i18nGzip: gzipLength(i18nCode),
    englishCatalogGzip: gzipLength(catalogCode),
    i18nModules,
    files: [...files, ...cssFiles],
  };
}

describe('first visit to Home', () => {
  let result: FirstVisit;
  const nodeEnv = process.env.NODE_ENV;

  beforeAll(async () => {
    // The production build, in memory (nothing written): ~2–5 s.
    const output = (await build({
      configFile: path.join(WEB, 'vite.config.ts'),
      logLevel: 'silent',
      build: { write: false },
    })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
    result = firstVisit((Array.isArray(output) ? output : [output]).flatMap((o) => o.output));
  }, 120_000);
  afterAll(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  const listing = () => result.files.map((f) => `${f.name} ${kB(f.gzip)}`).join('\n');

  it(`loads at most ${BUDGET.jsGzip / 1000} kB of JavaScript (gzip)`, () => {
    expect(result.jsGzip, `first-visit JS is ${kB(result.jsGzip)}:\n${listing()}`).toBeLessThanOrEqual(BUDGET.jsGzip);
  });

  it(`carries at most ${BUDGET.i18nGzip / 1000} kB (gzip) of i18n runtime, and no other language's catalog`, () => {
    // A test that can fail: the runtime is found (Lingui's core and src/i18n/i18n.ts at least).
    expect(result.i18nModules.some((id) => id.startsWith('@lingui/core'))).toBe(true);
    expect(result.i18nModules).toContain('src/i18n/i18n.ts');
    expect(result.i18nModules.filter((id) => /pipit-catalog\/(es|ar)/.test(id))).toEqual([]);
    expect(
      result.i18nGzip,
      `i18n runtime is ${kB(result.i18nGzip)}: ${result.i18nModules.join(', ')}`,
    ).toBeLessThanOrEqual(BUDGET.i18nGzip);
    expect(result.englishCatalogGzip, `English catalog is ${kB(result.englishCatalogGzip)}`).toBeLessThanOrEqual(
      BUDGET.englishCatalogGzip,
    );
    console.log(
      `first visit: JS ${kB(result.jsGzip)}, i18n runtime ${kB(result.i18nGzip)}, English catalog ${kB(result.englishCatalogGzip)}`,
    );
  });

  it(`loads at most ${BUDGET.cssGzip / 1000} kB of CSS (gzip)`, () => {
    expect(result.cssGzip, `first-visit CSS is ${kB(result.cssGzip)}:\n${listing()}`).toBeLessThanOrEqual(
      BUDGET.cssGzip,
    );
  });
});
