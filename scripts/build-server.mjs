#!/usr/bin/env node
// `npm run build -w server`: the server as plain JavaScript for production, so `npm start` needs
// neither tsx nor any other dev dependency at run time. esbuild bundles server/src/main.ts (and the
// embedded database's helper process, src/db/embedded-helper.ts, which the server forks) with the
// workspace contract package inlined (it ships TypeScript source) and every npm dependency left
// external (native modules — sharp, argon2, PGlite's WASM — load from node_modules as usual).
// The files the server reads next to its own code at run time (migrations, the common-password
// list) are copied beside the bundle, where `import.meta.dirname` — server/dist — finds them; the
// web app's default path (../../web/dist) is the same from server/dist as from server/src.
// The build also makes the embedded database's template (server/dist/pgdata-template): a database
// created and migrated once, which a new data directory is copied from instead of running PGlite's
// initdb at the first start (~620 MB for a few seconds; server/src/db/embedded.ts, docs/decisions.md).
// It is made by the compiled helper in its own process (~5 s), and kept across rebuilds while it fits
// the installed PGlite and the migrations. `--no-template` skips it (the server then falls back to initdb).
// The entry, server/dist/main.js, is a small file that checks the Node version (scripts/node-version.mjs,
// inlined) and only then imports the server (server/dist/server.js): the server's static imports would
// otherwise all load first, and a dependency that needs a newer Node would fail with its own error
// before the check could say which Node is needed.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'server');
// An output directory other than server/dist may be given (the Node-version test builds into a temporary one).
const args = process.argv.slice(2);
const outArg = args.find((arg) => !arg.startsWith('--'));
const OUT = outArg ? path.resolve(outArg) : path.join(SERVER, 'dist');
const TEMPLATE = 'pgdata-template';
const withTemplate = !args.includes('--no-template');
const pkg = JSON.parse(readFileSync(path.join(SERVER, 'package.json'), 'utf8'));
// pino-pretty (a dev dependency) too: the server loads it only for LOG_FORMAT=pretty (development).
const external = [...Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@pipit/')), 'pino-pretty'];

// Everything but the template, which the helper below checks and keeps when it still fits.
if (existsSync(OUT))
  for (const name of readdirSync(OUT))
    if (!(withTemplate && name === TEMPLATE)) rmSync(path.join(OUT, name), { recursive: true, force: true });
await build({
  entryPoints: {
    server: path.join(SERVER, 'src/main.ts'),
    'embedded-helper': path.join(SERVER, 'src/db/embedded-helper.ts'),
  },
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // Subpath imports (e.g. drizzle-orm/pg-core) are external too.
  external: external.flatMap((name) => [name, `${name}/*`]),
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
cpSync(path.join(SERVER, 'src/db/migrations'), path.join(OUT, 'migrations'), { recursive: true });
cpSync(path.join(SERVER, 'src/modules/users/common-passwords.txt'), path.join(OUT, 'common-passwords.txt'));
if (withTemplate) {
  // Before main.js, the file whose age says the build is done: a build that fails here is redone.
  // PGlite's chatter (stdout) is dropped; the helper's one line is on stderr.
  const made = spawnSync(
    process.execPath,
    ['--liftoff-only', path.join(OUT, 'embedded-helper.js'), '--template', path.join(OUT, TEMPLATE)],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (made.status !== 0) {
    console.error(`pipit: the embedded database's template could not be made (exit ${made.status ?? made.signal})`);
    process.exit(1);
  }
}
await build({
  stdin: {
    contents: "import '../scripts/node-version.mjs';\nawait import('./server.js');\n",
    resolveDir: SERVER,
    sourcefile: 'main.js',
  },
  outfile: path.join(OUT, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: ['./server.js'],
  legalComments: 'none',
  logLevel: 'warning',
});
console.log(`pipit: server built to ${path.relative(ROOT, OUT)}/main.js (server.js, embedded-helper.js)`);
