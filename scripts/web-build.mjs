// When the built web app is older than its sources, rebuild it. One rule for `npm start`, the
// browser journeys and the benchmarks.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const WEB_DIST = path.join(ROOT, 'web/dist');
const SOURCES = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'packages/contract/src'];

/** The newest modification time under `target` (a file or a directory), 0 when it does not exist. */
export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when web/dist is missing or older than any web or contract source. */
export function webBuildIsStale() {
  const index = path.join(WEB_DIST, 'index.html');
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  return builtAt === 0 || SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > builtAt);
}

/** Runs `npm run build -w web` when the build is stale; throws when the build fails. */
export function buildWebIfStale() {
  if (!webBuildIsStale()) return false;
  console.log(
    existsSync(path.join(WEB_DIST, 'index.html'))
      ? 'pipit: web sources changed, rebuilding the web app…'
      : 'pipit: building the web app…',
  );
  const result = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run build -w web failed (exit ${result.status})`);
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('web/dist/index.html is missing after the build');
  return true;
}
