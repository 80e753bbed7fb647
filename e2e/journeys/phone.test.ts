/**
 * A member on a 390 px phone: the bottom bar replaces the side column, Who To Follow is gone
 * (large screens only), modals fill the screen, nothing scrolls sideways, and axe is as happy as
 * on a desktop — on every page and modal of the app. Signing out asks for confirmation first.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  dialog,
  gone,
  navItem,
  newPerson,
  openOwnProfile,
  type Person,
  PHONE,
  pathOf,
  postCard,
  signedOut,
  signInThroughModal,
  toast,
  visible,
  waitFor,
  whoToFollow,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const LONG_NAME = 'Bartholomew Maximilian Featherstonehaugh-Wolfe III';

async function fitsTheScreen(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

async function fillsTheScreen(page: Page, name: string) {
  const box = await dialog(page, name).boundingBox();
  expect(box, `the ${name} dialog`).not.toBeNull();
  expect(Math.round(box?.width ?? 0)).toBe(PHONE.width);
  expect(Math.round(box?.height ?? 0)).toBeGreaterThanOrEqual(PHONE.height - 1);
}

describe('a member on a phone', () => {
  const j = journey('phone');
  let ana: Person;
  let postId = '';

  j.step('a visitor sees Home with a bottom bar and no Who To Follow', async () => {
    const bart = await person(j.url, 'bart', LONG_NAME);
    const post = await bart.client.post(
      `Phones are narrow: ${'a-very-long-unbreakable-word-'.repeat(4)}end. https://example.com/${'x'.repeat(60)}`,
    );
    postId = post.id;
    const seeded = await person(j.url, 'ana', 'Ana');
    await bart.client.follow(seeded.user.id);

    ana = await newPerson(j.browser, j.url, { viewport: PHONE });
    j.people.push(ana);
    const { page } = ana;
    await page.goto('/');
    await visible(postCard(page, 'Phones are narrow'));
    expect(await whoToFollow(page).isVisible(), 'Who To Follow is for large screens only').toBe(false);
    const bar = await page.getByRole('navigation', { name: 'Main' }).boundingBox();
    expect(Math.round((bar?.y ?? 0) + (bar?.height ?? 0)), 'the navigation sits at the bottom').toBe(PHONE.height);
    await fitsTheScreen(page, 'Home (visitor)');
    await checkA11y(page, 'Home at 390 px (visitor)');
  });

  j.step('the login and register modals fill the screen', async () => {
    const { page } = ana;
    await navItem(page, 'Notifications').click();
    await visible(dialog(page, 'Login'));
    await fillsTheScreen(page, 'Login');
    await checkA11y(page, 'Login modal at 390 px');
    await dialog(page, 'Login').getByRole('button', { name: 'Create an account' }).click();
    await visible(dialog(page, 'Create an account'));
    await fillsTheScreen(page, 'Create an account');
    await checkA11y(page, 'Register modal at 390 px');
    await page.keyboard.press('Escape');
    await gone(dialog(page, 'Create an account'));
  });

  j.step('signs in and posts from the floating Tweet button', async () => {
    const { page } = ana;
    await signInThroughModal(page, 'ana@example.com', PASSWORD);
    await navItem(page, 'Tweet').click();
    const compose = await visible(dialog(page, 'New post'));
    await fillsTheScreen(page, 'New post');
    await checkA11y(page, 'Compose modal at 390 px');
    await compose.getByRole('textbox', { name: "What's happening?" }).fill('Posting from my phone.');
    await compose.getByRole('button', { name: 'Tweet', exact: true }).click();
    await visible(toast(page, 'Your post was sent'));
    await gone(compose);
    await visible(postCard(page, 'Posting from my phone.'));
    await fitsTheScreen(page, 'Home (member)');
    await checkA11y(page, 'Home at 390 px (member)');
  });

  j.step('reads a post page and a profile with a long name', async () => {
    const { page } = ana;
    await page.goto(`/posts/${postId}`);
    await visible(page.getByRole('article', { name: `Post by ${LONG_NAME}` }));
    await fitsTheScreen(page, 'Post page');
    await checkA11y(page, 'Post page at 390 px');
    await page
      .getByRole('article', { name: `Post by ${LONG_NAME}` })
      .getByRole('link', { name: LONG_NAME })
      .first()
      .click();
    await waitFor(() => /^\/users\/\d+$/.test(pathOf(page)), 'the profile');
    await visible(page.getByRole('main').getByRole('heading', { name: LONG_NAME }));
    await fitsTheScreen(page, 'Profile with a long name');
    await checkA11y(page, 'Profile at 390 px');
  });

  j.step('searches from the Search page: the field, its suggestions and the results fit the screen', async () => {
    const { page } = ana;
    await navItem(page, 'Search').click();
    await waitFor(() => pathOf(page) === '/search', 'the Search page');
    const field = page.getByRole('main').getByRole('combobox', { name: 'Search' });
    await visible(field);
    await field.fill('phone');
    await field.press('Enter');
    await waitFor(() => pathOf(page) === '/search' && page.url().includes('q=phone'), 'the results');
    await visible(postCard(page, 'Posting from my phone.'));
    await fitsTheScreen(page, 'Search results');
    await checkA11y(page, 'Search at 390 px');
  });

  j.step('opens Notifications and the edit modal, then signs out from the bottom bar', async () => {
    const { page } = ana;
    await navItem(page, 'Notifications').click();
    await visible(page.getByRole('main').getByText(/followed you/));
    await fitsTheScreen(page, 'Notifications');
    await checkA11y(page, 'Notifications at 390 px');
    await openOwnProfile(page);
    await page.getByRole('main').getByRole('button', { name: 'Edit profile' }).click();
    await visible(dialog(page, 'Edit your profile'));
    await fillsTheScreen(page, 'Edit your profile');
    await checkA11y(page, 'Edit profile modal at 390 px');
    await page.keyboard.press('Escape');
    await gone(dialog(page, 'Edit your profile'));
    await navItem(page, 'Logout').click();
    // On a phone, Logout sits beside the other items: it asks first.
    const confirm = await visible(dialog(page, 'Sign out of Pipit?'));
    await checkA11y(page, 'Sign-out confirmation at 390 px');
    expect(await signedOut(page), 'still signed in while asked').toBe(false);
    const consoleBefore = ana.console.length;
    await confirm.getByRole('button', { name: 'Sign out', exact: true }).click();
    await waitFor(() => signedOut(page), 'signed out');
    await gone(confirm);
    // Signed out on a profile: it stays, readable by a visitor, and nothing is logged as an error.
    await visible(page.getByRole('main').getByRole('heading', { name: 'Ana' }));
    expect(ana.console.slice(consoleBefore), 'console errors after signing out').toEqual([]);
    expect(ana.dialogs).toEqual([]);
    expect(ana.errors, 'uncaught page errors').toEqual([]);
  });
});
