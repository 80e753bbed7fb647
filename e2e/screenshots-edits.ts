/**
 * `npm run screenshots:edits -w e2e`: the pictures of issue 28's writing features (content warnings,
 * the composer's CW, the edit composer, the edit history) at 1280×900 and 390×844, into
 * docs/screenshots/ beside the others — a small world of its own, so refreshing them does not take
 * the whole `npm run screenshots`. Look at every one of them after a change.
 */
import { mkdirSync } from 'node:fs';
import { buildWebIfStale } from '../scripts/web-build.mjs';
import { ApiClient, person } from './support/api.ts';
import { DESKTOP, dialog, launchBrowser, newPerson, PHONE, postCard, visible } from './support/browser.ts';
import { demoPicture } from './support/images.ts';
import { SCREENSHOTS, shot } from './support/screenshots.ts';
import { snapshotWebDist, startServer } from './support/server.ts';

const OUT = SCREENSHOTS;

async function main() {
  buildWebIfStale();
  mkdirSync(OUT, { recursive: true });
  const web = snapshotWebDist();
  const server = await startServer({ skipBuild: true, webDist: web.dir });
  const browser = await launchBrowser();
  try {
    const alice = await person(server.url, 'alice', 'Alice Anderson');
    const bob = await person(server.url, 'bob', 'Bob Builder');
    await alice.client.follow(bob.user.id);
    await bob.client.post('Morning walk done. Coffee next.');
    const pictures = await Promise.all([
      bob.client.upload(await demoPicture(1600, 1000, '#38bdf8', '#065f46'), 'image/jpeg'),
      bob.client.upload(await demoPicture(1200, 900, '#fde047', '#ea580c'), 'image/jpeg'),
    ]);
    const sensitive = await bob.client.postWith({
      text: 'The wound on the heron’s wing, healing well at the shelter.',
      media: [{ id: pictures[0]!.id, alt: 'A heron’s wing with a bandage' }],
      sensitive: true,
    });
    const warned = await bob.client.postWith({
      text: 'The last episode: the lighthouse keeper was the narrator all along. I did not see it coming!',
      spoilerText: 'Spoilers: The Lighthouse, finale',
      media: [{ id: pictures[1]!.id, alt: 'A lighthouse at dusk' }],
    });
    // Alice's own post, edited twice: its history.
    const mine = await alice.client.postWith({ text: 'Bread from the new bakery on Elm Street: good crust.' });
    const edit = async (json: object) => {
      const res = await alice.client.raw('PATCH', `/api/posts/${mine.id}`, { json });
      if (res.status !== 200) throw new Error(`edit: ${res.status} ${JSON.stringify(res.body)}`);
    };
    await edit({ text: 'Bread from the new bakery on Elm Street: great crust, soft crumb.', spoilerText: 'Food' });
    const crumb = await alice.client.upload(await demoPicture(1200, 900, '#fbbf24', '#92400e'), 'image/jpeg');
    await edit({ spoilerText: '', media: [{ id: crumb.id, alt: 'A loaf cut open' }] });
    void sensitive;
    void warned;
    const session = new ApiClient(server.url);
    await session.signIn('alice@example.com');

    for (const viewport of [DESKTOP, PHONE]) {
      const w = viewport.width;
      console.log(`${w}×${viewport.height}:`);
      const someone = await newPerson(browser, server.url, { viewport });
      await someone.context.addCookies(session.browserCookies());
      await someone.context.addInitScript(() => localStorage.setItem('pipit.member', '1'));
      const page = someone.page;
      await page.goto('/');
      const main = page.getByRole('main');
      const card = await visible(postCard(main, 'Spoilers: The Lighthouse'));
      await card.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, 'content-warning-closed', w);
      await card.getByRole('button', { name: 'Show more' }).click();
      await visible(card.getByText('the lighthouse keeper was the narrator', { exact: false }));
      await shot(page, 'content-warning-open', w);

      // The composer with its CW on (the Tweet button's modal on a phone, the inline one on a desktop).
      if (w === PHONE.width) {
        await page.getByRole('button', { name: 'Tweet' }).first().click();
      } else {
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      const scope = w === PHONE.width ? await visible(dialog(page, 'New post')) : main;
      await scope.getByRole('button', { name: 'CW (content warning)' }).click();
      await scope.getByRole('textbox', { name: 'Content warning' }).fill('Spoilers: The Lighthouse, finale');
      await scope.getByRole('textbox', { name: "What's happening?" }).fill('That ending! Who else saw it coming?');
      await shot(page, 'composer-content-warning', w);
      if (w === PHONE.width) await page.keyboard.press('Escape');

      // The edit composer and the history of alice's own post.
      await page.goto(`/posts/${mine.id}`);
      const detail = await visible(page.getByRole('article', { name: 'Post by Alice Anderson' }));
      await detail.getByRole('button', { name: 'Edit', exact: true }).click();
      await visible(dialog(page, 'Edit post'));
      await shot(page, 'edit-composer', w);
      await page.keyboard.press('Escape');
      await detail.getByRole('button', { name: 'Edited' }).click();
      const history = await visible(dialog(page, 'Edit history'));
      await visible(history.getByText('Original'));
      await shot(page, 'edit-history', w);
      await someone.context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    web.remove();
  }
}

await main();
