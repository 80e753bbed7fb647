/**
 * A new person joins and takes part: registers (an invalid email never leaves the browser), posts
 * and finds the post in both tabs, replies (the reply says whom it answers, its page shows the
 * conversation above it), likes, follows someone from Who To Follow (who then leaves the list;
 * 'Following' says 'Unfollow' under the pointer), and both people get notified with the alert dot
 * clearing once they look; a bookmark shows on the Bookmarks page; the follow shows in Bob's Followers list and in her Following list. Then the newcomer edits the profile with an uploaded avatar, and signing
 * out on Notifications stays there, signs the other tab out too, and nothing fails after.
 */
import type { User } from '@pipit/contract';
import { describe, expect } from 'vitest';
import { ApiClient, PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  composer,
  dialog,
  expectNoRequest,
  gone,
  navItem,
  newPerson,
  notificationDot,
  openFeedTab,
  openOwnProfile,
  openRegister,
  type Person,
  pathOf,
  postCard,
  settle,
  signedIn,
  signedOut,
  signInThroughModal,
  toast,
  visible,
  waitFor,
  whoToFollow,
} from '../support/browser.ts';
import { centreColour, closeTo, type Rgb, solidImage } from '../support/images.ts';
import { journey } from '../support/journey.ts';

const NIA = { email: 'nia@example.com', name: 'Nia Newcomer', username: 'nia' };
const FIRST_POST = 'Hello Pipit! My very first post.';
const REPLY = 'And a reply to myself, for the thread.';
const AVATAR_COLOUR: Rgb = [255, 122, 0];
const IMAGE_POST = 'Two pictures from my walk';
const QUOTE_TEXT = 'Still true a few minutes later.';
const CAROLS_POST = 'Carol here: a thought worth passing on.';
const NEW_PASSWORD = 'orange is still my colour 7';
const SKY: Rgb = [40, 120, 220];
const SUN: Rgb = [250, 200, 30];

describe('a new member', () => {
  const j = journey('member');
  let bob: User;
  let bobClient: ApiClient;
  let nia: Person;
  let bobs: Person;
  let postPath = '';

  j.step('registers: an invalid email blocks the request, then the account is created and signed in', async () => {
    ({ user: bob, client: bobClient } = await person(j.url, 'bob', 'Bob Builder'));
    nia = await newPerson(j.browser, j.url);
    j.people.push(nia);
    const { page } = nia;
    await page.goto('/');
    const register = await openRegister(page);

    await register.getByLabel('Email', { exact: true }).pressSequentially('nia@example');
    await visible(register.getByText('Invalid email'));
    await register.getByLabel('Name', { exact: true }).fill(NIA.name);
    await register.getByLabel('Username', { exact: true }).fill(NIA.username);
    await register.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await expectNoRequest(page, /\/api\/register/, async () => {
      const submit = register.getByRole('button', { name: 'Register' });
      if (await submit.isEnabled()) await submit.click();
      else await register.getByLabel('Password', { exact: true }).press('Enter');
    });
    await visible(register);

    await register.getByLabel('Email', { exact: true }).fill(NIA.email);
    await gone(register.getByText('Invalid email'));
    await register.getByRole('button', { name: 'Register' }).click();
    await visible(toast(page, 'Account created.'));
    await gone(register);
    await waitFor(() => signedIn(page), 'Logout in the navigation once registered');
    await checkA11y(page, 'Home (member, empty)');
  });

  j.step('posts from Home and sees the post in Following and in Everyone', async () => {
    const { page } = nia;
    const { box, submit } = composer(page);
    await box.fill(FIRST_POST);
    await submit.click();
    await visible(toast(page, 'Your post was sent'));
    await visible(postCard(page.getByRole('tabpanel', { name: 'Following' }), FIRST_POST));
    await visible(postCard(await openFeedTab(page, 'Everyone'), FIRST_POST));
    await checkA11y(page, 'Home, Everyone tab (member)');
    await visible(postCard(await openFeedTab(page, 'Following'), FIRST_POST));

    // The 'Tweet' button's modal is the same composer, in a dialog.
    await navItem(page, 'Tweet').click();
    const compose = await visible(dialog(page, 'New post'));
    await visible(compose.getByRole('textbox', { name: "What's happening?" }));
    await checkA11y(page, 'Compose modal');
    await page.keyboard.press('Escape');
    await gone(compose);
  });

  j.step('opens the post and replies to it', async () => {
    const { page } = nia;
    await postCard(page, FIRST_POST).getByText(FIRST_POST).click();
    await waitFor(() => /^\/posts\/\d+$/.test(pathOf(page)), 'the post page to open');
    postPath = pathOf(page);
    const main = page.getByRole('main');
    const reply = composer(main, /reply/i);
    await reply.box.fill(REPLY);
    await reply.submit.click();
    await visible(toast(page, 'Your reply was sent'));
    await visible(postCard(page, REPLY));
    await checkA11y(page, 'Post page with a reply');

    // The reply's own page: 'Replying to @nia' and the conversation above it.
    await postCard(page, REPLY).getByText(REPLY).click();
    await waitFor(() => /^\/posts\/\d+$/.test(pathOf(page)) && pathOf(page) !== postPath, 'the reply page');
    const conversation = await visible(page.getByRole('region', { name: 'Conversation' }));
    await visible(postCard(conversation, FIRST_POST));
    const detail = page.getByRole('article', { name: `Post by ${NIA.name}` });
    await visible(detail.getByText(`Replying to @${NIA.username}`));
    const above = await conversation.boundingBox();
    const below = await detail.boundingBox();
    expect((above?.y ?? 0) + (above?.height ?? 0), 'the conversation is above the post').toBeLessThanOrEqual(
      (below?.y ?? 0) + 1,
    );
    await checkA11y(page, 'Reply page with its conversation');
    await detail.getByRole('link', { name: `@${NIA.username}` }).click();
    await waitFor(() => /^\/users\/\d+$/.test(pathOf(page)), 'the profile of the person answered');
    // In lists a reply says whom it answers.
    await visible(postCard(page.getByRole('main'), REPLY).getByText(`Replying to @${NIA.username}`));
    await page.goto(postPath);
  });

  j.step('likes the post: the button turns to Unlike and the like sticks after a reload', async () => {
    const { page } = nia;
    // The post page was just opened: a click before the session has loaded is a visitor's click
    // (it opens Login), which on a slow machine made this step fail.
    await waitFor(() => signedIn(page), 'Nia to be signed in and loaded');
    const card = postCard(page, FIRST_POST);
    // The button turns at once; the reload waits for the server's answer (a reload before the request
    // went out cancelled it on a busy CI machine).
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/like'));
    await card.getByRole('button', { name: /^Like\b/ }).click();
    await visible(card.getByRole('button', { name: /^Unlike\b/ }));
    expect((await saved).status()).toBe(200);
    await page.reload();
    await visible(postCard(page, FIRST_POST).getByRole('button', { name: /^Unlike\b/ }));
  });

  j.step('bookmarks the post, finds it on Bookmarks, and takes it out there', async () => {
    const { page } = nia;
    const card = postCard(page, FIRST_POST);
    await card.getByRole('button', { name: 'Bookmark', exact: true }).click();
    await visible(toast(page, 'Added to your Bookmarks'));
    await visible(card.getByRole('button', { name: 'Remove bookmark' }));
    await navItem(page, 'Bookmarks').click();
    await waitFor(() => pathOf(page) === '/bookmarks', 'the Bookmarks page');
    const kept = await visible(page.getByRole('region', { name: 'Bookmarks' }));
    const row = postCard(page, FIRST_POST);
    await visible(row);
    expect(await kept.getByRole('article').count()).toBe(1);
    await checkA11y(page, 'Bookmarks');
    await row.getByRole('button', { name: 'Remove bookmark' }).click();
    await visible(toast(page, 'Removed from your Bookmarks'));
    await visible(row.getByRole('button', { name: 'Bookmark', exact: true }));
    // Gone after a reload, with the empty state's words.
    await page.reload();
    await visible(page.getByText('Save posts for later'));
  });

  j.step('posts two images, one with alt text: the grid shows them with ALT, the viewer moves and closes', async () => {
    const { page } = nia;
    await page.goto('/');
    const { box, form, submit } = composer(page);
    await box.fill(IMAGE_POST);
    const chooser = page.waitForEvent('filechooser');
    await form.getByRole('button', { name: 'Add images' }).click();
    await (await chooser).setFiles([
      { name: 'sky.png', mimeType: 'image/png', buffer: await solidImage(SKY, 900) },
      { name: 'sun.jpg', mimeType: 'image/jpeg', buffer: await solidImage(SUN, 500, 'jpeg') },
    ]);
    const alts = form.getByRole('textbox', { name: 'Alt text' });
    await waitFor(async () => (await alts.count()) === 2, 'an Alt text field per image');
    await alts.first().fill('A clear blue sky');
    await waitFor(() => submit.isEnabled(), 'Tweet enabled once both images are uploaded');
    await submit.click();
    await visible(toast(page, 'Your post was sent'));
    await gone(alts.first());

    const card = postCard(page.getByRole('tabpanel', { name: 'Following' }), IMAGE_POST);
    const sky = await visible(card.getByRole('img', { name: 'A clear blue sky' }));
    await visible(card.getByText('ALT', { exact: true }));
    expect(await card.getByText('ALT', { exact: true }).count(), 'ALT only on the described image').toBe(1);
    await waitFor(
      () => sky.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      'the first image to load',
    );
    const painted = await centreColour(await sky.screenshot());
    expect(closeTo(painted, SKY), `first image centre is rgb(${painted.join(',')})`).toBe(true);
    await checkA11y(page, 'Home with an image post');

    // The viewer: opens on the image, arrows move, Escape closes and focus returns.
    const opener = card.getByRole('button', { name: 'Open image: A clear blue sky' });
    await opener.click();
    await visible(dialog(page, 'Image 1 of 2'));
    await visible(page.getByRole('dialog').getByText('A clear blue sky'));
    await checkA11y(page, 'Image viewer');
    await page.keyboard.press('ArrowRight');
    await visible(dialog(page, 'Image 2 of 2'));
    await page.keyboard.press('ArrowLeft');
    await visible(dialog(page, 'Image 1 of 2'));
    await page.keyboard.press('Escape');
    await gone(page.getByRole('dialog'));
    await waitFor(() => opener.evaluate((el) => el === document.activeElement), 'focus back on the image');

    // From the server after a reload, on the post's own page too.
    await page.reload();
    const again = postCard(page, IMAGE_POST);
    await visible(again.getByRole('img', { name: 'A clear blue sky' }));
    await again.locator('a[href^="/posts/"]').first().click();
    await waitFor(() => /^\/posts\/\d+$/.test(pathOf(page)), 'the post page');
    await visible(page.getByRole('main').getByRole('img', { name: 'A clear blue sky' }));
    expect(
      await page
        .getByRole('main')
        .getByRole('button', { name: /^Open image/ })
        .count(),
    ).toBe(2);
  });

  j.step('quotes her first post: the quote shows it embedded, and the embed opens it', async () => {
    const { page } = nia;
    await page.goto('/');
    await postCard(page, FIRST_POST).getByRole('button', { name: 'Quote', exact: true }).click();
    const quoting = await visible(dialog(page, 'Quote post'));
    await visible(quoting.getByText(FIRST_POST));
    await checkA11y(page, 'Quote modal');
    const { box, submit } = composer(quoting, 'Add a comment');
    await box.fill(QUOTE_TEXT);
    await submit.click();
    await visible(toast(page, 'Your post was sent'));
    await gone(quoting);
    const card = postCard(page.getByRole('tabpanel', { name: 'Following' }), QUOTE_TEXT);
    const embed = card.locator('blockquote');
    await visible(embed.getByText(FIRST_POST));
    await embed.getByText(FIRST_POST).click();
    await waitFor(() => /^\/posts\/\d+$/.test(pathOf(page)), 'the quoted post page');
    await visible(page.getByRole('article', { name: /^Post by / }).getByText(FIRST_POST));
  });

  j.step('follows Bob from Who To Follow, and Bob disappears from the suggestions', async () => {
    const { page } = nia;
    await page.goto('/');
    await waitFor(() => signedIn(page), 'Nia to be signed in and loaded');
    const suggestions = await visible(whoToFollow(page));
    const row = suggestions.getByRole('listitem').filter({ hasText: `@${bob.username}` });
    await visible(row.getByText(bob.name));
    await row.getByRole('button', { name: 'Follow', exact: true }).click();
    await waitFor(async () => (await row.count()) === 0, 'Bob to leave Who To Follow once followed');
    await page.goto(`/users/${bob.id}`);
    const following = page.getByRole('main').getByRole('button', { name: 'Following', exact: true });
    await visible(following);
    await following.hover();
    await visible(page.getByRole('main').getByRole('button', { name: 'Unfollow', exact: true }));
    await page.mouse.move(0, 0);
    await visible(following);
  });

  j.step("sees Bob's repost as 'Bob Builder reposted', reposts it too, and can undo it", async () => {
    const { page } = nia;
    const carol = await person(j.url, 'carol', 'Carol Writer');
    const post = await carol.client.post(CAROLS_POST);
    await bobClient.repost(post.id);
    await page.goto('/');
    const entry = postCard(page.getByRole('tabpanel', { name: 'Following' }), CAROLS_POST);
    await visible(entry.getByRole('link', { name: 'Bob Builder reposted' }));
    await visible(entry.getByText('Carol Writer'));
    await checkA11y(page, 'Home with a repost');
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/repost'));
    await entry.getByRole('button', { name: 'Repost', exact: true }).click();
    await visible(entry.getByRole('button', { name: 'Undo repost' }));
    await waitFor(async () => (await entry.getByText('2 reposts').count()) === 1, 'the count at 2 reposts');
    expect((await saved).status()).toBe(200);
    // Still one entry for the post, however many she follows reposted it; after a reload too.
    await page.reload();
    await visible(entry.getByRole('button', { name: 'Undo repost' }));
    expect(
      await page
        .getByRole('tabpanel', { name: 'Following' })
        .getByRole('article')
        .filter({ hasText: CAROLS_POST })
        .count(),
    ).toBe(1);
    await entry.getByRole('button', { name: 'Undo repost' }).click();
    await visible(entry.getByRole('button', { name: 'Repost', exact: true }));
    await waitFor(
      async () => (await entry.getByText('1 repost', { exact: true }).count()) === 1,
      'the count back at 1',
    );
  });

  j.step('the composer suggests Bob after @bo, and Enter puts his username in', async () => {
    const { page } = nia;
    await page.goto('/');
    await waitFor(() => signedIn(page), 'Nia to be signed in and loaded');
    const { box } = composer(page);
    await box.click();
    await box.pressSequentially('Thanks @bo');
    const suggestion = page
      .getByRole('listbox', { name: 'People suggestions' })
      .getByRole('option', { name: /Bob Builder/ });
    await visible(suggestion);
    await box.press('Enter');
    await waitFor(async () => (await box.inputValue()) === 'Thanks @bob ', 'the username in the box');
    await gone(suggestion);
    await box.fill('');
    await page.goto(`/users/${bob.id}`);
  });

  j.step("opens Bob's followers from his profile's count, finds herself, then whom she follows", async () => {
    const { page } = nia;
    const main = page.getByRole('main');
    await main.getByRole('link', { name: /^1 Follower$/ }).click();
    await waitFor(() => pathOf(page) === `/users/${bob.id}/followers`, "Bob's Followers page");
    const people = page.getByRole('navigation', { name: 'People' });
    await waitFor(
      async () => (await people.getByRole('link', { name: 'Followers' }).getAttribute('aria-current')) === 'page',
      'Followers marked current',
    );
    const followers = await visible(main.getByRole('region', { name: `Followers of ${bob.name}` }));
    const me = followers.getByRole('listitem').filter({ hasText: `@${NIA.username}` });
    await visible(me.getByText(NIA.name));
    // Her own row has no Follow button.
    expect(await me.getByRole('button').count()).toBe(0);
    await checkA11y(page, 'Followers');
    await people.getByRole('link', { name: 'Following' }).click();
    await waitFor(
      async () => (await people.getByRole('link', { name: 'Following' }).getAttribute('aria-current')) === 'page',
      "Bob's Following page, marked current",
    );
    expect(pathOf(page)).toBe(`/users/${bob.id}/following`);

    // Her own profile's Following count leads to Bob, with a Following button that unfollows there.
    await page.goto('/');
    await openOwnProfile(page);
    await waitFor(() => /^\/users\/\d+$/.test(pathOf(page)), 'her own profile');
    await main.getByRole('link', { name: /^1 Following$/ }).click();
    await waitFor(() => /^\/users\/\d+\/following$/.test(pathOf(page)), 'her Following page');
    const bobRow = main.getByRole('listitem').filter({ hasText: `@${bob.username}` });
    await visible(bobRow.getByRole('button', { name: 'Following', exact: true }));
    // The row opens Bob's profile.
    await bobRow.getByText(`@${bob.username}`).click();
    await waitFor(() => pathOf(page) === `/users/${bob.id}`, "Bob's profile from the row");
  });

  j.step('Bob signs in, sees the alert dot, opens Notifications, and the dot clears', async () => {
    bobs = await newPerson(j.browser, j.url);
    j.people.push(bobs);
    const { page } = bobs;
    await page.goto('/');
    await signInThroughModal(page, 'bob@example.com', PASSWORD);
    await visible(notificationDot(page));
    // The dot is drawn; screen readers get it as the item's description.
    const described = await navItem(page, 'Notifications').evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
    expect(described).toMatch(/new notifications/i);
    await navItem(page, 'Notifications').click();
    await waitFor(() => pathOf(page) === '/notifications', 'the Notifications page');
    await visible(page.getByRole('main').getByText(NIA.name).first());
    await visible(
      page
        .getByRole('main')
        .getByText(/followed you/i)
        .first(),
    );
    await gone(notificationDot(page));
    await checkA11y(page, 'Notifications');
    await page.reload();
    await visible(
      page
        .getByRole('main')
        .getByText(/followed you/i)
        .first(),
    );
    expect(await notificationDot(page).count(), 'the dot stays cleared after a reload').toBe(0);
  });

  j.step("Bob likes Nia's post; Nia gets the dot, looks, and it clears", async () => {
    await bobs.page.goto(postPath);
    await waitFor(() => signedIn(bobs.page), 'Bob to be signed in and loaded');
    const card = postCard(bobs.page, FIRST_POST);
    await card.getByRole('button', { name: /^Like\b/ }).click();
    await visible(card.getByRole('button', { name: /^Unlike\b/ }));

    const { page } = nia;
    // The current user is fetched again when the window gets focus; a navigation does the same.
    await page.goto('/');
    await visible(notificationDot(page), 15_000);
    await navItem(page, 'Notifications').click();
    await visible(page.getByRole('main').getByText(/liked/i).first());
    await visible(page.getByRole('main').getByText('Bob Builder').first());
    await gone(notificationDot(page));
  });

  j.step('edits the profile with an uploaded avatar, and the new image shows', async () => {
    const { page } = nia;
    await openOwnProfile(page);
    await waitFor(() => /^\/users\/\d+$/.test(pathOf(page)), 'the own profile page');
    await checkA11y(page, 'Profile (own)');
    await page.getByRole('main').getByRole('button', { name: 'Edit profile' }).click();
    const edit = await visible(dialog(page, 'Edit your profile'));
    await checkA11y(page, 'Edit profile modal');
    await edit.getByLabel('Name', { exact: true }).fill('Nia N. Newcomer');
    await edit.getByLabel('Bio', { exact: true }).fill('Trying Pipit out. Orange is my colour.');
    const avatar = await solidImage(AVATAR_COLOUR);
    await edit
      .getByLabel('Profile image', { exact: true })
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: avatar });
    await edit.getByRole('button', { name: 'Save' }).click();
    await visible(toast(page, 'Updated'));
    await gone(edit);
    const main = page.getByRole('main');
    await visible(main.getByRole('heading', { name: 'Nia N. Newcomer' }));
    await visible(main.getByText('Trying Pipit out. Orange is my colour.'));

    const image = main.locator('img[src*="/media/"]').first();
    await visible(image);
    await waitFor(
      () => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      'the uploaded avatar to load',
    );
    const painted = await centreColour(await image.screenshot());
    expect(closeTo(painted, AVATAR_COLOUR), `avatar centre is rgb(${painted.join(',')})`).toBe(true);
  });

  j.step(
    'in Settings, signs another browser out, then changes her password (a wrong current one is refused)',
    async () => {
      const { page } = nia;
      // Nia is signed in somewhere else too (a second browser, through the API).
      const elsewhere = new ApiClient(j.url);
      await elsewhere.signIn(NIA.email);
      expect((await elsewhere.raw('GET', '/api/current')).status).toBe(200);

      await navItem(page, 'Settings').click();
      await waitFor(() => pathOf(page) === '/settings', 'the Settings page');
      const sessions = await visible(page.getByRole('list', { name: 'Signed-in sessions' }));
      await waitFor(async () => (await sessions.getByRole('listitem').count()) === 2, 'two sessions listed');
      await visible(sessions.getByRole('listitem').first().getByText('This browser'));
      await checkA11y(page, 'Settings');
      await sessions.getByRole('button', { name: /^Sign out / }).click();
      await waitFor(async () => (await sessions.getByRole('listitem').count()) === 1, 'the other session gone');
      expect((await elsewhere.raw('GET', '/api/current')).status).toBe(401);

      const current = page.getByLabel('Current password', { exact: true });
      const next = page.getByLabel('New password', { exact: true });
      await current.fill('not my password');
      await next.fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await visible(page.getByText('The current password is not right.'));
      await current.fill(PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await visible(toast(page, 'Password changed. Your other sessions were signed out.'));
      // The new password signs in; the old one no longer does.
      const again = new ApiClient(j.url);
      await again.signIn(NIA.email, NEW_PASSWORD);
      await expect(new ApiClient(j.url).signIn(NIA.email, PASSWORD)).rejects.toThrow();
      await waitFor(() => signedIn(page), 'still signed in here');
    },
  );

  j.step('signs out on Notifications and stays there; the other tab follows; nothing fails after', async () => {
    const first = nia.page;
    const second = await nia.context.newPage();
    await second.goto('/');
    await waitFor(() => signedIn(second), 'the second tab to be signed in');
    await first.goto('/notifications');
    await waitFor(() => signedIn(first), 'the first tab to be signed in');
    await visible(first.getByRole('main').getByText(/liked/i).first());

    // Every answer of 400 or more, and every console error, from here on.
    const failed: string[] = [];
    for (const page of [first, second]) {
      page.on('response', (response) => {
        if (response.status() >= 400)
          failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
      });
      page.on('requestfailed', (request) => {
        // The app closes the member's live stream when the session ends (and opens a visitor's): the
        // browser reports that cancellation as a failed request; it is not one.
        const closedStream =
          new URL(request.url()).pathname === '/api/stream' && request.failure()?.errorText === 'net::ERR_ABORTED';
        if (!closedStream) failed.push(`failed ${request.method()} ${request.url()} (${request.failure()?.errorText})`);
      });
    }
    const consoleBefore = nia.console.length;

    await navItem(first, 'Logout').click();
    await waitFor(() => signedOut(first), 'the first tab to be signed out');
    // The seed: go to the url the server answers, the page one is on; Notifications then asks to sign in.
    const login = await visible(dialog(first, 'Login'));
    await visible(login.getByText('Sign in to see this page.'));
    expect(pathOf(first)).toBe('/notifications');
    expect(new URL(first.url()).searchParams.get('error')).toBe('SessionRequired');
    await first.keyboard.press('Escape');
    await gone(login);
    await visible(first.getByText('Sign in to see your notifications'));

    await waitFor(() => signedOut(second), 'the second tab to follow the sign-out', { timeout: 15_000 });
    await second.getByRole('tab', { name: 'Everyone' }).click();
    await visible(postCard(second, FIRST_POST));
    await navItem(second, 'Notifications').click();
    await visible(dialog(second, 'Login'));
    await settle(first);
    expect(failed, 'requests that failed after signing out').toEqual([]);
    expect(nia.console.slice(consoleBefore), 'console errors after signing out').toEqual([]);
    expect(nia.dialogs).toEqual([]);
    expect(bobs.dialogs).toEqual([]);
    expect([...nia.errors, ...bobs.errors], 'uncaught page errors').toEqual([]);
  });
});
