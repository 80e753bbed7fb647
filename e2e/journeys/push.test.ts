/**
 * The installable app and its notifications, in Chromium: the manifest and icons leave no
 * installability error (CDP `Page.getInstallabilityErrors`, in a persistent profile: an incognito
 * context is never installable) and the first visit registers no service worker; a member turns on
 * "Notifications on this device" in Settings (the notification permission granted to the context), the
 * service worker registers, and the browser's subscription reaches the server. Headless Chromium has no
 * push service of its own, so the page's PushManager answers with a subscription whose endpoint is a
 * push service run here on 127.0.0.1 (the server is told to allow it: PUSH_ALLOW_LOOPBACK, NODE_ENV=test)
 * and whose keys are the test's: another member's like is pushed there, the test decrypts it, hands it
 * to the service worker (CDP `ServiceWorker.deliverPushMessage`) and finds the notification it shows.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { BrowserKeys, MockPushService } from '../../server/test/helpers/push-service.ts';
import { ApiClient, PASSWORD, person } from '../support/api.ts';
import { checkA11y, DESKTOP, signInThroughModal, toast, visible, WAIT_MS, waitFor } from '../support/browser.ts';
import { journey } from '../support/journey.ts';
import { ROOT } from '../support/server.ts';

/** The Settings section at 1280 and 390 wide, saved under docs/screenshots. */
async function shoot(page: Page, name: string) {
  const dir = path.join(ROOT, 'docs/screenshots');
  mkdirSync(dir, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.getByRole('region', { name: 'Notifications on this device' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`) });
  }
  await page.setViewportSize(DESKTOP);
}

/** The page's PushManager, answering with `endpoint` and the test's keys (no push service in headless Chromium). */
function fakePushManager(endpoint: string, keys: { p256dh: string; auth: string }) {
  return `(() => {
    let current = null;
    const make = (options) => ({
      endpoint: ${JSON.stringify(endpoint)},
      expirationTime: null,
      options,
      toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys: ${JSON.stringify(keys)} }; },
      async unsubscribe() { current = null; return true; },
    });
    PushManager.prototype.subscribe = async function (options) {
      const key = options.applicationServerKey;
      current = make({ userVisibleOnly: true, applicationServerKey: key instanceof ArrayBuffer ? key : key.buffer });
      return current;
    };
    PushManager.prototype.getSubscription = async function () { return current; };
  })();`;
}

describe('an installable app with Web Push', () => {
  let service: MockPushService;
  const browserKeys = new BrowserKeys();
  const j = journey('push', { env: { NODE_ENV: 'test', PUSH_ALLOW_LOOPBACK: 'true' } });
  let profile = '';
  let context: BrowserContext;
  let page: Page;
  let bob: ApiClient;
  let idaPost = '';

  beforeAll(async () => {
    service = await MockPushService.start();
    profile = mkdtempSync(path.join(tmpdir(), 'pipit-e2e-profile-'));
  });
  afterAll(async () => {
    await context?.close().catch(() => {});
    await service?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  j.step('has a manifest and icons Chromium installs from, and no service worker on a first visit', async () => {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
      baseURL: j.url,
      viewport: DESKTOP,
      colorScheme: 'dark',
    });
    context.setDefaultTimeout(WAIT_MS);
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toBe(`${j.url}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const installability = await waitFor(async () => {
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: { errorId: string }[];
      };
      return installabilityErrors.length === 0 ? 'installable' : null;
    }, 'no installability errors');
    expect(installability).toBe('installable');
    const workers = await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
    expect(workers).toBe(0);
    const sw = await fetch(`${j.url}/sw.js`);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });

  j.step(
    'turns on notifications on this device in Settings: the worker registers, the server keeps the subscription',
    async () => {
      await person(j.url, 'ida', 'Ida Bell');
      const bobAccount = await person(j.url, 'bob', 'Bob Finch');
      bob = bobAccount.client;
      const ida = new ApiClient(j.url);
      await ida.signIn('ida@example.com');
      idaPost = (await ida.post('Nest boxes are up')).id;
      await context.grantPermissions(['notifications'], { origin: j.url });
      await context.addInitScript(fakePushManager(`${service.origin}/ida`, browserKeys.keys));
      await page.goto('/');
      await signInThroughModal(page, 'ida@example.com', PASSWORD);
      await page.goto('/settings');
      const section = page.getByRole('region', { name: 'Notifications on this device' });
      const main = section.getByRole('checkbox', { name: 'Show notifications on this device' });
      await visible(main);
      expect(await main.isChecked()).toBe(false);
      await main.click();
      await visible(toast(page, 'Notifications are on for this device'));
      await visible(section.getByRole('checkbox', { name: 'Likes' }));
      const registered = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return registration.active?.scriptURL ?? '';
      });
      expect(registered).toBe(`${j.url}/sw.js`);
      const state = await page.evaluate(async () => (await fetch('/api/push/subscription')).json());
      expect(state.subscription).toEqual({
        endpoint: `${service.origin}/ida`,
        kinds: ['reply', 'mention', 'follow', 'like', 'repost'],
      });
      await checkA11y(page, 'Settings, notifications on this device', {
        include: 'section[aria-labelledby="device-notifications-heading"]',
      });
      await shoot(page, 'settings-device-notifications');
    },
  );

  j.step('pushes another member’s like, which the service worker shows as a notification', async () => {
    await bob.like(idaPost);
    // The push service's receipt is the signal (bounded by the step's timeout); how soon it comes is the
    // bench's to say (bench/README.md, "Push delivery"), not a browser journey's.
    await service.waitFor(1);
    const pushed = service.received[0]!;
    const payload = browserKeys.decrypt(pushed.body);
    expect(JSON.parse(payload)).toMatchObject({ title: 'Bob Finch liked your post', body: 'Nest boxes are up' });

    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      registrations.push(...event.registrations);
    });
    await cdp.send('ServiceWorker.enable');
    const registration = await waitFor(
      () => registrations.find((r) => r.scopeURL === `${j.url}/`),
      'the service worker’s registration',
    );
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: j.url,
      registrationId: registration.registrationId,
      data: payload,
    });
    const shown = await waitFor(
      () =>
        page.evaluate(async () => {
          const notifications = await (await navigator.serviceWorker.ready).getNotifications();
          return notifications.map((n) => ({ title: n.title, body: n.body, url: n.data?.url }))[0] ?? null;
        }),
      'the notification the worker shows',
    );
    expect(shown).toEqual({
      title: 'Bob Finch liked your post',
      body: 'Nest boxes are up',
      url: `${j.url}/posts/${idaPost}`,
    });
  });

  j.step('turns a kind off, then notifications off: the server forgets the subscription', async () => {
    const section = page.getByRole('region', { name: 'Notifications on this device' });
    // A click, then the answer: the box is the saved state's (a controlled input), so Playwright's
    // uncheck, which reads it at once, would find it unchanged.
    await section.getByRole('checkbox', { name: 'Likes' }).click();
    await visible(toast(page, 'Likes: not notified on this device'));
    let state = await page.evaluate(async () => (await fetch('/api/push/subscription')).json());
    expect(state.subscription.kinds).not.toContain('like');
    await section.getByRole('checkbox', { name: 'Show notifications on this device' }).click();
    await visible(toast(page, 'Notifications are off for this device'));
    state = await page.evaluate(async () => (await fetch('/api/push/subscription')).json());
    expect(state.subscription).toBeNull();
  });
});
