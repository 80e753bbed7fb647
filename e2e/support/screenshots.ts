import path from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from './browser.ts';
import { ROOT } from './server.ts';

/** Where the screenshot scripts write: the pictures the docs show (docs/screenshots/README.md). */
export const SCREENSHOTS = path.join(ROOT, 'docs/screenshots');

/** Waits until the page is still: no requests in flight, fonts loaded, the images on screen decoded. */
export async function ready(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
  await waitFor(
    () =>
      page.evaluate(() =>
        // Lazy images below the fold never load; only what is on screen matters.
        [...document.images]
          .filter((img) => {
            const r = img.getBoundingClientRect();
            return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
          })
          .every((img) => img.complete),
      ),
    'images on screen to finish loading',
  );
}

/** Saves `<name>-<width>.png` in docs/screenshots once the page is ready, without hover effects. */
export async function shot(page: Page, name: string, width: number) {
  await page.mouse.move(0, 0);
  await ready(page);
  const file = path.join(SCREENSHOTS, `${name}-${width}.png`);
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  console.log(`  ${path.relative(ROOT, file)}`);
}
