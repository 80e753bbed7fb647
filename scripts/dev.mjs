#!/usr/bin/env node
// `npm run dev`: the API on :3000 (restarting on change) and Vite with hot reload on :5173,
// which proxies /api, /media and /healthz to the API. People open :5173, so that is the API's
// PUBLIC_URL too: the auth protocol's answers (sign-out's url, callbacks) point there, and the
// server's start line names the address to open.
import './node-version.mjs';
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, WEB_DIST: 'none', PUBLIC_URL: process.env.PUBLIC_URL || 'http://localhost:5173' },
  }),
  spawn('npm', ['run', 'dev', '-w', 'web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
