/**
 * Browser helpers for the journeys: the system Chromium (never a downloaded one), people as
 * separate browser contexts, role/label locators, polling instead of sleeps, and axe on every page.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';

export const ARTIFACTS = path.resolve(import.meta.dirname, '../.artifacts');

export const DESKTOP = { width: 1280, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Person {
  context: BrowserContext;
  page: Page;
  /** Every JavaScript dialog (alert, confirm, prompt) the app opened, with its message. */
  dialogs: string[];
  /** Uncaught page errors. */
  errors: string[];
  /** console.error messages (kept for failure reports; some are expected, e.g. a failed sign-in). */
  console: string[];
}

/** One person = one browser context (own cookies and storage) with one page. */
export async function newPerson(
  browser: Browser,
  baseURL: string,
  options: {
    viewport?: { width: number; height: number };
    bypassCSP?: boolean;
    colorScheme?: 'light' | 'dark';
  } = {},
): Promise<Person> {
  const context = await browser.newContext({
    baseURL,
    viewport: options.viewport ?? DESKTOP,
    // The app follows the system's theme; a dark system unless a journey says otherwise (Playwright's is light).
    colorScheme: options.colorScheme ?? 'dark',
    reducedMotion: 'reduce',
    bypassCSP: options.bypassCSP ?? false,
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(2 * WAIT_MS);
  const dialogs: string[] = [];
  const errors: string[] = [];
  const consoleErrors: string[] = [];
  const watch = (page: Page) => {
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => {});
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${page.url()}: ${message.text()}`.slice(0, 1000));
    });
  };
  context.on('page', watch);
  const page = await context.newPage();
  return { context, page, dialogs, errors, console: consoleErrors };
}

/**
 * How long a wait for something the page shows may take before the journey fails: a hang detector, not
 * a guess at how fast the page is (a member step failed at 10 s with a load average of 20 on two cores).
 */
export const WAIT_MS = 30_000;

/** Polls `check` until it returns a truthy value (or stops throwing), then returns that value. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  message: string,
  { timeout = WAIT_MS, interval = 100 } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`Timed out after ${timeout} ms waiting for: ${message} (last: ${detail})`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

export async function visible(locator: Locator, timeout = WAIT_MS): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return locator;
}

export async function gone(locator: Locator, timeout = WAIT_MS): Promise<void> {
  await waitFor(
    async () => (await locator.count()) === 0 || !(await locator.first().isVisible()),
    `${locator} to go away`,
    {
      timeout,
    },
  );
}

/** An item of the main navigation, whether the app renders it as a link or a button. */
export function navItem(page: Page, name: string | RegExp): Locator {
  const nav = page.getByRole('navigation');
  const exact = typeof name === 'string';
  return nav
    .getByRole('link', { name, exact })
    .or(nav.getByRole('button', { name, exact }))
    .filter({ visible: true })
    .first();
}

/**
 * Opens the signed-in person's own profile from the nav. Until the session is known the Profile link points
 * Home (it names nobody yet), so a click then stays on Home: this waits for it to name a profile first.
 */
export async function openOwnProfile(page: Page): Promise<void> {
  const link = navItem(page, 'Profile');
  await waitFor(
    async () => /^\/users\/\d+$/.test((await link.getAttribute('href')) ?? ''),
    'the Profile link to name the signed-in person',
  );
  await link.click();
}

export function dialog(page: Page, name: string): Locator {
  return page.getByRole('dialog', { name, exact: true });
}

/** A toast the app shows (sonner renders them inside a labelled live region). */
export function toast(page: Page, text: string): Locator {
  return page.locator('[data-sonner-toast], [role="status"], [role="alert"]').filter({ hasText: text }).first();
}

export interface AxeFinding {
  where: string;
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** Every finding of every axe run in this process, serious or not (written out for the report). */
export const axeFindings: AxeFinding[] = [];

/** Runs axe on the page as it is now and fails on any serious or critical violation. */
export async function checkA11y(page: Page, where: string, options: { include?: string } = {}): Promise<void> {
  let builder = new AxeBuilder({ page });
  if (options.include) builder = builder.include(options.include);
  const result = await builder.analyze();
  const findings = result.violations.map((v) => ({
    where,
    id: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`.trim()),
  }));
  axeFindings.push(...findings);
  const blocking = findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  // AXE_REPORT_ONLY=1 lets a local run walk on past violations (they are still in the report).
  if (blocking.length > 0 && process.env.AXE_REPORT_ONLY !== '1') {
    const text = blocking.map((f) => `  [${f.impact}] ${f.id}: ${f.help}\n    ${f.nodes.join('\n    ')}`).join('\n');
    throw new Error(`axe found ${blocking.length} serious/critical violation(s) on ${where}:\n${text}`);
  }
}

export function writeAxeReport(name: string): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, `axe-${name}.json`), `${JSON.stringify(axeFindings, null, 2)}\n`);
}

/** Saves a screenshot of every open page of the given people, for looking at a failure. */
export async function snapshotOnFailure(name: string, people: (Person | undefined)[]): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  let i = 0;
  const logs: string[] = [];
  for (const p of people) {
    if (!p) continue;
    logs.push(...p.errors.map((e) => `pageerror: ${e}`), ...p.console.map((c) => `console.error: ${c}`));
    for (const page of p.context.pages()) {
      await page
        .screenshot({ path: path.join(ARTIFACTS, `failure-${name}-${i++}.png`), fullPage: true })
        .catch(() => {});
    }
  }
  if (logs.length) writeFileSync(path.join(ARTIFACTS, `failure-${name}.log`), `${logs.join('\n')}\n`);
}

/** Home's feed tabs, 'Following' and 'Everyone' (an ARIA tab list). */
export function feedTab(page: Page, name: 'Following' | 'Everyone'): Locator {
  return page.getByRole('tab', { name, exact: true });
}

/** Selects a Home tab and returns its panel (named by the tab, so it is the selected one's). */
export async function openFeedTab(page: Page, name: 'Following' | 'Everyone'): Promise<Locator> {
  await feedTab(page, name).click();
  await waitFor(
    async () => (await feedTab(page, name).getAttribute('aria-selected')) === 'true',
    `the ${name} tab to be selected`,
  );
  return page.getByRole('tabpanel', { name, exact: true });
}

/** The right column's suggestions. */
export function whoToFollow(page: Page): Locator {
  return page.getByRole('region', { name: 'Who To Follow' });
}

/**
 * Waits until the app knows whether someone is signed in (members-only items do nothing while
 * the session is loading): Logout shows, or Home greets the visitor.
 */
export async function sessionKnown(page: Page): Promise<void> {
  await waitFor(
    async () => (await signedIn(page)) || (await page.getByRole('heading', { name: 'Welcome to Pipit' }).isVisible()),
    'the session to be known (Logout, or the visitor greeting on Home)',
  );
}

/** Lets the page run what a click queued (handlers, microtasks, a render) before looking. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Runs `action` and proves that no request matching `pattern` left the page. The page's own fetch,
 * XMLHttpRequest and sendBeacon are held while it runs: a matching call is written down the moment
 * it is made and never sent (so it changes nothing), and the record is read once the page has run
 * everything the action queued and gone idle — no grace window to guess.
 */
export async function expectNoRequest(page: Page, pattern: RegExp, action: () => Promise<void>): Promise<void> {
  await page.evaluate(
    ({ source, flags }) => {
      const matches = (url: string | URL) => new RegExp(source, flags).test(new URL(String(url), location.href).href);
      const held: string[] = [];
      const w = window as unknown as Record<string, unknown>;
      const realFetch = window.fetch;
      const realOpen = XMLHttpRequest.prototype.open;
      const realSend = XMLHttpRequest.prototype.send;
      const realBeacon = navigator.sendBeacon;
      const xhrUrls = new WeakMap<XMLHttpRequest, string>();
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        const url = input instanceof Request ? input.url : String(input);
        if (!matches(url)) return realFetch(input, init);
        held.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url}`);
        return new Promise<Response>(() => {}); // held: never sent, never answered
      };
      XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: unknown[]) {
        xhrUrls.set(this, `${args[0]} ${args[1]}`);
        return (realOpen as (...a: unknown[]) => void).apply(this, args);
      };
      XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
        const call = xhrUrls.get(this) ?? '';
        if (matches(call.split(' ')[1] ?? '')) return void held.push(call);
        return realSend.call(this, body);
      };
      navigator.sendBeacon = (url: string | URL, data?: BodyInit | null) => {
        if (!matches(url)) return realBeacon.call(navigator, url, data);
        held.push(`BEACON ${url}`);
        return true;
      };
      w.__pipitHeld = {
        held,
        restore() {
          window.fetch = realFetch;
          XMLHttpRequest.prototype.open = realOpen;
          XMLHttpRequest.prototype.send = realSend;
          navigator.sendBeacon = realBeacon;
        },
      };
    },
    { source: pattern.source, flags: pattern.flags },
  );
  let held: string[] = [];
  try {
    await action();
    await settle(page);
    // Idle: no task the action queued (handlers, promises, renders, zero-delay timers) is left to run.
    await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
  } finally {
    held = await page.evaluate(() => {
      const state = (window as unknown as { __pipitHeld: { held: string[]; restore(): void } }).__pipitHeld;
      state.restore();
      return state.held;
    });
  }
  if (held.length > 0) throw new Error(`expected no request to ${pattern}, but the page made: ${held.join(', ')}`);
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** A post as rendered in a list or on its page. */
export function postCard(scope: Page | Locator, text: string): Locator {
  return scope.getByRole('article').filter({ hasText: text }).first();
}

/** The inline composer ("What's happening?") or a reply composer, and its submit button. */
export function composer(scope: Page | Locator, label: string | RegExp = "What's happening?") {
  // `has` is matched inside each form, so it must be built from the page, not from the scope.
  const page = 'goto' in scope ? scope : scope.page();
  const form = scope
    .locator('form')
    .filter({ has: page.getByRole('textbox', { name: label }) })
    .first();
  const box = form.getByRole('textbox', { name: label });
  return { box, form, submit: form.getByRole('button', { name: /^(Tweet|Reply|Post)$/ }) };
}

/** The alert dot on the Notifications item, however the app exposes it. */
export function notificationDot(page: Page): Locator {
  return page
    .getByRole('navigation')
    .first()
    .locator('[data-testid="notification-dot"], [aria-label*="new notification" i], [aria-label*="unread" i]')
    .first();
}

/**
 * Signed in and ready: the navigation offers Logout (the session is known) and Profile points at
 * the person's page (their data has loaded; until then members-only buttons ask to sign in).
 */
export async function signedIn(page: Page): Promise<boolean> {
  const logout = navItem(page, 'Logout');
  if ((await logout.count()) === 0 || !(await logout.isVisible())) return false;
  return /^\/users\/\d+$/.test((await navItem(page, 'Profile').getAttribute('href')) ?? '');
}

/** Signed out: no Logout in the navigation. */
export async function signedOut(page: Page): Promise<boolean> {
  return (await navItem(page, 'Logout').count()) === 0;
}

/** Signs in through the Login modal, opened from the Profile item as a visitor would. */
export async function signInThroughModal(page: Page, email: string, password: string): Promise<void> {
  await sessionKnown(page);
  await navItem(page, 'Profile').click();
  const login = await visible(dialog(page, 'Login'));
  await login.getByLabel('Email', { exact: true }).fill(email);
  await login.getByLabel('Password', { exact: true }).fill(password);
  await login.getByRole('button', { name: 'Sign In' }).click();
  await gone(login);
  await waitFor(() => signedIn(page), 'Logout and the own profile link after signing in');
}

/** As a visitor: Profile → the Login modal → 'Create an account'; returns the register dialog. */
export async function openRegister(page: Page): Promise<Locator> {
  await sessionKnown(page);
  await navItem(page, 'Profile').click();
  const login = await visible(dialog(page, 'Login'));
  await login.getByRole('button', { name: 'Create an account' }).click();
  const register = await visible(dialog(page, 'Create an account'));
  await gone(login);
  return register;
}
