/**
 * The Node.js Pipit runs on (scripts/node-version.mjs, docs/decisions.md): npm scripts run on the Node
 * pinned in the root package.json (the `node` package's binary, first on npm's PATH), and `npm start`,
 * `npm run dev` or the compiled server run by hand on a Node older than 22 stop at once with one line
 * naming the version found and the one needed.
 *
 * The refusal is checked on a real old Node: the first `node` on PATH outside this repository older
 * than 22 (the system's Node 20 on the CI machine), or OLD_NODE. Without one those tests are skipped
 * and say so; the message itself is checked either way.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_NODE_MAJOR, nodeVersionProblem, PINNED_NODE } from '../../../scripts/node-version.mjs';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVER = path.join(ROOT, 'server');
const rootPackage = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

function nodeVersionOf(bin: string): string | null {
  try {
    accessSync(bin, constants.X_OK);
    return execFileSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** An installed Node older than MIN_NODE_MAJOR, not this repository's own, or null. */
function findOldNode(): { bin: string; version: string } | null {
  const candidates = process.env.OLD_NODE
    ? [process.env.OLD_NODE]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter((dir) => dir && !path.resolve(dir).startsWith(`${ROOT}${path.sep}`))
        .map((dir) => path.join(dir, 'node'));
  for (const bin of candidates) {
    const version = nodeVersionOf(bin);
    if (version && Number(version.split('.')[0]) < MIN_NODE_MAJOR) return { bin, version };
  }
  return null;
}

const oldNode = findOldNode();
if (!oldNode) console.warn('node-version.test: no Node older than 22 found (set OLD_NODE); the refusal runs skipped');

describe('the Node version', () => {
  it('the tests run on a supported Node', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(MIN_NODE_MAJOR);
  });

  it('package.json pins an exact Node version, the one the check recommends, and engines says the floor', () => {
    expect(rootPackage.optionalDependencies.node).toMatch(/^\d+\.\d+\.\d+$/);
    expect(rootPackage.optionalDependencies.node.split('.')[0]).toBe(PINNED_NODE);
    expect(rootPackage.engines.node).toBe(`>=${MIN_NODE_MAJOR}`);
  });

  // `npm test` sets npm_lifecycle_event; vitest run without npm (CI's Node 22 pass) runs on the Node it is given.
  it.skipIf(!process.env.npm_lifecycle_event)('run through npm, the tests run on the pinned Node', () => {
    expect(process.version).toBe(`v${rootPackage.optionalDependencies.node}`);
    expect(process.execPath).toBe(path.join(ROOT, 'node_modules/node/bin/node'));
  });

  // .ci/run's PostgreSQL pass runs vitest on Node 22 and says so: that pass is on the Node it claims.
  it.skipIf(!process.env.PIPIT_EXPECT_NODE)(`runs on the Node asked for (${process.env.PIPIT_EXPECT_NODE})`, () => {
    expect(process.versions.node.split('.')[0]).toBe(process.env.PIPIT_EXPECT_NODE);
  });

  it('the refusal is one line naming the Node found and the one needed; 22 and later pass', () => {
    const message = nodeVersionProblem('20.20.2', '/usr/bin/node');
    expect(message).toBe(
      'pipit: Node.js 22 or newer is needed (24 recommended), but this is Node.js 20.20.2 (/usr/bin/node). ' +
        'Run it through npm (`npm start`), which uses the Node 24 that `npm install` puts in node_modules/.bin, ' +
        'or install Node.js 22+.',
    );
    expect(nodeVersionProblem('21.7.3', '/opt/node')).toContain('this is Node.js 21.7.3 (/opt/node)');
    expect(nodeVersionProblem('22.0.0', '/x')).toBeNull();
    expect(nodeVersionProblem('24.21.0', '/x')).toBeNull();
    expect(nodeVersionProblem('26.10.0', '/x')).toBeNull();
  });
});

describe.skipIf(!oldNode)(`on an old Node (${oldNode?.bin} ${oldNode?.version})`, () => {
  const old = oldNode as { bin: string; version: string };
  // Built into a directory of its own under server/ (so the server's imports resolve from node_modules).
  let dist = '';

  beforeAll(() => {
    dist = mkdtempSync(path.join(SERVER, 'dist-test-'));
    // No embedded database's template: these servers stop at the version check, before any database.
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), dist, '--no-template'], {
      stdio: 'pipe',
    });
  });
  afterAll(() => {
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  /** Runs `args` on `bin` from the repository root, with no AUTH_SECRET: a production server would not serve. */
  function run(bin: string, args: string[], nodeEnv: 'development' | 'production') {
    return spawnSync(bin, args, {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', NODE_ENV: nodeEnv },
      timeout: 60_000,
    });
  }

  it.each([
    ['npm start (development)', ['scripts/start.mjs'], 'development'],
    ['npm start (production)', ['--liftoff-only', '--max-semi-space-size=16', 'scripts/start.mjs'], 'production'],
    ['npm run dev', ['scripts/dev.mjs'], 'development'],
  ] as const)('%s stops at once with one line and exit 1', (_name, args, nodeEnv) => {
    const result = run(old.bin, [...args], nodeEnv);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${nodeVersionProblem(old.version, realpathSync(old.bin))}\n`);
  });

  it('the compiled server run directly (node server/dist/main.js) stops the same way, before loading the server', () => {
    const result = run(old.bin, [path.join(dist, 'main.js')], 'production');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${nodeVersionProblem(old.version, realpathSync(old.bin))}\n`);
  });

  it('on this Node the same entry gets past the check and loads the server (which then asks for AUTH_SECRET)', () => {
    const result = run(process.execPath, [path.join(dist, 'main.js')], 'production');
    expect(result.stderr).not.toContain('Node.js 22 or newer is needed');
    expect(result.stderr).toContain('pipit: ');
    expect(result.stderr).toContain('AUTH_SECRET');
    expect(result.status).toBe(1);
  });
});
