/**
 * Messages, as people see them: a post for mentioned people only arrives live on the reader's open
 * Messages page, unread (the row and the nav's dot say so); opening it shows the thread and marks it
 * read; deleting it (after a confirmation) leaves the empty page.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { person } from '../support/api.ts';
import { checkA11y, gone, newPerson, type Person, sessionKnown, visible } from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const SECRET = 'Surprise party for Cleo on Friday, keep it quiet.';

const messagesDot = (page: Page) => page.getByRole('navigation').first().getByTestId('messages-dot');

describe('messages', () => {
  const j = journey('messages');
  let ben: Person;

  j.step('a direct post arrives live on the open Messages page, unread', async () => {
    const ana = await person(j.url, 'ana', 'Ana Sender');
    const benApi = await person(j.url, 'ben', 'Ben Reader');
    ben = await newPerson(j.browser, j.url);
    j.people.push(ben);
    await ben.context.addCookies(benApi.client.browserCookies());
    const streaming = ben.page.waitForResponse((res) => new URL(res.url()).pathname === '/api/stream');
    await ben.page.goto('/messages');
    expect((await streaming).status()).toBe(200);
    await sessionKnown(ben.page);
    await visible(ben.page.getByText('No conversations yet'));
    await checkA11y(ben.page, 'messages (empty)');

    const sent = await ana.client.raw('POST', '/api/posts', { json: { text: `@ben ${SECRET}`, visibility: 'direct' } });
    expect(sent.status).toBe(201);
    const row = await visible(ben.page.getByRole('article', { name: 'Conversation with Ana Sender, unread' }));
    await visible(row.getByText(SECRET, { exact: false }));
    await visible(messagesDot(ben.page));
    await checkA11y(ben.page, 'messages (one unread)');
  });

  j.step('opening it shows the thread and marks it read', async () => {
    await ben.page
      .getByRole('article', { name: /Conversation with Ana Sender/ })
      .getByText(SECRET)
      .click();
    await ben.page.waitForURL(/\/posts\/\d+$/);
    await visible(ben.page.getByRole('main').getByText(SECRET, { exact: false }).first());
    await gone(messagesDot(ben.page));
    await ben.page.goBack();
    await visible(ben.page.getByRole('article', { name: 'Conversation with Ana Sender' }));
  });

  j.step('deleting it asks first, then leaves the empty page', async () => {
    await ben.page.getByRole('button', { name: 'Delete conversation with Ana Sender' }).click();
    const confirm = await visible(ben.page.getByRole('dialog', { name: 'Delete conversation?' }));
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await visible(ben.page.getByText('No conversations yet'));
    await ben.page.reload();
    await visible(ben.page.getByText('No conversations yet'));
  });
});
