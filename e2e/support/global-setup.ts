/**
 * Runs once before the journeys: checks the system Chromium is there (no browser is ever
 * downloaded), builds the web app when its sources are newer than the build, and copies the build
 * aside for this run. Each journey file then starts its own server on a fresh database (see
 * journey.ts).
 */
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildWebIfStale } from '../../scripts/web-build.mjs';
import { snapshotWebDist } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    webDist: string;
  }
}

export default function setup(project: TestProject): () => void {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(
      `No Chromium at ${chromium}: install the system package (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  buildWebIfStale();
  const web = snapshotWebDist();
  project.provide('webDist', web.dir);
  return () => web.remove();
}
