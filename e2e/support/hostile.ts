/** Hostile text and the checks that prove the browser treated it as text. */
import type { Page } from 'playwright-core';
import type { Person } from './browser.ts';

/** Set by any payload that manages to run. */
export const FLAG = '__pwned';

export const HOSTILE_NAME = `<img src=x onerror=window.${FLAG}=1>`;
export const HOSTILE_BIO = `<script>window.${FLAG}=1</script> <a href="javascript:alert(1)">click</a> javascript:alert(1)`;
/**
 * Each post's text and the parts of it that must show literally (URLs are shown shortened, without
 * their scheme, so they are left out of `shows`).
 */
export const HOSTILE_POSTS = [
  { text: `<script>window.${FLAG}=1;alert(1)</script>`, shows: [`<script>window.${FLAG}=1;alert(1)</script>`] },
  {
    text: `<img src=x onerror=alert(1)> <svg onload=window.${FLAG}=1> <iframe src="javascript:alert(1)"></iframe>`,
    shows: [`<img src=x onerror=alert(1)> <svg onload=window.${FLAG}=1> <iframe src="javascript:alert(1)"></iframe>`],
  },
  {
    text: 'javascript:alert(1) [click me](javascript:alert(1)) https://example.com/a?b="><script>alert(1)</script>',
    shows: ['javascript:alert(1) [click me](javascript:alert(1))', '"><script>alert(1)</script>'],
  },
  {
    // Greek Ρ and Cyrillic а that look Latin, fullwidth brackets, a zero-width space.
    text: 'Ρаypаl support: log in at https://pаypal.com/login now @\u0430lice ＜script＞alert(1)＜/script＞ zero\u200Bwidth',
    shows: [
      'Ρаypаl support: log in at',
      'pаypal.com/login',
      'now @\u0430lice ＜script＞alert(1)＜/script＞ zero\u200Bwidth',
    ],
  },
] as const;
export const HOSTILE_SHOWS = HOSTILE_POSTS.flatMap((p) => p.shows);
/** Cyrillic "а" in place of the Latin "a": a look-alike of alice. */
export const LOOKALIKE_NAME = '\u0430lice \u0430nderson';

export interface InertReport {
  flag: unknown;
  injected: string[];
  handlers: string[];
  badLinks: string[];
}

/** Inspects the live DOM: did any payload become markup, a handler, a script or a link that runs code? */
export async function inspect(page: Page): Promise<InertReport> {
  return page.evaluate(async (flag) => {
    // index.html's own inline scripts (the boot script, allowed by its hash in the CSP), exactly as served:
    // any other inline script, anywhere in the page, counts as injected.
    const served = await (await fetch('/', { cache: 'no-store' })).text();
    const own = new Set([...served.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]));
    const injected = [
      ...document.querySelectorAll('img[src="x"], svg[onload], iframe, object, embed, script:not([src])'),
    ]
      .filter((el) => !(el.tagName === 'SCRIPT' && own.has(el.textContent ?? '')))
      .map((el) => el.outerHTML.slice(0, 120));
    const handlers: string[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.getAttributeNames()) {
        if (attr.toLowerCase().startsWith('on')) handlers.push(`<${el.tagName.toLowerCase()} ${attr}>`);
      }
    }
    const badLinks = [...document.querySelectorAll('a[href], area[href], [formaction], [action]')]
      .map((el) => el.getAttribute('href') ?? el.getAttribute('formaction') ?? el.getAttribute('action') ?? '')
      .filter((href) => {
        try {
          return !['http:', 'https:'].includes(new URL(href, location.href).protocol);
        } catch {
          return true;
        }
      });
    return { flag: (window as unknown as Record<string, unknown>)[flag], injected, handlers, badLinks };
  }, FLAG);
}

/** Fails unless nothing ran, nothing was injected and every given text shows literally. */
export async function expectInert(person: Person, where: string, literals: readonly string[]): Promise<void> {
  const { page } = person;
  const report = await inspect(page);
  const problems: string[] = [];
  if (report.flag !== undefined) problems.push(`window.${FLAG} was set to ${JSON.stringify(report.flag)}`);
  if (report.injected.length) problems.push(`injected elements: ${report.injected.join(' | ')}`);
  if (report.handlers.length) problems.push(`inline event handlers: ${report.handlers.join(' ')}`);
  if (report.badLinks.length) problems.push(`links to non-http(s) URLs: ${report.badLinks.join(' ')}`);
  if (person.dialogs.length) problems.push(`dialogs opened: ${person.dialogs.join(' | ')}`);
  // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is the point, not the DOM's text
  const text = await page.evaluate(() => document.body.innerText);
  for (const literal of literals) {
    if (!text.includes(literal)) problems.push(`not shown literally: ${JSON.stringify(literal)}`);
  }
  if (problems.length) throw new Error(`on ${where}:\n  ${problems.join('\n  ')}`);
}
