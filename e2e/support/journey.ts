/**
 * A journey is a story told in steps that share one app and one browser: each step is a vitest
 * test, and once a step fails the later ones are skipped (they would only fail for the same reason).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject, test } from 'vitest';
import { ApiClient } from './api.ts';
import { launchBrowser, newPerson, type Person, snapshotOnFailure, writeAxeReport } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

export interface Journey {
  /** The app's origin, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  readonly browser: Browser;
  /** People whose pages are saved as screenshots when a step fails. */
  readonly people: Person[];
  /**
   * A browser context signed in as `email` through its own session (not a seeding client's), at
   * `viewport` when given; its pages are saved if a step fails.
   */
  signedInAs(email: string, viewport?: { width: number; height: number }): Promise<Person>;
  step(name: string, fn: () => Promise<void>, timeout?: number): void;
}

/** Starts a fresh app (own empty database, `env` added to its environment) and one Chromium for the journey file. */
export function journey(
  name: string,
  options: { env?: Record<string, string>; host?: 'localhost' | '127.0.0.1' } = {},
): Journey {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let failed: string | null = null;
  const people: Person[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        skipBuild: true,
        webDist: inject('webDist'),
        ...(options.env ? { env: options.env } : {}),
        ...(options.host ? { host: options.host } : {}),
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    writeAxeReport(name);
    for (const p of people) await p.context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  const url = () => {
    if (!server) throw new Error('the app is not running');
    return server.url;
  };
  const openBrowser = () => {
    if (!browser) throw new Error('the browser is not running');
    return browser;
  };
  return {
    get url() {
      return url();
    },
    get browser() {
      return openBrowser();
    },
    people,
    async signedInAs(email, viewport) {
      const session = new ApiClient(url());
      await session.signIn(email);
      const someone = await newPerson(openBrowser(), url(), viewport ? { viewport } : {});
      await someone.context.addCookies(session.browserCookies());
      people.push(someone);
      return someone;
    },
    step(stepName, fn, timeout = 180_000) {
      test(
        stepName,
        async (ctx) => {
          if (failed) ctx.skip(`an earlier step failed: ${failed}`);
          try {
            await fn();
          } catch (error) {
            failed = stepName;
            await snapshotOnFailure(`${name}-${stepName.replace(/\W+/g, '-')}`, people);
            throw error;
          }
        },
        timeout,
      );
    },
  };
}
