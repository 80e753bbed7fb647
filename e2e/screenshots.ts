/**
 * `npm run screenshots -w e2e`: starts the app on a fresh database, seeds a small demo world
 * (alice, bob, carol, dave) through the HTTP API, and screenshots every page and modal at
 * 1280×900 and 390×844 into docs/screenshots/. Look at every one of them after a UI change.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { buildWebIfStale } from '../scripts/web-build.mjs';
import { ApiClient, person } from './support/api.ts';
import {
  ARTIFACTS,
  composer,
  DESKTOP,
  dialog,
  launchBrowser,
  navItem,
  newPerson,
  notificationDot,
  openFeedTab,
  PHONE,
  postCard,
  visible,
} from './support/browser.ts';
import { dataUrl, demoCover, demoPicture } from './support/images.ts';
import { ready, SCREENSHOTS, shot } from './support/screenshots.ts';
import { snapshotWebDist, startServer } from './support/server.ts';

const OUT = SCREENSHOTS;

const LONG_POST =
  'A post of exactly two hundred and eighty characters, to check that the longest text wraps well: ' +
  'it should read comfortably, never overflow its column, and leave the counts and buttons below it neatly ' +
  'aligned. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod';
const LONG_NAME = 'Carolina Wilhelmina Montgomery-Fitzgerald de Vries';

async function seed(url: string) {
  const alice = await person(url, 'alice', 'Alice Anderson');
  const bob = await person(url, 'bob', 'Bob Builder');
  const carol = await person(url, 'carol_montgomery_fitzgerald', LONG_NAME);
  const dave = await person(url, 'dave', 'Dave');
  // Posts for fewer people than everyone, older than the rest (Home's top stays as it was): each
  // shows its visibility.
  const fern = await person(url, 'fern', 'Fern Private');
  await alice.client.follow(fern.user.id);
  const fernsFriendsPost = await fern.client.postWith({
    text: 'Only for the people who follow me: the bakery on Elm Street is open again.',
    visibility: 'followers',
  });
  await fern.client.postWith({ text: '@alice the meeting moved to 3pm, see you there.', visibility: 'direct' });
  await fern.client.postWith({ text: 'A quiet note, off Everyone and the hashtag pages.', visibility: 'unlisted' });

  await alice.client.edit({
    bio: 'Product designer. Birds, bikes and bread. Building calm software at Pipit.',
    profileImage: dataUrl(await demoPicture(400, 400, '#f472b6', '#7c3aed')),
    coverImage: dataUrl(await demoCover(), 'image/jpeg'),
  });
  await bob.client.edit({
    bio: 'I fix things.',
    profileImage: dataUrl(await demoPicture(400, 400, '#34d399', '#0369a1')),
  });

  const longPost = await alice.client.post(LONG_POST);
  await bob.client.post('Good morning @alice! Coffee first, then #pipit. https://example.com/morning-routine');
  await bob.client.post('Trying out #Pipit today. Hello, #birds people!');
  const birds = await carol.client.post('The #birds were loud this morning.');
  await bob.client.post(
    `Long words must wrap too: Pneumonoultramicroscopicsilicovolcanoconiosis-and-then-some and https://example.com/${'a'.repeat(70)}`,
  );
  await alice.client.post('Just set up my profile. Hi @bob, say hello to everyone!');
  const reply = await carol.client.post('Lovely thread, Alice. Agree with every word of it.', longPost.id);
  await alice.client.post('Thank you, Carolina! Glad it read well.', reply.id);
  await bob.client.post('Same here, well put.', longPost.id);
  await bob.client.like(longPost.id);
  await carol.client.like(longPost.id);
  await alice.client.bookmark(longPost.id);
  await alice.client.bookmark(reply.id);
  const walk = await Promise.all([
    bob.client.upload(await demoPicture(1600, 1000, '#38bdf8', '#065f46'), 'image/jpeg'),
    bob.client.upload(await demoPicture(900, 1200, '#fde047', '#ea580c'), 'image/jpeg'),
    bob.client.upload(await demoPicture(1200, 900, '#c4b5fd', '#1e3a8a'), 'image/jpeg'),
  ]);
  const imagePost = await bob.client.post('Three pictures from this morning’s walk by the river.', undefined, [
    { id: walk[0]!.id, alt: 'A wide river under a pale blue sky, trees on the far bank' },
    { id: walk[1]!.id, alt: 'An orange sunrise behind a footbridge' },
    { id: walk[2]!.id },
  ]);
  await bob.client.quote('This is the best thing I read this week. Go read it.', longPost.id);
  await bob.client.repost(birds.id);
  await alice.client.follow(bob.user.id);
  await bob.client.follow(alice.user.id);
  await carol.client.follow(alice.user.id);
  await dave.client.follow(alice.user.id);
  // Settings' lists: a muted word, a muted account (for a week) and a blocked one.
  const erin = await person(url, 'erin', 'Erin Elsewhere');
  await alice.client.muteWord('spoilers');
  await alice.client.mute(dave.user.id, 7 * 24 * 60 * 60);
  await alice.client.block(erin.user.id);
  // Moderation (alice registered first: the admin): two open reports, and a suspended account.
  const spammer = await person(url, 'cheap_watches', 'Cheap Watches');
  const spam = await spammer.client.post('BUY CHEAP WATCHES NOW!!! Best prices, click my profile #deals', birds.id);
  await carol.client.report('post', spam.id, 'spam', 'Posts this under every thread, several times a day.');
  await bob.client.report('user', spammer.user.id, 'spam');
  const gone = await person(url, 'gone_rogue', 'Gone Rogue');
  await gone.client.post('I was here once.');
  await alice.client.suspend(gone.user.id);
  await alice.client.blockDomain('spam-farm.example', 'Bots posting ads under every thread.');
  // A locked account ("Approve followers") with one request waiting, from carol.
  const lena = await person(url, 'lena', 'Lena Lindqvist');
  await lena.client.edit({
    bio: 'Notes for friends. I approve followers.',
    profileImage: dataUrl(await demoPicture(400, 400, '#fbbf24', '#b45309')),
    locked: true,
  });
  await lena.client.post('Only for the people I know.');
  await carol.client.follow(lena.user.id);
  return { alice, bob, carol, dave, fern, fernsFriendsPost, longPost, reply, imagePost, gone, lena };
}

async function main() {
  buildWebIfStale();
  mkdirSync(OUT, { recursive: true });
  const web = snapshotWebDist();
  const server = await startServer({ skipBuild: true, webDist: web.dir });
  const browser = await launchBrowser();
  let current: Page | undefined;
  try {
    const world = await seed(server.url);
    // A separate session of alice's for the browser: the seeding client keeps its own.
    const aliceSession = new ApiClient(server.url);
    await aliceSession.signIn('alice@example.com');
    const lenaSession = new ApiClient(server.url);
    await lenaSession.signIn('lena@example.com');
    const signedInAs = async (viewport: { width: number; height: number }, colorScheme?: 'light' | 'dark') => {
      const alice = await newPerson(browser, server.url, { viewport, ...(colorScheme ? { colorScheme } : {}) });
      await alice.context.addCookies(aliceSession.browserCookies());
      // A returning member's browser: index.html's boot script then asks for Following early. Guessing
      // a visitor, it asks for Everyone, which a member's Home never takes: that response stays unread,
      // its request open, and the page never reaches network idle (ready()).
      await alice.context.addInitScript(() => localStorage.setItem('pipit.member', '1'));
      return alice;
    };

    for (const viewport of [DESKTOP, PHONE]) {
      const w = viewport.width;
      console.log(`${w}×${viewport.height}:`);

      const visitor = await newPerson(browser, server.url, { viewport });
      const v = visitor.page;
      current = v;
      await v.goto('/');
      await visible(v.getByText('Just set up my profile.'));
      await shot(v, 'visitor-home', w);
      await navItem(v, 'Profile').click();
      const login = await visible(dialog(v, 'Login'));
      await shot(v, 'login-modal', w);
      await login.getByLabel('Email', { exact: true }).fill('alice@example.com');
      await login.getByLabel('Password', { exact: true }).fill('not her password');
      await login.getByRole('button', { name: 'Sign In' }).click();
      await visible(login.getByRole('alert'));
      await shot(v, 'login-failed', w);
      await login.getByRole('button', { name: 'Create an account' }).click();
      const register = await visible(dialog(v, 'Create an account'));
      await register.getByLabel('Email', { exact: true }).pressSequentially('new.person@example');
      await visible(register.getByText('Invalid email'));
      await shot(v, 'register-modal', w);
      await register.getByLabel('Password', { exact: true }).fill('short');
      await register.getByRole('button', { name: 'Register' }).click();
      await visible(register.getByText('Name is required'));
      await shot(v, 'register-problems', w);
      await v.keyboard.press('Escape');
      await v.goto('/notifications');
      await visible(dialog(v, 'Login').getByText('Sign in to see this page.'));
      await shot(v, 'notifications-visitor', w);
      await visitor.context.close();

      const alice = await signedInAs(viewport);
      const a = alice.page;
      current = a;
      await a.goto('/');
      await visible(a.getByText('Coffee first, then'));
      await visible(composer(a).box);
      await visible(notificationDot(a));
      await shot(a, 'home', w);
      await visible(postCard(await openFeedTab(a, 'Everyone'), 'Lovely thread, Alice.'));
      await shot(a, 'home-everyone', w);

      await composer(a).box.fill('Weekend plans, just for friends');
      await a.getByRole('button', { name: 'Visibility: Public' }).click();
      await visible(a.getByRole('menu', { name: 'Who can see and quote this' }));
      await shot(a, 'composer-visibility-menu', w);
      await a.keyboard.press('Escape');
      await composer(a).box.fill('');
      // Her own profile: a mentioned-only post shows on a profile to its author alone.
      const fern = await newPerson(browser, server.url, { viewport });
      await fern.context.addCookies(world.fern.client.browserCookies());
      await fern.context.addInitScript(() => localStorage.setItem('pipit.member', '1'));
      current = fern.page;
      await fern.page.goto(`/users/${world.fern.user.id}`);
      await visible(fern.page.getByRole('main').getByRole('img', { name: 'Mentioned people only' }));
      await shot(fern.page, 'visibility-badges', w);
      await fern.context.close();
      current = a;
      await a.goto(`/posts/${world.fernsFriendsPost.id}`);
      await a.getByRole('button', { name: 'Visibility: Followers only' }).click();
      await visible(a.getByRole('menuitemradio', { name: 'Public' }));
      await shot(a, 'reply-visibility-menu', w);
      await a.keyboard.press('Escape');

      await a.goto(`/posts/${world.longPost.id}`);
      await visible(a.getByText('Lovely thread, Alice.'));
      await shot(a, 'post', w);

      await a.goto(`/posts/${world.imagePost.id}`);
      const riverImage = a.getByRole('main').getByRole('img', { name: /A wide river/ });
      await visible(riverImage);
      await a.waitForFunction(() =>
        [...document.querySelectorAll('main img[src^="/media/"]')].every(
          (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
        ),
      );
      await shot(a, 'post-images', w);
      await a
        .getByRole('main')
        .getByRole('button', { name: /^Open image: A wide river/ })
        .click();
      const viewer = await visible(dialog(a, 'Image 1 of 3'));
      await viewer
        .getByRole('img')
        .evaluate((img: HTMLImageElement) =>
          img.complete ? undefined : new Promise((resolve) => img.addEventListener('load', resolve, { once: true })),
        );
      await shot(a, 'image-viewer', w);
      await a.keyboard.press('Escape');

      await a.goto(`/posts/${world.reply.id}`);
      await visible(a.getByRole('region', { name: 'Conversation' }));
      await visible(a.getByText('Thank you, Carolina!'));
      await shot(a, 'reply-conversation', w);

      await a.goto(`/users/${world.alice.user.id}`);
      await visible(a.getByRole('main').getByText('Birds, bikes and bread.', { exact: false }));
      await shot(a, 'profile', w);
      await a.getByRole('main').getByRole('button', { name: 'Edit profile' }).click();
      const edit = await visible(dialog(a, 'Edit your profile'));
      await shot(a, 'edit-profile-modal', w);
      await edit.getByLabel('Name', { exact: true }).fill('');
      await edit.getByLabel('Username', { exact: true }).fill('');
      await edit.getByRole('button', { name: 'Save' }).click();
      await visible(edit.getByText('Username is required'));
      // A file that only claims to be a PNG: refused before any preview.
      await edit
        .getByLabel('Cover image', { exact: true })
        .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a, not a PNG') });
      await visible(edit.getByRole('alert', { name: 'Cover image problems' }));
      await shot(a, 'edit-profile-problems', w);
      await a.keyboard.press('Escape');

      await a.goto('/search?q=coffee');
      await visible(a.getByRole('tabpanel').getByText('Coffee first, then'));
      await shot(a, 'search', w);
      await a.goto('/search?q=b&tab=people');
      await visible(a.getByRole('tabpanel').getByText('Bob Builder'));
      await shot(a, 'search-people', w);
      if (w === DESKTOP.width) {
        await a.goto('/');
        const field = a.getByRole('complementary').getByRole('combobox', { name: 'Search' });
        await field.fill('car');
        await visible(a.getByRole('option', { name: /Carolina/ }));
        await ready(a);
        // Not `shot`: the pointer stays, the list is open.
        await a.screenshot({
          path: path.join(OUT, `search-suggestions-${w}.png`),
          animations: 'disabled',
          caret: 'hide',
        });
        await field.press('Escape');
        const { box } = composer(a);
        await box.click();
        await box.pressSequentially('Morning #bi');
        await visible(a.getByRole('listbox', { name: 'Hashtag suggestions' }).getByRole('option', { name: /#birds/ }));
        await ready(a);
        await a.screenshot({
          path: path.join(OUT, `composer-suggestions-${w}.png`),
          animations: 'disabled',
          caret: 'hide',
        });
        await box.fill('');
      }

      await a.goto('/hashtag/pipit');
      await visible(a.getByRole('region', { name: 'Posts with #pipit' }).getByText('Coffee first, then'));
      await shot(a, 'hashtag', w);

      // Following a hashtag: Settings' list empty, the button in both states, then the list.
      await a.goto('/settings');
      await a.getByRole('heading', { name: 'Followed hashtags' }).scrollIntoViewIfNeeded();
      await visible(a.getByText('You don’t follow any hashtags yet.', { exact: false }));
      await a.evaluate(() => window.scrollBy(0, -60));
      await shot(a, 'followed-hashtags-empty', w);
      await a.goto('/hashtag/birds');
      await visible(a.getByRole('region', { name: 'Posts with #birds' }).getByText('were loud'));
      await shot(a, 'hashtag-follow', w);
      await a.getByRole('button', { name: 'Follow #birds' }).click();
      await visible(a.getByRole('button', { name: /^(Following|Unfollow) #birds$/ }));
      await shot(a, 'hashtag-following', w);
      await a.goto('/hashtag/pipit');
      await a.getByRole('button', { name: 'Follow #pipit' }).click();
      await visible(a.getByRole('button', { name: /^(Following|Unfollow) #pipit$/ }));
      await a.goto('/settings');
      await a.getByRole('heading', { name: 'Followed hashtags' }).scrollIntoViewIfNeeded();
      await visible(a.getByRole('list', { name: 'Followed hashtags' }).getByText('#birds'));
      await a.evaluate(() => window.scrollBy(0, -60));
      await shot(a, 'followed-hashtags', w);
      // As it was, for the pictures that follow (and the next width): unfollowed from the list.
      for (const tag of ['birds', 'pipit']) {
        await a.getByRole('button', { name: new RegExp(`^(Following|Unfollow) #${tag}$`) }).click();
        await visible(a.getByRole('button', { name: `Follow #${tag}` }));
      }

      await a.goto('/bookmarks');
      await visible(a.getByRole('region', { name: 'Bookmarks' }).getByText('Lovely thread, Alice.'));
      await shot(a, 'bookmarks', w);
      await a.goto(`/users/${world.alice.user.id}`);
      await a
        .getByRole('main')
        .getByRole('link', { name: /^3 Followers$/ })
        .click();
      await visible(a.getByRole('region', { name: `Followers of ${world.alice.user.name}` }).getByText(LONG_NAME));
      await shot(a, 'followers', w);
      await a.goto(`/users/${world.dave.user.id}/following`);
      await visible(a.getByRole('region', { name: 'People Dave follows' }).getByText('Alice Anderson'));
      await shot(a, 'following', w);
      await a.goto(`/users/${world.carol.user.id}/followers`);
      await visible(a.getByText('No followers yet'));
      await shot(a, 'followers-empty', w);

      await a.goto(`/users/${world.carol.user.id}`);
      await visible(a.getByRole('main').getByText(LONG_NAME).first());
      await shot(a, 'profile-long-name', w);
      await a.goto(`/users/${world.bob.user.id}`);
      const following = a.getByRole('main').getByRole('button', { name: 'Following', exact: true });
      await visible(following);
      await ready(a);
      await following.hover();
      await visible(a.getByRole('main').getByRole('button', { name: 'Unfollow', exact: true }));
      // Not `shot`: it moves the mouse away, and the hover is the point of this picture.
      await a.screenshot({
        path: path.join(OUT, `profile-unfollow-hover-${w}.png`),
        animations: 'disabled',
        caret: 'hide',
      });
      await a.goto('/settings');
      await visible(a.getByRole('list', { name: 'Signed-in sessions' }).getByText('This browser'));
      await shot(a, 'settings', w);
      await a.getByRole('heading', { name: 'Muted words' }).scrollIntoViewIfNeeded();
      await visible(a.getByRole('list', { name: 'Blocked accounts' }).getByText('Erin Elsewhere'));
      await a.evaluate(() => window.scrollBy(0, -60));
      await shot(a, 'settings-safety', w);
      await a.getByRole('heading', { name: 'Posts', exact: true }).scrollIntoViewIfNeeded();
      await a
        .getByRole('group', { name: 'Default post visibility' })
        .getByRole('radio', { name: 'Followers only' })
        .check();
      await a.evaluate(() => window.scrollBy(0, -60));
      await shot(a, 'settings-default-visibility', w);

      await a.goto(`/users/${world.bob.user.id}`);
      await a.getByRole('button', { name: 'More' }).click();
      await visible(a.getByRole('menu', { name: 'More for @bob' }));
      await ready(a);
      await a.screenshot({ path: path.join(OUT, `profile-more-menu-${w}.png`), animations: 'disabled', caret: 'hide' });
      await a.getByRole('menuitem', { name: 'Block @bob' }).click();
      await visible(dialog(a, 'Block @bob?'));
      await shot(a, 'block-confirm', w);
      await a.keyboard.press('Escape');

      await a.goto(`/users/${world.dave.user.id}`);
      await visible(a.getByRole('main').getByText('No posts yet'));
      await shot(a, 'profile-empty', w);

      // A locked account: Follow becomes Requested (then withdrawn, for the other width's picture).
      await a.goto(`/users/${world.lena.user.id}`);
      await a.getByRole('main').getByRole('button', { name: 'Follow', exact: true }).click();
      await visible(a.getByRole('main').getByRole('button', { name: 'Requested', exact: true }));
      await ready(a);
      await shot(a, 'profile-locked-requested', w);
      await a.getByRole('main').getByRole('button', { name: 'Requested', exact: true }).hover();
      await a.getByRole('main').getByRole('button', { name: 'Cancel request', exact: true }).click();
      await visible(a.getByRole('main').getByRole('button', { name: 'Follow', exact: true }));
      const lena = await newPerson(browser, server.url, { viewport });
      await lena.context.addCookies(lenaSession.browserCookies());
      const l = lena.page;
      current = l;
      await l.goto('/follow-requests');
      await visible(l.getByRole('button', { name: 'Approve @carol_montgomery_fitzgerald' }));
      await ready(l);
      await shot(l, 'follow-requests', w);
      await l.goto('/settings');
      await l.getByRole('heading', { name: 'Privacy' }).scrollIntoViewIfNeeded();
      await visible(l.getByRole('checkbox', { name: 'Approve followers' }));
      await l.evaluate(() => window.scrollBy(0, -60));
      await shot(l, 'settings-privacy', w);
      await l.goto('/notifications');
      await visible(l.getByText('asked to follow you'));
      await shot(l, 'notifications-follow-request', w);
      await lena.context.close();
      current = a;

      await a.goto('/moderation');
      await visible(a.getByRole('article', { name: /Spam · a post by @cheap_watches/ }));
      await shot(a, 'moderation', w);
      await a.getByRole('tab', { name: 'Log' }).click();
      await visible(a.getByRole('list', { name: 'Audit log' }));
      await shot(a, 'moderation-log', w);
      await a.getByRole('tab', { name: 'Servers' }).click();
      await visible(a.getByRole('list', { name: 'Blocked servers' }));
      await shot(a, 'moderation-servers', w);
      await a.goto(`/users/${world.gone.user.id}`);
      await visible(a.getByText('This account is suspended'));
      await shot(a, 'profile-suspended', w);
      // A Mastodon app asks to use the account (the consent page).
      const registered = await fetch(`${server.url}/api/v1/apps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Pocket Pipit',
          redirect_uris: 'urn:ietf:wg:oauth:2.0:oob',
          scopes: 'read write follow',
          website: 'https://pocket.example',
        }),
      });
      const { client_id: clientId } = (await registered.json()) as { client_id: string };
      await a.goto(
        `/oauth/authorize?client_id=${clientId}&redirect_uri=urn:ietf:wg:oauth:2.0:oob&response_type=code&scope=read+write+follow`,
      );
      await visible(a.getByRole('heading', { name: 'Pocket Pipit wants to use your account' }));
      await shot(a, 'oauth-consent', w);
      await a.goto(`/posts/${world.longPost.id}`);
      const reply = await visible(a.getByRole('article').filter({ hasText: 'Same here, well put.' }));
      await reply.getByRole('button', { name: 'Report post' }).click();
      await visible(dialog(a, 'Report @bob’s post'));
      await shot(a, 'report-dialog', w);
      await a.keyboard.press('Escape');

      await a.goto('/');
      await visible(composer(a).box);
      await navItem(a, 'Tweet').click();
      const compose = await visible(dialog(a, 'New post'));
      await compose.getByRole('textbox').fill('Drafting something worth reading…');
      await shot(a, 'compose-modal', w);
      const chooser = a.waitForEvent('filechooser');
      await compose.getByRole('button', { name: 'Add images' }).click();
      await (await chooser).setFiles([
        { name: 'one.jpg', mimeType: 'image/jpeg', buffer: await demoPicture(800, 600, '#f472b6', '#7c3aed') },
        { name: 'two.jpg', mimeType: 'image/jpeg', buffer: await demoPicture(800, 600, '#34d399', '#0369a1') },
      ]);
      await compose.getByRole('textbox', { name: 'Alt text' }).first().fill('A pink and violet abstract picture');
      await visible(compose.getByRole('button', { name: 'Tweet' }).and(a.locator(':enabled')));
      await shot(a, 'compose-images', w);
      await a.keyboard.press('Escape');
      // Closing a post with words in it asks whether to keep it as a draft.
      await dialog(a, 'Save as draft?').getByRole('button', { name: 'Discard' }).click();
      if (viewport === PHONE) {
        await navItem(a, 'Logout').click();
        await visible(dialog(a, 'Sign out of Pipit?'));
        await shot(a, 'sign-out-confirm', w);
      }
      await alice.context.close();
    }

    // The light theme (a light system; nothing chosen), at both widths.
    for (const viewport of [DESKTOP, PHONE]) {
      const alice = await signedInAs(viewport, 'light');
      const a = alice.page;
      current = a;
      await a.goto('/');
      await visible(postCard(await openFeedTab(a, 'Following'), 'Three pictures'));
      await shot(a, 'home-light', viewport.width);
      await a.goto(`/users/${world.alice.user.id}`);
      await visible(a.getByRole('main').getByText('Joined'));
      await shot(a, 'profile-light', viewport.width);
      await a.goto('/settings');
      await visible(a.getByRole('heading', { name: 'Appearance' }));
      await shot(a, 'settings-light', viewport.width);
      await alice.context.close();
    }

    // Opening Notifications marks them read, so this page comes last, at both widths (the
    // second picture shows them read).
    for (const viewport of [DESKTOP, PHONE]) {
      const alice = await signedInAs(viewport);
      const a = alice.page;
      current = a;
      await a.goto('/notifications');
      await visible(a.getByRole('main').getByText(LONG_NAME).first());
      await shot(a, 'notifications', viewport.width);
      await alice.context.close();
    }
    writeFileSync(
      path.join(OUT, 'README.md'),
      `# Screenshots

Made by \`npm run screenshots -w e2e\` from a fresh demo world (alice, bob, carol, dave), at 1280×900
(\`-1280.png\`) and 390×844 (\`-390.png\`).

| name | what |
|---|---|
| visitor-home | Home as a visitor: the Everyone feed |
| login-modal | the Login modal |
| home (and others) | Bob's quote of Alice's long post shows it embedded; Carol's #birds post as 'Bob Builder reposted' |
| settings | Settings: the password form and the signed-in sessions |
| settings-safety | Settings, further down: muted words, muted accounts (until when) and blocked accounts |
| hashtag-follow, hashtag-following | a hashtag's page with Follow, and with Following once followed |
| followed-hashtags-empty, followed-hashtags | Settings → Followed hashtags: none yet, then two |
| settings-privacy | Settings → Privacy: "Approve followers" on, with the link to the requests |
| profile-locked-requested | a locked account's profile (lock by the name) after alice pressed Follow: 'Requested' |
| follow-requests | the locked account's Follow requests page with one request (Approve / Reject) |
| notifications-follow-request | the locked account's notifications: '… asked to follow you' (opens the requests page) |
| profile-more-menu | the More menu on someone's profile: Mute and Block |
| block-confirm | the confirmation before blocking someone |
| home-light, profile-light, settings-light | the light theme (a light system, nothing chosen) |
| post-images | a post with three images (two described: ALT), on its page |
| image-viewer | the image viewer opened on the first of three, its alt text under it |
| compose-images | the compose modal with two images chosen, one described in its Alt text field |
| login-failed | the Login modal after a wrong password: 'Wrong email or password.' |
| register-modal | the Create an account modal, showing the live 'Invalid email' message |
| register-problems | Register pressed with problems everywhere: each one under its field |
| notifications-visitor | a visitor opening /notifications: Login over the page, 'Sign in to see this page.' |
| home | Home signed in as alice: composer and the Following tab |
| home-everyone | Home, Everyone tab |
| post | a 280-character post with its replies |
| reply-conversation | a reply's page: the conversation above it, 'Replying to @…', its own reply below |
| profile | alice's own profile: cover, large avatar, bio, counts, posts |
| edit-profile-modal | the Edit your profile modal |
| edit-profile-problems | Save with an empty name and username: both flagged; a cover that only claims to be a PNG, refused |
| profile-long-name | a profile with a 50-character name and no avatar |
| profile-unfollow-hover | the pointer on 'Following' turns it to 'Unfollow' |
| profile-empty | a profile with nothing in it yet |
| compose-modal | the modal the 'Tweet' button opens |
| sign-out-confirm | (390 only) Logout on a phone asks 'Sign out of Pipit?' |
| notifications | alice's notifications: follows, likes, replies, a mention (unread at 1280, read at 390) |
| composer-visibility-menu | Home's composer with its visibility menu open: the four, each with its meaning, and who can quote |
| visibility-badges | Fern's own profile: a followers-only, a mentioned-only and an unlisted post, each with its icon; Repost disabled on the first two |
| reply-visibility-menu | the reply composer under a followers-only post: it starts there; Public and Unlisted are refused with the reason |
| settings-default-visibility | Settings' "Default post visibility", Followers only chosen (Save enabled) |
`,
    );
  } catch (error) {
    mkdirSync(ARTIFACTS, { recursive: true });
    await current?.screenshot({ path: path.join(ARTIFACTS, 'screenshots-failure.png') }).catch(() => {});
    throw error;
  } finally {
    await browser.close();
    await server.stop();
    web.remove();
  }
}

await main();
