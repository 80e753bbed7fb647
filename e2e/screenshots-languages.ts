/**
 * `npm run screenshots:languages -w e2e`: issue 30's languages — Home, a post, a profile, Settings and the
 * composer in Arabic (right to left) and Spanish, at 1280×900 and 390×844, into docs/screenshots/ as
 * `lang-<locale>-<page>-<width>.png`. The language is the one a person picks in Settings (kept in
 * localStorage). Look at every one of them after a change: the layout must mirror in Arabic.
 */
import { mkdirSync } from 'node:fs';
import { buildWebIfStale } from '../scripts/web-build.mjs';
import { ApiClient, person } from './support/api.ts';
import { DESKTOP, dialog, launchBrowser, newPerson, PHONE, visible } from './support/browser.ts';
import { demoPicture } from './support/images.ts';
import { SCREENSHOTS, shot } from './support/screenshots.ts';
import { snapshotWebDist, startServer } from './support/server.ts';

async function main() {
  buildWebIfStale();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const web = snapshotWebDist();
  const server = await startServer({ skipBuild: true, webDist: web.dir });
  const browser = await launchBrowser();
  try {
    const alice = await person(server.url, 'alice', 'Alice Anderson');
    const layla = await person(server.url, 'layla', 'ليلى حسن');
    const bob = await person(server.url, 'bob', 'Bob Builder');
    await alice.client.follow(layla.user.id);
    await alice.client.follow(bob.user.id);
    await bob.client.follow(alice.user.id);
    await bob.client.post('Morning walk done. Coffee next. #birds');
    const picture = await layla.client.upload(await demoPicture(1600, 1000, '#38bdf8', '#065f46'), 'image/jpeg');
    const heron = await layla.client.post('رأيت مالك الحزين على ضفة النهر هذا الصباح 🐦 #طيور', undefined, [
      { id: picture.id, alt: 'مالك الحزين على ضفة النهر' },
    ]);
    await alice.client.post('Beautiful! Where exactly was it?', heron.id);
    await bob.client.like(heron.id);
    await alice.client.like(heron.id);
    await bob.client.repost(heron.id);
    const session = new ApiClient(server.url);
    await session.signIn('alice@example.com');

    for (const locale of ['ar', 'es'] as const) {
      for (const viewport of [DESKTOP, PHONE]) {
        const w = viewport.width;
        console.log(`${locale} ${w}×${viewport.height}:`);
        const someone = await newPerson(browser, server.url, { viewport });
        await someone.context.addCookies(session.browserCookies());
        await someone.context.addInitScript((lang) => {
          localStorage.setItem('pipit.member', '1');
          localStorage.setItem('pipit.locale', lang);
        }, locale);
        const page = someone.page;
        await page.goto('/');
        await visible(page.locator(`html[lang="${locale}"]`));
        await visible(page.getByRole('main').getByRole('article').first());
        await shot(page, `lang-${locale}-home`, w);

        await page.goto(`/posts/${heron.id}`);
        await visible(page.getByRole('main').getByRole('article').first());
        await shot(page, `lang-${locale}-post`, w);

        await page.goto(`/users/${layla.user.id}`);
        await visible(page.getByRole('main').getByRole('article').first());
        await shot(page, `lang-${locale}-profile`, w);

        await page.goto('/settings');
        await visible(page.getByRole('main').locator('select').first());
        await shot(page, `lang-${locale}-settings`, w);

        // The composer: the modal of the floating button on a phone, the inline one on a desktop.
        await page.goto('/');
        await visible(page.getByRole('main').getByRole('article').first());
        if (w === PHONE.width) {
          await page
            .getByRole('button', { name: locale === 'ar' ? 'نشر' : 'Publicar', exact: true })
            .first()
            .click();
          await visible(dialog(page, locale === 'ar' ? 'منشور جديد' : 'Nueva publicación'));
        }
        const box = page.getByRole('textbox').filter({ hasNot: page.locator('[type=search]') });
        await box.last().fill(locale === 'ar' ? 'صباح الخير من Pipit' : 'Buenos días desde Pipit');
        await shot(page, `lang-${locale}-composer`, w);
        await someone.context.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    web.remove();
  }
}

await main();
