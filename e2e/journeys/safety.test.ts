/**
 * A member protects herself: mutes a noisy account for a day from its profile's More menu (its posts
 * leave her Home), blocks a harasser after a confirmation (neither sees the other, he cannot follow
 * or reply to her), mutes a word in Settings (a post with it leaves her Home), then finds each in
 * Settings' lists and undoes them there.
 */
import { readFileSync } from 'node:fs';
import type { Post, User } from '@pipit/contract';
import { describe, expect } from 'vitest';
import { ApiClient, PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  dialog,
  gone,
  navItem,
  newPerson,
  openFeedTab,
  type Person,
  pathOf,
  postCard,
  signedOut,
  signInThroughModal,
  toast,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const NOISY_POST = 'Noisy Nell posts every five minutes';
const TROLL_POST = 'Troll Tom has opinions about you';
const SPOILER_POST = 'Friendly Fay: the butler did it, spoilers ahead';
const FAY_POST = 'Friendly Fay says good morning';

describe('a member protects herself', () => {
  const j = journey('safety');
  let sam: Person;
  let samUser: User;
  let noisy: { user: User; client: ApiClient };
  let troll: { user: User; client: ApiClient };
  let samsPost: Post;

  j.step('signs in; Home shows the people she follows, the noisy one among them', async () => {
    const seeded = await person(j.url, 'sam', 'Sam Safe');
    samUser = seeded.user;
    noisy = await person(j.url, 'nell', 'Noisy Nell');
    troll = await person(j.url, 'tom', 'Troll Tom');
    const fay = await person(j.url, 'fay', 'Friendly Fay');
    for (const p of [noisy, fay]) await seeded.client.follow(p.user.id);
    await troll.client.follow(samUser.id);
    samsPost = await seeded.client.post('Sam’s garden is blooming');
    await noisy.client.post(NOISY_POST);
    await troll.client.post(TROLL_POST);
    await fay.client.post(SPOILER_POST);
    await fay.client.post(FAY_POST);

    sam = await newPerson(j.browser, j.url);
    j.people.push(sam);
    await sam.page.goto('/');
    await signInThroughModal(sam.page, 'sam@example.com', PASSWORD);
    const home = await openFeedTab(sam.page, 'Following');
    for (const text of [NOISY_POST, SPOILER_POST, FAY_POST]) await visible(postCard(home, text));
  });

  j.step('mutes the noisy account for a day from its profile: its posts leave Home, silently', async () => {
    const { page } = sam;
    await page.goto(`/users/${noisy.user.id}`);
    await page.getByRole('button', { name: 'More' }).click();
    const menu = await visible(page.getByRole('menu', { name: 'More for @nell' }));
    await checkA11y(page, 'the profile menu');
    await menu.getByRole('menuitem', { name: 'Mute @nell' }).click();
    const mute = await visible(dialog(page, 'Mute @nell?'));
    await mute.getByRole('radio', { name: '1 day' }).check();
    await checkA11y(page, 'the Mute dialog');
    await mute.getByRole('button', { name: 'Mute' }).click();
    await gone(mute);
    await visible(toast(page, 'Muted @nell'));
    // Still following; their own profile still shows their posts.
    await visible(page.getByRole('button', { name: 'Following' }));
    await visible(postCard(page, NOISY_POST));

    await navItem(page, 'Home').click();
    const home = await openFeedTab(page, 'Following');
    await visible(postCard(home, FAY_POST));
    await gone(postCard(home, NOISY_POST));
    // Nell is told nothing and still sees Sam.
    const seen = (await noisy.client.raw('GET', `/api/users/${samUser.id}`)).body as User;
    expect(seen).toMatchObject({ isMuting: false, isBlocking: false });
  });

  j.step('blocks the harasser after a confirmation: neither sees the other, he cannot follow or reply', async () => {
    const { page } = sam;
    await page.goto(`/users/${troll.user.id}`);
    await visible(postCard(page, TROLL_POST));
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Block @tom' }).click();
    const confirm = await visible(dialog(page, 'Block @tom?'));
    await checkA11y(page, 'the Block dialog');
    await confirm.getByRole('button', { name: 'Block' }).click();
    await gone(confirm);
    await visible(page.getByText('You blocked @tom'));
    await gone(postCard(page, TROLL_POST));
    await gone(page.getByRole('main').getByRole('button', { name: /^Follow/ }));

    await navItem(page, 'Home').click();
    const everyone = await openFeedTab(page, 'Everyone');
    await visible(postCard(everyone, FAY_POST));
    // The list shown from before is fetched again at once: Tom's post leaves it.
    await gone(postCard(everyone, TROLL_POST));
    // Tom's follow of Sam ended; he cannot follow again, reply or quote her post, or open it.
    expect(await troll.client.tryFollow(samUser.id)).toBe(403);
    expect(await troll.client.tryPost({ text: 'hey', parentId: samsPost.id })).toBe(404);
    expect(await troll.client.tryPost({ text: 'look', quoteOfId: samsPost.id })).toBe(404);
    expect((await troll.client.raw('GET', `/api/posts/${samsPost.id}`)).status).toBe(404);
    const samSeenByTom = (await troll.client.raw('GET', `/api/users/${samUser.id}`)).body as User;
    expect(samSeenByTom).toMatchObject({ isFollowing: false, isBlocking: false });
  });

  j.step('mutes a word in Settings: the post with it leaves Home', async () => {
    const { page } = sam;
    await navItem(page, 'Settings').click();
    await waitFor(() => pathOf(page) === '/settings', 'the Settings page');
    await page.getByLabel('Word or phrase').fill('Spoilers');
    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    await visible(toast(page, 'Muted “Spoilers”'));
    await visible(page.getByRole('list', { name: 'Muted words' }).getByText('Spoilers'));
    await checkA11y(page, 'Settings with muted words and accounts');

    await navItem(page, 'Home').click();
    const home = await openFeedTab(page, 'Following');
    await visible(postCard(home, FAY_POST));
    await gone(postCard(home, SPOILER_POST));
  });

  j.step('undoes each from Settings: unmutes the word and the account, unblocks (no follow comes back)', async () => {
    const { page } = sam;
    await navItem(page, 'Settings').click();
    const words = await visible(page.getByRole('list', { name: 'Muted words' }));
    await words.getByRole('button', { name: 'Unmute “Spoilers”' }).click();
    await visible(page.getByText('You haven’t muted any words.'));
    const muted = await visible(page.getByRole('list', { name: 'Muted accounts' }));
    await visible(muted.getByText(/@nell · until /));
    await muted.getByRole('button', { name: 'Unmute @nell' }).click();
    await visible(page.getByText('You haven’t muted anyone.'));
    const blocked = await visible(page.getByRole('list', { name: 'Blocked accounts' }));
    await blocked.getByRole('button', { name: 'Unblock @tom' }).click();
    await visible(page.getByText('You haven’t blocked anyone.'));

    await navItem(page, 'Home').click();
    const home = await openFeedTab(page, 'Following');
    for (const text of [NOISY_POST, SPOILER_POST, FAY_POST]) await visible(postCard(home, text));
    const tom = (await troll.client.raw('GET', `/api/users/${samUser.id}`)).body as User;
    expect(tom.isFollowing).toBe(false);
    expect(sam.errors).toEqual([]);
  });

  j.step('chooses the light theme: it applies at once, stays after a reload, and passes axe in light too', async () => {
    const { page } = sam;
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await navItem(page, 'Settings').click();
    await waitFor(() => pathOf(page) === '/settings', 'the Settings page');
    expect(await background()).toBe('rgb(0, 0, 0)');
    await page.getByRole('radio', { name: 'Light' }).check();
    await waitFor(async () => (await background()) === 'rgb(255, 255, 255)', 'a white page');
    await checkA11y(page, 'Settings (light)');
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Appearance' }));
    expect(await background()).toBe('rgb(255, 255, 255)');
    await navItem(page, 'Home').click();
    await visible(postCard(await openFeedTab(page, 'Following'), FAY_POST));
    await checkA11y(page, 'Home (light)');
    await page.goto(`/users/${noisy.user.id}`);
    await visible(postCard(page, NOISY_POST));
    await checkA11y(page, 'a profile (light)');

    // "Follow the system": the system's light or dark decides.
    await navItem(page, 'Settings').click();
    await page.getByRole('radio', { name: 'Follow the system' }).check();
    await page.emulateMedia({ colorScheme: 'light' });
    await waitFor(async () => (await background()) === 'rgb(255, 255, 255)', 'light, as the system');
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitFor(async () => (await background()) === 'rgb(0, 0, 0)', 'dark, as the system');
    await checkA11y(page, 'Settings (dark)');
  });

  j.step('downloads her data, then deletes her account: signed out, and nothing of hers is left to see', async () => {
    const { page } = sam;
    await navItem(page, 'Settings').click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download your data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^pipit-sam-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = readFileSync((await download.path()) as string);
    expect(zip.subarray(0, 2).toString()).toBe('PK');

    const form = page.getByRole('form', { name: 'Delete account' });
    await form.getByLabel('Your password', { exact: true }).fill(PASSWORD);
    await form.getByRole('button', { name: 'Delete account' }).click();
    const confirm = await visible(dialog(page, 'Delete your account?'));
    await checkA11y(page, 'the Delete account confirmation');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await visible(toast(page, 'Your account was deleted'));
    await waitFor(() => pathOf(page) === '/', 'Home');
    await waitFor(() => signedOut(page), 'signed out');
    expect((await troll.client.raw('GET', `/api/users/${samUser.id}`)).status).toBe(404);
    expect((await troll.client.raw('GET', `/api/posts/${samsPost.id}`)).status).toBe(404);
    await expect(new ApiClient(j.url).signIn('sam@example.com', PASSWORD)).rejects.toThrow();
  });
});
