#!/usr/bin/env node
// `npm start`. Both modes run the compiled server (server/dist, made by `npm run build`), one process
// serving the API and the web app on one port, on the embedded database unless DATABASE_URL is set.
// In production (NODE_ENV=production) it builds nothing and needs no dev dependency at all. Otherwise
// it first rebuilds the web app and the server when their sources are newer than their builds. (Until
// issue 31 development ran the TypeScript sources through tsx, whose loader thread and unbundled
// modules held ~70 MB more: docs/decisions.md. `npm run dev` still does, restarting on change.)
// First of all: on a Node older than 22, one line saying so, and exit 1 (node-version.mjs).
import './node-version.mjs';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildServerIfStale, SERVER_MAIN } from './server-build.mjs';
import { buildWebIfStale, WEB_DIST } from './web-build.mjs';

const fail = (message) => {
  console.error(`pipit: ${message}`);
  process.exit(1);
};

if (process.env.NODE_ENV === 'production') {
  if (!existsSync(SERVER_MAIN))
    fail('server/dist/main.js is missing: run `npm run build` before `npm start` in production.');
  const webDist = process.env.WEB_DIST;
  if (webDist !== 'none' && !existsSync(path.join(webDist || WEB_DIST, 'index.html')))
    fail(
      `${webDist || 'web/dist'}/index.html is missing: run \`npm run build\` (or set WEB_DIST=none to serve the API only).`,
    );
  await import(SERVER_MAIN);
} else {
  try {
    if (process.env.SKIP_WEB_BUILD !== '1') buildWebIfStale();
    buildServerIfStale();
  } catch (error) {
    fail(error.message);
  }
  // Stack traces name the TypeScript sources (server/dist/server.js.map).
  process.setSourceMapsEnabled(true);
  await import(SERVER_MAIN);
}
