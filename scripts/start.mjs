#!/usr/bin/env node
// `npm start`: builds the web app when its sources are newer than the build, then runs the
// server (API + web on one port) in this process, on the embedded database unless DATABASE_URL
// is set.
import path from 'node:path';
import { buildWebIfStale, ROOT } from './web-build.mjs';

if (process.env.SKIP_WEB_BUILD !== '1') {
  try {
    buildWebIfStale();
  } catch (error) {
    console.error(`pipit: ${error.message}`);
    process.exit(1);
  }
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(ROOT, 'server/src/main.ts'));
