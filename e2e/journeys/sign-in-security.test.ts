/**
 * A member protects her account: turns on two-factor sign-in in Settings (the QR code's key read off
 * the page, codes computed here with the same TOTP library an app uses), signs out, and signs back in
 * with her password and a code in the Login modal; then adds a passkey in Settings with Chromium's
 * virtual authenticator (CDP WebAuthn domain: ctap2, internal, resident key, user verified), signs
 * out, and signs in with the passkey alone (no password, no code). Served on `localhost`, since a
 * passkey's relying party must be a domain.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  dialog,
  gone,
  navItem,
  newPerson,
  type Person,
  sessionKnown,
  signedIn,
  signedOut,
  signInThroughModal,
  toast,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';
import { ROOT } from '../support/server.ts';

const STEP_MS = 30_000;
const SHOTS = path.join(ROOT, 'docs/screenshots');

/** The app's code for a 30-second step, as an authenticator app would show it. */
const codeFor = (secret: string, step: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: step * STEP_MS,
  });

async function signOut(page: Page) {
  await navItem(page, 'Logout').click();
  await waitFor(() => signedOut(page), 'signed out');
}

/** Settings at 1280 and 390 wide, saved under docs/screenshots. */
async function shoot(page: Page, name: string, locator?: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (locator) await page.locator(locator).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('two-factor sign-in and passkeys', () => {
  const j = journey('sign-in-security', { host: 'localhost' });
  let ida: Person;
  let secret = '';
  /** The newest step whose code was used: sign-ins use the next one (a used code is refused). */
  let lastStep = 0;

  j.step(
    'turns on two-factor sign-in in Settings: QR code and key, confirmed with a code, ten recovery codes',
    async () => {
      await person(j.url, 'ida', 'Ida Guard');
      ida = await newPerson(j.browser, j.url);
      j.people.push(ida);
      const { page } = ida;
      await page.goto('/');
      await signInThroughModal(page, 'ida@example.com', PASSWORD);
      await page.goto('/settings');
      const section = page.getByRole('region', { name: 'Two-factor sign-in' });
      await visible(section.getByText(/^Off\./));
      await section.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await section.getByRole('button', { name: 'Turn on' }).click();
      await visible(section.getByRole('img', { name: 'QR code for your authenticator app' }));
      secret = (await section.locator('code[data-secret]').getAttribute('data-secret')) ?? '';
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await checkA11y(page, 'Settings: two-factor setup', { include: 'section[aria-labelledby="two-factor-heading"]' });
      await shoot(page, 'settings-two-factor-setup', 'section[aria-labelledby="two-factor-heading"]');

      lastStep = Math.floor(Date.now() / STEP_MS);
      await section.getByLabel('Code from the app').fill(codeFor(secret, lastStep));
      await section.getByRole('button', { name: 'Confirm' }).click();
      const codes = await visible(section.getByRole('list', { name: 'Recovery codes' }));
      await expect.poll(() => codes.getByRole('listitem').count()).toBe(10);
      await shoot(page, 'settings-two-factor-recovery-codes', 'section[aria-labelledby="two-factor-heading"]');
      await section.getByRole('button', { name: 'Done' }).click();
      await visible(section.getByText('10 recovery codes left.'));
    },
  );

  j.step('signs out, and signing in asks for a code after the password; a wrong one is refused', async () => {
    const { page } = ida;
    await signOut(page);
    await page.goto('/');
    await sessionKnown(page);
    await navItem(page, 'Profile').click();
    const login = await visible(dialog(page, 'Login'));
    await login.getByLabel('Email', { exact: true }).fill('ida@example.com');
    await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await login.getByRole('button', { name: 'Sign In' }).click();
    const code = await visible(login.getByLabel('Two-factor code'));
    await checkA11y(page, 'Login: the code step');
    await shoot(page, 'login-two-factor-code');
    await code.fill('000000');
    await login.getByRole('button', { name: 'Verify' }).click();
    await visible(login.getByText('That code isn’t right, or it was used already.'));
    expect(await signedIn(page)).toBe(false);

    // The next step's code (the server accepts one step either side of its clock, each step once).
    lastStep += 1;
    await code.fill(codeFor(secret, lastStep));
    await login.getByRole('button', { name: 'Verify' }).click();
    await gone(login);
    await waitFor(() => signedIn(page), 'signed in with password and code');
  });

  j.step('adds a passkey in Settings with the virtual authenticator, signs out, signs in with it alone', async () => {
    const { page } = ida;
    const cdp = await ida.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Passkeys' });
    await visible(section.getByText('No passkeys yet.'));
    await section.getByLabel('Passkey name').fill('This laptop');
    await section.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await visible(toast(page, 'Added This laptop'));
    const list = await visible(section.getByRole('list', { name: 'Passkeys' }));
    await visible(list.getByText('This laptop'));
    await visible(list.getByText('Not used yet'));
    await checkA11y(page, 'Settings: passkeys', { include: 'section[aria-labelledby="passkeys-heading"]' });
    await shoot(page, 'settings-passkeys', 'section[aria-labelledby="passkeys-heading"]');

    await signOut(page);
    await page.goto('/');
    await sessionKnown(page);
    await navItem(page, 'Profile').click();
    const login = await visible(dialog(page, 'Login'));
    await shoot(page, 'login-passkey');
    await login.getByRole('button', { name: 'Use a passkey' }).click();
    await gone(login);
    await waitFor(() => signedIn(page), 'signed in with the passkey, no password and no code');

    await page.goto('/settings');
    const used = page.getByRole('region', { name: 'Passkeys' });
    await visible(used.getByText(/Last used/));
    await used.getByRole('button', { name: 'Remove This laptop' }).click();
    await visible(used.getByText('No passkeys yet.'));
  });
});
