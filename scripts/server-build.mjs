// When the compiled server (server/dist, made by scripts/build-server.mjs) is older than its sources,
// rebuild it: `npm start` in development runs the compiled server, as production does.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { newestMtime, ROOT } from './web-build.mjs';

export const SERVER_MAIN = path.join(ROOT, 'server/dist/main.js');
const SOURCES = [
  'server/src',
  'server/package.json',
  'packages/contract/src',
  'scripts/build-server.mjs',
  'scripts/node-version.mjs',
];

/** True when server/dist/main.js is missing or older than any server or contract source. */
export function serverBuildIsStale() {
  const builtAt = existsSync(SERVER_MAIN) ? statSync(SERVER_MAIN).mtimeMs : 0;
  return builtAt === 0 || SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > builtAt);
}

/** Runs the server's build (esbuild, about a second) in its own process when stale; throws when it fails. */
export function buildServerIfStale() {
  if (!serverBuildIsStale()) return false;
  console.log(
    existsSync(SERVER_MAIN) ? 'pipit: server sources changed, rebuilding the server…' : 'pipit: building the server…',
  );
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`the server's build failed (exit ${result.status})`);
  return true;
}
