/**
 * A member writes as people expect (issue 28): closes the composer with unsent text and is asked
 * "Save as draft?" (Save draft), finds it on the Drafts page (linked under the composer), resumes it
 * (the composer opens filled) and sends it, which empties Drafts; then schedules a post for a time
 * in her own time zone ("Scheduled for …"), finds it on the Scheduled page (the post is nowhere
 * else), edits its text, and cancels it after a confirmation. The same pages at phone width.
 * Pictures of each state go to docs/screenshots (drafts-*, scheduled-*, compose-*-*).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import { PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  dialog,
  gone,
  navItem,
  newPerson,
  type Person,
  PHONE,
  pathOf,
  postCard,
  signInThroughModal,
  toast,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');
const shot = async (page: Page, name: string) => {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()?.width}.png`), caret: 'hide' });
};

const DRAFT = 'Notes on the heron at the pond: it stood still for an hour.';
const LATER = 'Good morning! The market opens at nine.';

describe('drafts and scheduled posts', () => {
  const j = journey('drafts');
  let ida: Person;

  j.step('closing the composer with unsent text asks, and Save draft keeps it in Drafts', async () => {
    await person(j.url, 'ida', 'Ida Inkwell');
    ida = await newPerson(j.browser, j.url);
    j.people.push(ida);
    const { page } = ida;
    await page.goto('/');
    await signInThroughModal(page, 'ida@example.com', PASSWORD);
    await navItem(page, 'Tweet').click();
    const compose = await visible(dialog(page, 'New post'));
    await compose.getByRole('textbox', { name: "What's happening?" }).fill(DRAFT);
    await page.keyboard.press('Escape');
    const ask = await visible(dialog(page, 'Save as draft?'));
    await checkA11y(page, 'the Save as draft? question');
    await shot(page, 'compose-save-draft');
    await ask.getByRole('button', { name: 'Save draft' }).click();
    await visible(toast(page, 'Saved to Drafts'));
    await gone(compose);
  });

  j.step('resumes the draft from Drafts (linked under the composer) and sends it; Drafts is empty after', async () => {
    const { page } = ida;
    await page.getByRole('link', { name: 'Drafts', exact: true }).click();
    await waitFor(() => pathOf(page) === '/drafts', 'the Drafts page');
    const drafts = await visible(page.getByRole('list', { name: 'Your drafts' }));
    await visible(drafts.getByText(DRAFT));
    await checkA11y(page, 'the Drafts page');
    await shot(page, 'drafts');
    await drafts.getByRole('button', { name: 'Edit' }).click();
    const compose = await visible(dialog(page, 'Draft'));
    const box = compose.getByRole('textbox', { name: "What's happening?" });
    await waitFor(async () => (await box.inputValue()) === DRAFT, 'the composer filled with the draft');
    await compose.getByRole('button', { name: 'Tweet' }).click();
    await visible(toast(page, 'Your post was sent'));
    await gone(compose);
    await visible(page.getByText('No drafts'));
    await page.goto('/');
    await visible(postCard(page, DRAFT));
  });

  j.step('schedules a post for a local time; it waits on the Scheduled page and nowhere else', async () => {
    const { page } = ida;
    await navItem(page, 'Tweet').click();
    const compose = await visible(dialog(page, 'New post'));
    await compose.getByRole('textbox', { name: "What's happening?" }).fill(LATER);
    await compose.getByRole('button', { name: 'Schedule for later' }).click();
    // An hour ahead by default, shown in her time zone.
    await visible(compose.getByText(/^Will be posted /));
    await checkA11y(page, 'the composer with its Schedule control');
    await shot(page, 'compose-schedule');
    await compose.getByRole('button', { name: 'Schedule', exact: true }).click();
    await visible(toast(page, 'Scheduled for '));
    await gone(compose);
    await gone(page.getByRole('article').filter({ hasText: LATER }));

    await page.goto('/scheduled');
    const list = await visible(page.getByRole('list', { name: 'Your scheduled posts' }));
    await visible(list.getByText(LATER));
    await checkA11y(page, 'the Scheduled page');
    await shot(page, 'scheduled');
  });

  j.step('edits the scheduled post’s text, then cancels it after a confirmation', async () => {
    const { page } = ida;
    const list = page.getByRole('list', { name: 'Your scheduled posts' });
    await list.getByRole('button', { name: 'Edit' }).click();
    await list.getByLabel('Text').fill(`${LATER} Bring a bag.`);
    await shot(page, 'scheduled-edit');
    await list.getByRole('button', { name: 'Save' }).click();
    await visible(toast(page, 'Scheduled for '));
    await visible(list.getByText(`${LATER} Bring a bag.`));
    await list.getByRole('button', { name: 'Cancel' }).click();
    const confirm = await visible(dialog(page, 'Cancel scheduled post?'));
    await confirm.getByRole('button', { name: 'Cancel post' }).click();
    await visible(toast(page, 'Scheduled post cancelled'));
    await visible(page.getByText('Nothing scheduled'));
  });

  j.step('at phone width: the Drafts and Scheduled pages and the composer’s Schedule control', async () => {
    const phone = await newPerson(j.browser, j.url, { viewport: PHONE });
    j.people.push(phone);
    const { page } = phone;
    await page.goto('/');
    await signInThroughModal(page, 'ida@example.com', PASSWORD);
    await page.goto('/scheduled');
    await visible(page.getByText('Nothing scheduled'));
    await checkA11y(page, 'the Scheduled page (phone)');
    await navItem(page, 'Tweet').click();
    const compose = await visible(dialog(page, 'New post'));
    await compose.getByRole('textbox', { name: "What's happening?" }).fill(LATER);
    await compose.getByRole('button', { name: 'Schedule for later' }).click();
    await visible(compose.getByText(/^Will be posted /));
    await checkA11y(page, 'the composer with its Schedule control (phone)');
    await shot(page, 'compose-schedule');
    await compose.getByRole('button', { name: 'Schedule', exact: true }).click();
    await visible(toast(page, 'Scheduled for '));
    await page.goto('/scheduled');
    await visible(page.getByRole('list', { name: 'Your scheduled posts' }).getByText(LATER));
    await shot(page, 'scheduled');
    await page.goto('/drafts');
    await visible(page.getByText('No drafts'));
    await shot(page, 'drafts-empty');
  });
});
