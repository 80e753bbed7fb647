#!/usr/bin/env node
// `npm start`. In production (NODE_ENV=production) it runs the compiled server (server/dist, made by
// `npm run build`) with no dev dependency at all; it never builds anything there. Otherwise it
// rebuilds the web app when its sources are newer than the build, then runs the server from its
// TypeScript sources through tsx. Either way one process serves the API and the web app on one
// port, on the embedded database unless DATABASE_URL is set.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildWebIfStale, ROOT, WEB_DIST } from './web-build.mjs';

const fail = (message) => {
  console.error(`pipit: ${message}`);
  process.exit(1);
};

if (process.env.NODE_ENV === 'production') {
  const main = path.join(ROOT, 'server/dist/main.js');
  if (!existsSync(main)) fail('server/dist/main.js is missing: run `npm run build` before `npm start` in production.');
  const webDist = process.env.WEB_DIST;
  if (webDist !== 'none' && !existsSync(path.join(webDist || WEB_DIST, 'index.html')))
    fail(
      `${webDist || 'web/dist'}/index.html is missing: run \`npm run build\` (or set WEB_DIST=none to serve the API only).`,
    );
  await import(main);
} else {
  if (process.env.SKIP_WEB_BUILD !== '1') {
    try {
      buildWebIfStale();
    } catch (error) {
      fail(error.message);
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(path.join(ROOT, 'server/src/main.ts'));
}
