/**
 * Link cards, as people see them: a member posts a link from the composer, the post shows at once, and
 * its card (picture, site, title, description) appears under it without a reload when the server has
 * fetched the page — here served from 127.0.0.1 (CARDS_ALLOW_LOOPBACK, the test setting). The card is
 * one link that opens the page in a new tab. Screenshots at 1280 and 390 go to docs/screenshots/.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { person } from '../support/api.ts';
import { checkA11y, composer, newPerson, type Person, PHONE, postCard, visible } from '../support/browser.ts';
import { demoPicture } from '../support/images.ts';
import { journey } from '../support/journey.ts';
import { ROOT } from '../support/server.ts';

const SHOTS = path.join(ROOT, 'docs/screenshots');

let pages: http.Server;
let origin = '';
beforeAll(async () => {
  const wide = await demoPicture(1200, 630, '#38bdf8', '#065f46');
  const square = await demoPicture(600, 600, '#fde047', '#ea580c');
  const served: Record<string, [string, string | Buffer]> = {
    '/swifts': [
      'text/html; charset=utf-8',
      `<!doctype html><html><head><title>Swifts</title>
        <meta property="og:title" content="How to tell swifts from swallows">
        <meta property="og:description" content="Swifts never perch on wires, have sickle wings and scream in flight. A field guide for the first warm evenings of the year.">
        <meta property="og:site_name" content="Birding Weekly">
        <meta property="og:image" content="/swifts.jpg"></head><body></body></html>`,
    ],
    '/swifts.jpg': ['image/jpeg', wide],
    '/bread': [
      'text/html; charset=utf-8',
      `<!doctype html><html><head><title>A slow sourdough, step by step</title>
        <meta name="description" content="Flour, water, salt and two days of patience.">
        <meta property="og:image" content="/bread.jpg"></head><body></body></html>`,
    ],
    '/bread.jpg': ['image/jpeg', square],
  };
  pages = http.createServer((req, res) => {
    const page = served[req.url ?? ''];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': page[0] }).end(page[1]);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => pages.close(() => resolve())));

async function shot(page: Page, name: string) {
  await page.mouse.move(0, 0);
  // Not networkidle: the live stream stays open. The pictures on screen have loaded.
  await page.waitForFunction(() =>
    [...document.images]
      .filter((img) => {
        const r = img.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
      })
      .every((img) => img.complete),
  );
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

describe('link cards', () => {
  const j = journey('cards', { env: { NODE_ENV: 'test', CARDS_ALLOW_LOOPBACK: 'true' } });
  let reader: Person;
  let postPath = '';

  j.step('a posted link gets its card under the post, live, as one link to the page', async () => {
    const mia = await person(j.url, 'mia', 'Mia Meadows');
    await mia.client.post(`Two days of patience, worth every minute. ${origin}/bread`);
    reader = await newPerson(j.browser, j.url);
    j.people.push(reader);
    await reader.context.addCookies(mia.client.browserCookies());
    const { page } = reader;
    const streaming = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/stream');
    await page.goto('/');
    expect((await streaming).status()).toBe(200);

    const text = 'The swifts are back! Here is how to tell them from swallows:';
    const { box, submit } = composer(page);
    await box.fill(`${text} ${origin}/swifts`);
    await submit.click();
    const written = postCard(page.getByRole('tabpanel', { name: 'Following' }), text);
    await visible(written);
    // The card arrives after the post, pushed by the live stream (no reload).
    const card = await visible(written.getByRole('link', { name: /How to tell swifts from swallows/ }));
    expect(await card.getAttribute('href')).toBe(`${origin}/swifts`);
    expect(await card.getAttribute('target')).toBe('_blank');
    expect(await card.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    await expect(card.textContent()).resolves.toContain('Birding Weekly');
    await visible(card.locator('img'));
    await checkA11y(page, 'Home with a link card');
    await shot(page, 'link-card-home-1280');

    await written.locator('a[href^="/posts/"]').first().click();
    await page.waitForURL(/\/posts\/\d+$/);
    postPath = new URL(page.url()).pathname;
    await visible(page.getByRole('main').getByRole('link', { name: /How to tell swifts from swallows/ }));
    await shot(page, 'link-card-post-1280');
  });

  j.step('on a phone the card fits the column: wide pictures on top, others on the left', async () => {
    const { page } = reader;
    await page.setViewportSize(PHONE);
    await page.goto('/');
    await visible(page.getByRole('link', { name: /A slow sourdough/ }));
    await visible(page.getByRole('link', { name: /How to tell swifts from swallows/ }));
    await shot(page, 'link-card-home-390');
    await page.goto(postPath);
    await visible(page.getByRole('main').getByRole('link', { name: /How to tell swifts from swallows/ }));
    await shot(page, 'link-card-post-390');
  });
});
