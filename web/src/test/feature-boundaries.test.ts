/**
 * Imports flow one way: app → features → shared (state, components, lib), and features never import
 * each other. Two checks hold that, both derived from the folders on disk so a new feature folder is
 * covered the day it is created:
 * - every import in web/src is read and resolved, and none crosses a boundary;
 * - the lint rule (web/biome.json, run by `npm run lint` in CI and in editors) bites in every feature
 *   folder and every shared layer. Its patterns are relative to the importing file's depth (from
 *   src/features/<area>/<dir>/, another feature is `../../<other>/…` and src/ is `../../../`), so they
 *   need no list of feature names.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(WEB, 'src');
const BIOME = path.resolve(WEB, '../node_modules/.bin/biome');
const FEATURES = readdirSync(path.join(SRC, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const SHARED = ['components', 'lib', 'state'];

/** Where a file under src/ belongs: `features/<area>`, or its top folder (app, state, lib, …). */
function layerOf(file: string): string {
  const [top, area] = path.relative(SRC, file).split(path.sep);
  return top === 'features' ? `features/${area}` : (top ?? '');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative module a file imports: static imports, re-exports and dynamic import(). */
function relativeImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const found = code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g);
  return [...found].map((match) => path.resolve(path.dirname(file), match[1]!));
}

/**
 * Whether `file` (in layer `from`) may not import layer `to`: a feature never imports another feature,
 * nor the app (a feature's tests may: they render it through the page or modal host a person uses);
 * the shared layers import neither.
 */
function crossing(file: string, from: string, to: string): boolean {
  if (from === to) return false;
  if (from.startsWith('features/')) return to.startsWith('features/') || (to === 'app' && !/\.test\.tsx?$/.test(file));
  if (SHARED.includes(from)) return to.startsWith('features/') || to === 'app';
  return false;
}

describe('feature boundaries', () => {
  it('finds the feature folders on disk', () => {
    expect(FEATURES.length).toBeGreaterThan(0);
    expect(FEATURES).toContain('posts');
  });

  it('no import crosses a boundary', () => {
    const crossings = sourceFiles(SRC).flatMap((file) => {
      const from = layerOf(file);
      return relativeImports(file)
        .filter((target) => crossing(file, from, layerOf(target)))
        .map((target) => `${path.relative(SRC, file)} → ${path.relative(SRC, target)}`);
    });
    expect(crossings).toEqual([]);
  });

  it('the lint rule refuses another feature from every feature folder, at each depth, and allows shared code', () => {
    const probe = `boundary-probe-${process.pid}`;
    const files = new Map<string, 'refused' | 'allowed'>();
    const dirs: string[] = [];
    FEATURES.forEach((area, i) => {
      const other = FEATURES[(i + 1) % FEATURES.length]!;
      // A file at the feature's top and one a folder down (components/, api/): the rule's two depths in use.
      files.set(`src/features/${area}/${probe}.ts`, 'refused');
      writeFileSync(
        path.join(WEB, `src/features/${area}/${probe}.ts`),
        `import { x } from '../${other}/api/x.ts';\nexport const probe = x;\n`,
      );
      dirs.push(path.join(WEB, `src/features/${area}/${probe}`));
      mkdirSync(path.join(WEB, `src/features/${area}/${probe}`));
      files.set(`src/features/${area}/${probe}/refused.ts`, 'refused');
      writeFileSync(
        path.join(WEB, `src/features/${area}/${probe}/refused.ts`),
        `import { x } from '../../${other}/components/x.tsx';\nexport const probe = x;\n`,
      );
      files.set(`src/features/${area}/${probe}/allowed.ts`, 'allowed');
      writeFileSync(
        path.join(WEB, `src/features/${area}/${probe}/allowed.ts`),
        "import { a } from './refused.ts';\nimport { b } from '../api/b.ts';\nimport { cn } from '../../../lib/cn.ts';\n" +
          "import { c } from '../../../state/paged.ts';\nimport { d } from '../../../components/button.tsx';\n" +
          'export const probe = [a, b, c, cn, d];\n',
      );
    });
    for (const layer of SHARED) {
      files.set(`src/${layer}/${probe}.ts`, 'refused');
      writeFileSync(
        path.join(WEB, `src/${layer}/${probe}.ts`),
        `import { x } from '../features/${FEATURES[0]}/api/x.ts';\nexport const probe = x;\n`,
      );
    }
    try {
      const run = spawnSync(BIOME, ['lint', '--colors=off', '--max-diagnostics=none', ...files.keys()], {
        cwd: WEB,
        encoding: 'utf8',
      });
      const output = `${run.stdout}${run.stderr}`;
      const flagged = new Set(
        [...output.matchAll(/^(src\/\S+?):\d+:\d+ lint\/style\/noRestrictedImports/gm)].map((m) => m[1]),
      );
      for (const [file, expected] of files) {
        expect(flagged.has(file) ? 'refused' : 'allowed', file).toBe(expected);
      }
      expect(output).toContain('Features never import each other');
      expect(output).toContain('lib, components and state are below the features and the app');
    } finally {
      for (const file of files.keys()) rmSync(path.join(WEB, file), { force: true });
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
