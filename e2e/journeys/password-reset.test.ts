/**
 * A member who forgot her password gets back in by email: "Forgot password?" in the Login modal, a
 * link in a real email (an SMTP server in this process; the app sends through nodemailer with
 * SMTP_URL), the link's page sets a new password, every old session ends, and the new password signs in.
 */
import { afterAll, describe, expect } from 'vitest';
import { startMailbox } from '../../server/test/helpers/mailbox.ts';
import { ApiClient, PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  dialog,
  gone,
  navItem,
  newPerson,
  type Person,
  pathOf,
  sessionKnown,
  signedIn,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const mailbox = await startMailbox();
afterAll(() => mailbox.close());

const NEW_PASSWORD = 'remembered at last, a new one 5';

describe('a forgotten password', () => {
  const j = journey('password-reset', { env: { SMTP_URL: mailbox.url, MAIL_FROM: 'Pipit <no-reply@pipit.test>' } });
  let rita: Person;
  let oldSession: ApiClient;
  let link = '';

  j.step('asks for a link from the Login modal; the page says it is on its way if the account exists', async () => {
    ({ client: oldSession } = await person(j.url, 'rita', 'Rita Remember'));
    rita = await newPerson(j.browser, j.url);
    j.people.push(rita);
    const { page } = rita;
    await page.goto('/');
    await sessionKnown(page);
    await navItem(page, 'Profile').click();
    const login = await visible(dialog(page, 'Login'));
    await login.getByLabel('Email', { exact: true }).fill('rita@example.com');
    await login.getByLabel('Password', { exact: true }).fill('not what it was');
    await login.getByRole('button', { name: 'Sign In' }).click();
    await visible(login.getByText('Wrong email or password.'));
    await login.getByRole('button', { name: 'Forgot password?' }).click();
    const reset = await visible(dialog(page, 'Reset your password'));
    await checkA11y(page, 'Reset your password');
    await reset.getByLabel('Email', { exact: true }).fill('rita@example.com');
    await reset.getByRole('button', { name: 'Send link' }).click();
    await visible(reset.getByText('Check your email'));

    const mail = await mailbox.next('rita@example.com');
    expect(mail.subject).toBe('Set a new password for Pipit');
    const found = /(http:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    expect(found, mail.text).not.toBeNull();
    link = found![1]!;
    await page.keyboard.press('Escape');
    await gone(reset);
  });

  j.step('follows the link, sets a new password, and signs in with it; the old session has ended', async () => {
    const { page } = rita;
    await page.goto(new URL(link).pathname + new URL(link).search);
    await waitFor(() => pathOf(page) === '/reset-password', 'the reset page');
    const field = await visible(page.getByLabel('New password', { exact: true }));
    await checkA11y(page, 'Set a new password');
    await field.fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await visible(page.getByText('Your password is set'));
    expect((await oldSession.raw('GET', '/api/current')).status).toBe(401);

    await page.getByRole('button', { name: 'Sign in' }).click();
    const login = await visible(dialog(page, 'Login'));
    await login.getByLabel('Email', { exact: true }).fill('rita@example.com');
    await login.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await login.getByRole('button', { name: 'Sign In' }).click();
    await gone(login);
    await waitFor(() => signedIn(page), 'signed in with the new password');
    await expect(new ApiClient(j.url).signIn('rita@example.com', PASSWORD)).rejects.toThrow();
  });

  j.step('the same link again says it no longer works and offers a new one', async () => {
    const { page } = rita;
    const other = await newPerson(j.browser, j.url);
    j.people.push(other);
    await other.page.goto(new URL(link).pathname + new URL(link).search);
    await other.page.getByLabel('New password', { exact: true }).fill('and yet another one 8');
    await other.page.getByRole('button', { name: 'Set password' }).click();
    await visible(other.page.getByText('This link doesn’t work'));
    await visible(other.page.getByRole('button', { name: 'Ask for a new link' }));
    expect(rita.errors).toEqual([]);
    expect(await signedIn(page)).toBe(true);
  });
});
