/**
 * Writing as people expect (issue 28): a member writes a post behind a content warning with "CW";
 * another member sees the warning, not the text, until "Show more" (and "Show less" closes it); the
 * author edits it from the pencil (the composer starts with its text and warning; "Save"); the
 * reader's page shows the new text live, marked "Edited", whose history lists both versions with
 * what changed.
 */
import type { Post, User } from '@pipit/contract';
import { describe, expect } from 'vitest';
import { type ApiClient, person } from '../support/api.ts';
import {
  checkA11y,
  composer,
  dialog,
  openFeedTab,
  type Person,
  postCard,
  toast,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const WARNING = 'Finale spoilers';
const TEXT = 'The lighthouse keeper was the narrator all along';
const EDITED = 'The lighthouse keeper was the narrator all along, and the gulls knew';

describe('content warnings and edits', () => {
  const j = journey('edits');
  let ida: { user: User; client: ApiClient };
  let ivo: { user: User; client: ApiClient };
  let idas: Person;
  let ivos: Person;
  let post: Post;

  const signedInAs = j.signedInAs;

  j.step('writes a post behind a content warning with CW', async () => {
    ida = await person(j.url, 'ida', 'Ida Writer');
    ivo = await person(j.url, 'ivo', 'Ivo Reader');
    await ivo.client.follow(ida.user.id);
    idas = await signedInAs('ida@example.com');
    const { page } = idas;
    await page.goto('/');
    const home = await openFeedTab(page, 'Following');
    await page.getByRole('button', { name: 'CW (content warning)' }).click();
    await page.getByRole('textbox', { name: 'Content warning' }).fill(WARNING);
    const { box, submit } = composer(page);
    await box.fill(TEXT);
    await checkA11y(page, 'the composer with a content warning');
    await submit.click();
    await visible(toast(page, 'Your post was sent'));
    // The author's own copy is behind the warning too.
    const card = await visible(postCard(home, WARNING));
    expect(await card.getByText(TEXT).count()).toBe(0);
    const mine = await ida.client.raw('GET', `/api/users/${ida.user.id}/posts`);
    post = (mine.body as { items: Post[] }).items[0] as Post;
    expect(post).toMatchObject({ text: TEXT, spoilerText: WARNING, sensitive: true, editedAt: null });
  });

  j.step('a reader sees the warning, then the text after “Show more”; “Show less” closes it', async () => {
    ivos = await signedInAs('ivo@example.com');
    const { page } = ivos;
    await page.goto(`/posts/${post.id}`);
    const main = page.getByRole('main');
    await visible(main.getByText(WARNING));
    expect(await main.getByText(TEXT).count()).toBe(0);
    // The page's title says the warning, never the text.
    expect(await page.title()).toContain(WARNING);
    expect(await page.title()).not.toContain('lighthouse');
    await checkA11y(page, 'a post behind a content warning');
    await main.getByRole('button', { name: 'Show more' }).click();
    await visible(main.getByText(TEXT));
    await main.getByRole('button', { name: 'Show less' }).click();
    await waitFor(async () => (await main.getByText(TEXT).count()) === 0, 'the text hidden again');
    await main.getByRole('button', { name: 'Show more' }).click();
    await visible(main.getByText(TEXT));
  });

  j.step(
    'the author edits it from the pencil: the composer starts with it, Save; the reader’s page follows live',
    async () => {
      const { page } = idas;
      const card = await visible(postCard(page.getByRole('main'), WARNING));
      await card.getByRole('button', { name: 'Edit', exact: true }).click();
      const editor = await visible(dialog(page, 'Edit post'));
      const box = editor.getByRole('textbox', { name: 'Edit your post' });
      expect(await box.inputValue()).toBe(TEXT);
      expect(await editor.getByRole('textbox', { name: 'Content warning' }).inputValue()).toBe(WARNING);
      await checkA11y(page, 'the edit composer');
      await box.fill(EDITED);
      await editor.getByRole('button', { name: 'Save' }).click();
      await visible(toast(page, 'Your post was saved'));
      await card.getByRole('button', { name: 'Show more' }).click();
      await visible(card.getByText(EDITED));
      await visible(card.getByRole('button', { name: 'Edited' }));

      // Ivo's open page shows the new text without a reload (post.updated), still opened as he left it.
      const reader = ivos.page.getByRole('main');
      await visible(reader.getByText(EDITED));
      await visible(reader.getByRole('button', { name: 'Edited' }));
    },
  );

  j.step('“Edited” opens the history: both versions, oldest first, with what changed', async () => {
    const { page } = ivos;
    await page.getByRole('main').getByRole('button', { name: 'Edited' }).click();
    const history = await visible(dialog(page, 'Edit history'));
    const versions = history.getByRole('list', { name: 'Versions, oldest first' }).locator(':scope > li');
    await waitFor(async () => (await versions.count()) === 2, 'two versions');
    await visible(versions.nth(0).getByText('Original'));
    await visible(versions.nth(0).getByText(TEXT, { exact: true }));
    await visible(versions.nth(1).getByText('Text changed'));
    await visible(versions.nth(1).getByText(EDITED));
    await checkA11y(page, 'the edit history');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await history.count()) === 0, 'the history closed');
  });
});
