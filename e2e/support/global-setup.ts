/**
 * Runs once before the journeys: checks the system Chromium is there (no browser is ever
 * downloaded) and builds the web app when its sources are newer than the build. Each journey file
 * then starts its own server on a fresh database (see journey.ts).
 */
import { existsSync } from 'node:fs';
import { buildWebIfNeeded } from './server.ts';

export default function setup(): void {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(
      `No Chromium at ${chromium}: install the system package (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  buildWebIfNeeded();
}
