/**
 * Live updates, as people see them: a member reading Following and a visitor reading Everyone are
 * offered a friend's new post behind "Show 1 new post" (the list they read does not move) and see it
 * on top when they ask; a like makes the Notifications dot and the title's count appear without a
 * reload, and reading the notifications in another tab clears them in the first; a deleted post
 * leaves both open pages.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { person } from '../support/api.ts';
import {
  checkA11y,
  gone,
  navItem,
  newPerson,
  notificationDot,
  openFeedTab,
  type Person,
  postCard,
  sessionKnown,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const OLD_POST = 'An older post from Ana, already on the page.';
const FRESH_POST = 'Fresh from Ana: pushed live, shown on request.';
const BENS_POST = 'Ben says hello.';

/** Opens `path` and waits until the page's live stream has answered (so nothing pushed is missed). */
async function openLive(page: Page, path: string) {
  const streaming = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/stream');
  await page.goto(path);
  expect((await streaming).status()).toBe(200);
}

describe('live updates', () => {
  const j = journey('live');
  let ana: Awaited<ReturnType<typeof person>>;
  let ben: Person;
  let visitor: Person;
  let freshId = '';
  let bensPostId = '';

  j.step('a member on Following and a visitor on Everyone have their streams open', async () => {
    ana = await person(j.url, 'ana', 'Ana Live');
    const benApi = await person(j.url, 'ben', 'Ben Reader');
    await benApi.client.follow(ana.user.id);
    await ana.client.post(OLD_POST);
    bensPostId = (await benApi.client.post(BENS_POST)).id;

    ben = await newPerson(j.browser, j.url);
    visitor = await newPerson(j.browser, j.url);
    j.people.push(ben, visitor);
    await ben.context.addCookies(benApi.client.browserCookies());

    await openLive(ben.page, '/');
    await sessionKnown(ben.page);
    await visible(postCard(ben.page.getByRole('tabpanel', { name: 'Following' }), OLD_POST));
    await openLive(visitor.page, '/');
    await visible(postCard(await openFeedTab(visitor.page, 'Everyone'), OLD_POST));
  });

  j.step('a new post waits behind "Show 1 new post", then shows on top when asked', async () => {
    freshId = (await ana.client.post(FRESH_POST)).id;
    for (const [page, tab] of [
      [ben.page, 'Following'],
      [visitor.page, 'Everyone'],
    ] as const) {
      const button = await visible(page.getByRole('button', { name: 'Show 1 new post' }));
      const panel = page.getByRole('tabpanel', { name: tab });
      // What the reader is looking at does not move: the post is not in the list yet.
      expect(await postCard(panel, FRESH_POST).count()).toBe(0);
      await checkA11y(page, `Home with new posts waiting (${tab})`);
      await button.click();
      await visible(postCard(panel, FRESH_POST));
      await gone(page.getByRole('button', { name: /new posts?$/ }));
      const first = await panel.getByRole('article').first().textContent();
      expect(first).toContain(FRESH_POST);
    }
  });

  j.step(
    'a like lights the Notifications dot and the title count; reading them in another tab clears both',
    async () => {
      const { page } = ben;
      await ana.client.like(bensPostId);

      await visible(notificationDot(page));
      await waitFor(async () => /^\(1\) Home \/ Pipit$/.test(await page.title()), 'the title to count one unread');

      const other = await ben.context.newPage();
      await other.goto('/notifications');
      await visible(other.getByText(/liked your post/i));
      await gone(notificationDot(page));
      await waitFor(async () => (await page.title()) === 'Home / Pipit', 'the first tab’s title to lose its count');
      await other.close();
    },
  );

  j.step('a deleted post leaves the open pages', async () => {
    const res = await ana.client.raw('DELETE', `/api/posts/${freshId}`);
    expect(res.status).toBe(204);
    await gone(postCard(ben.page, FRESH_POST));
    await gone(postCard(visitor.page, FRESH_POST));
    await visible(postCard(ben.page, OLD_POST));
    expect(await navItem(ben.page, 'Notifications').count()).toBe(1);
  });
});
