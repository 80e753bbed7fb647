/**
 * Who sees a post: a member picks "Followers only" in the composer's menu and posts; her follower
 * finds it on Home with its badge, cannot repost it (the button says why, no request leaves) and
 * his reply starts followers-only; a member who does not follow her and a visitor find it neither on
 * Everyone nor on her profile, nor at its address. Then she makes followers-only her default in
 * Settings and the composer starts there.
 */
import type { Post, User } from '@pipit/contract';
import { describe, expect } from 'vitest';
import { type ApiClient, person } from '../support/api.ts';
import {
  checkA11y,
  composer,
  expectNoRequest,
  navItem,
  newPerson,
  openFeedTab,
  type Person,
  pathOf,
  postCard,
  toast,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const PUBLIC_POST = 'Fern’s hello to everyone';
const SECRET = 'Only for my followers: the bakery on Elm Street is open again';

describe('who sees a post', () => {
  const j = journey('visibility');
  let fern: { user: User; client: ApiClient };
  let gus: { user: User; client: ApiClient };
  let ferns: Person;
  let secret: Post;

  const signedInAs = j.signedInAs;

  j.step('posts for her followers only, chosen in the composer’s menu; it shows the badge', async () => {
    fern = await person(j.url, 'fern', 'Fern Private');
    gus = await person(j.url, 'gus', 'Gus Follower');
    await person(j.url, 'hal', 'Hal Stranger');
    await gus.client.follow(fern.user.id);
    await fern.client.post(PUBLIC_POST);

    ferns = await signedInAs('fern@example.com');
    const { page } = ferns;
    await page.goto('/');
    const home = await openFeedTab(page, 'Following');
    await page.getByRole('button', { name: 'Visibility: Public' }).click();
    const menu = await visible(page.getByRole('menu', { name: 'Who can see and quote this' }));
    await visible(menu.getByText('Only your followers and people you mention'));
    await checkA11y(page, 'the composer’s visibility menu');
    await menu.getByRole('menuitemradio', { name: 'Followers only' }).click();
    await visible(page.getByRole('button', { name: 'Visibility: Followers only' }));
    const { box, submit } = composer(page);
    await box.fill(SECRET);
    await submit.click();
    await visible(toast(page, 'Your post was sent'));
    await visible(postCard(home, SECRET).getByRole('img', { name: 'Followers only' }));
    const mine = await fern.client.raw('GET', `/api/users/${fern.user.id}/posts`);
    secret = (mine.body as { items: Post[] }).items.find((p) => p.text === SECRET) as Post;
    expect(secret).toMatchObject({ visibility: 'followers', quotePolicy: 'followers' });
  });

  j.step('her follower sees it on Home; Repost is disabled and says why; his reply starts followers-only', async () => {
    const { page } = await signedInAs('gus@example.com');
    await page.goto('/');
    const card = await visible(postCard(await openFeedTab(page, 'Following'), SECRET));
    await visible(card.getByRole('img', { name: 'Followers only' }));
    const repost = card.getByRole('button', { name: 'Repost' });
    expect(await repost.isDisabled()).toBe(true);
    expect(await repost.getAttribute('title')).toBe('Followers-only posts can’t be reposted');
    // aria-disabled (it keeps its tooltip): a click still reaches it, and does nothing.
    await expectNoRequest(page, /\/repost$/, () => repost.click({ force: true }));
    // The server refuses it too.
    expect((await gus.client.raw('PUT', `/api/posts/${secret.id}/repost`)).status).toBe(403);
    await checkA11y(page, 'Home with a followers-only post');

    await card.getByRole('button', { name: 'Reply' }).click();
    await waitFor(() => pathOf(page) === `/posts/${secret.id}`, 'the post’s page');
    await visible(page.getByRole('main').getByRole('img', { name: 'Followers only' }));
    await visible(page.getByRole('button', { name: 'Visibility: Followers only' }));
  });

  j.step('a member who does not follow her, and a visitor, find it nowhere', async () => {
    const hal = await signedInAs('hal@example.com');
    const visitor = await newPerson(j.browser, j.url);
    j.people.push(visitor);
    for (const { page } of [hal, visitor]) {
      await page.goto('/');
      const everyone = await openFeedTab(page, 'Everyone');
      await visible(postCard(everyone, PUBLIC_POST));
      expect(await everyone.getByText(SECRET).count()).toBe(0);
      await page.goto(`/users/${fern.user.id}`);
      await visible(postCard(page.getByRole('main'), PUBLIC_POST));
      expect(await page.getByText(SECRET).count()).toBe(0);
      await page.goto(`/posts/${secret.id}`);
      await visible(page.getByText('This post doesn’t exist.'));
    }
  });

  j.step('makes followers-only her default in Settings; the composer starts there', async () => {
    const { page } = ferns;
    await navItem(page, 'Settings').click();
    await waitFor(() => pathOf(page) === '/settings', 'the Settings page');
    const choices = await visible(page.getByRole('group', { name: 'Default post visibility' }));
    await choices.getByRole('radio', { name: 'Followers only' }).check();
    await checkA11y(page, 'Settings with the default visibility');
    await page.getByRole('region', { name: 'Posts' }).getByRole('button', { name: 'Save' }).click();
    await visible(toast(page, 'Default visibility saved: Followers only'));
    expect((await fern.client.current()).defaultVisibility).toBe('followers');
    await navItem(page, 'Home').click();
    await visible(page.getByRole('button', { name: 'Visibility: Followers only' }));
  });
});
