/**
 * Polls, as people use them: a member writes a post with a poll behind a content warning in the
 * composer (three choices, a length, the image button off while it is open); another member opens it,
 * shows it ("Show more"), votes, and sees the
 * results with their choice marked, while the author's open page takes the new count live; a visitor
 * is asked to sign in to vote; the author changes a choice with Edit (the composer keeps the poll) and the
 * voter's vote goes, their page showing the new choices live and their notifications the edit. Screenshots of the composer and the poll at 1280 and 390 wide go to
 * e2e/.artifacts/ (looked at by hand).
 */
import path from 'node:path';
import type { Post, User } from '@pipit/contract';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ApiClient, person } from '../support/api.ts';
import {
  ARTIFACTS,
  checkA11y,
  composer,
  dialog,
  navItem,
  newPerson,
  openFeedTab,
  type Person,
  PHONE,
  toast,
  visible,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const QUESTION = 'Which bird sings first at dawn?';
/** The poll is behind a content warning: the journey writes with a warning and a poll. */
const WARNING = 'Birdsong quiz';

describe('polls', () => {
  const j = journey('polls');
  let ivy: { user: User; client: ApiClient };
  let ivys: Person;
  let jays: Person;
  let poll: Post;

  const signedInAs = j.signedInAs;
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `polls-${name}.png`), fullPage: false });

  /** Opens `url` and waits until the page's live stream has answered (so nothing pushed is missed). */
  async function openLive(page: Page, url: string) {
    const streaming = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/stream');
    await page.goto(url);
    expect((await streaming).status()).toBe(200);
  }

  j.step('writes a post with a poll in the composer: three choices, six hours, no images meanwhile', async () => {
    ivy = await person(j.url, 'ivy', 'Ivy Asker');
    const jay = await person(j.url, 'jay', 'Jay Voter');
    await jay.client.follow(ivy.user.id);

    ivys = await signedInAs('ivy@example.com');
    const { page } = ivys;
    await page.goto('/');
    await openFeedTab(page, 'Following');
    const { box, form, submit } = composer(page);
    await box.fill(QUESTION);
    await form.getByRole('button', { name: 'CW (content warning)' }).click();
    await form.getByRole('textbox', { name: 'Content warning' }).fill(WARNING);
    await form.getByRole('button', { name: 'Add a poll' }).click();
    const editor = await visible(form.getByRole('group', { name: 'Poll' }));
    expect(await form.getByRole('button', { name: 'Add images' }).isDisabled()).toBe(true);
    // Two empty choices: nothing can be posted yet.
    expect(await submit.isDisabled()).toBe(true);
    await editor.getByRole('textbox', { name: 'Choice 1' }).fill('Robin');
    await editor.getByRole('textbox', { name: 'Choice 2' }).fill('Wren');
    await editor.getByRole('button', { name: 'Add a choice' }).click();
    await editor.getByRole('textbox', { name: 'Choice 3' }).fill('Blackbird');
    await editor.getByRole('combobox', { name: 'Poll length' }).selectOption({ label: '6 hours' });
    await checkA11y(page, 'the composer with a poll');
    await shot(page, 'composer-1280');
    await submit.click();
    await visible(toast(page, 'Your post was sent'));
    const mine = await ivy.client.raw('GET', `/api/users/${ivy.user.id}/posts`);
    poll = (mine.body as { items: Post[] }).items.find((p) => p.text === QUESTION) as Post;
    expect(poll.spoilerText).toBe(WARNING);
    expect(poll.poll).toMatchObject({
      multiple: false,
      hideTotals: false,
      options: [{ title: 'Robin' }, { title: 'Wren' }, { title: 'Blackbird' }],
    });
    // Its author sees the results (nobody has voted yet), not a ballot.
    await openLive(page, `/posts/${poll.id}`);
    // Behind its warning, the poll is hidden too until "Show more".
    expect(await page.getByRole('main').getByRole('list', { name: 'Poll results' }).count()).toBe(0);
    await page.getByRole('main').getByRole('button', { name: 'Show more' }).click();
    await visible(page.getByRole('main').getByRole('list', { name: 'Poll results' }));
    await visible(page.getByRole('main').getByText(/^0 votes · 5 hours left$/));
  });

  j.step('another member votes; both pages show the count, the voter’s choice marked', async () => {
    jays = await signedInAs('jay@example.com');
    const { page } = jays;
    await page.goto(`/posts/${poll.id}`);
    const main = page.getByRole('main');
    await visible(main.getByText(WARNING));
    await main.getByRole('button', { name: 'Show more' }).click();
    const ballot = await visible(main.getByRole('group', { name: 'Poll: choose one' }));
    await checkA11y(page, 'a poll to vote in');
    await ballot.getByRole('radio', { name: 'Wren' }).check();
    await ballot.getByRole('button', { name: 'Vote' }).click();
    const results = await visible(main.getByRole('list', { name: 'Poll results' }));
    await visible(results.getByRole('listitem').filter({ hasText: 'Wren' }).getByText('Your choice'));
    await visible(results.getByText('100%'));
    await visible(main.getByText(/^1 vote · /));
    await checkA11y(page, 'a poll after voting');
    await shot(page, 'voted-1280');
    // The author's open page took the vote live, without a reload.
    await visible(ivys.page.getByRole('main').getByText(/^1 vote · /));
    // A second vote is refused by the server.
    const again = await (async () => {
      const jay = new ApiClient(j.url);
      await jay.signIn('jay@example.com');
      return jay.raw('POST', `/api/posts/${poll.id}/poll/votes`, { json: { choices: [0] } });
    })();
    expect(again.status).toBe(422);
  });

  j.step('the author changes a choice from the pencil: the votes go, the voter is told and votes again', async () => {
    const { page } = ivys;
    await page.getByRole('main').getByRole('button', { name: 'Edit', exact: true }).first().click();
    const editor = await visible(dialog(page, 'Edit post'));
    const choices = editor.getByRole('group', { name: 'Poll' });
    expect(await editor.getByRole('textbox', { name: 'Content warning' }).inputValue()).toBe(WARNING);
    expect(await choices.getByRole('textbox', { name: 'Choice 3' }).inputValue()).toBe('Blackbird');
    expect(await editor.getByRole('button', { name: 'Add images' }).isDisabled()).toBe(true);
    await choices.getByRole('textbox', { name: 'Choice 3' }).fill('Song thrush');
    await visible(editor.getByText(/takes away the votes so far; those who voted are told/));
    await checkA11y(page, 'the edit composer with a poll');
    await shot(page, 'edit-1280');
    await editor.getByRole('button', { name: 'Save' }).click();
    await visible(toast(page, 'Your post was saved'));
    await visible(page.getByRole('main').getByText(/^0 votes · /));

    // Jay's open page takes the new choices live: his vote went, so he has a ballot again.
    const ballot = await visible(jays.page.getByRole('main').getByRole('group', { name: 'Poll: choose one' }));
    await ballot.getByRole('radio', { name: 'Song thrush' }).check();
    await ballot.getByRole('button', { name: 'Vote' }).click();
    const results = await visible(jays.page.getByRole('main').getByRole('list', { name: 'Poll results' }));
    await visible(results.getByRole('listitem').filter({ hasText: 'Song thrush' }).getByText('Your choice'));
    await jays.page.goto('/notifications');
    await visible(jays.page.getByRole('main').getByText('edited a post you interacted with'));

    // The edit composer with its poll on a phone.
    const phone = await signedInAs('ivy@example.com', PHONE);
    await phone.page.goto(`/posts/${poll.id}`);
    await phone.page.getByRole('main').getByRole('button', { name: 'Edit', exact: true }).first().click();
    await visible(dialog(phone.page, 'Edit post').getByRole('group', { name: 'Poll' }));
    await shot(phone.page, 'edit-390');
    await phone.page.keyboard.press('Escape');
  });

  j.step('on a phone, and for a visitor: the ballot asks to sign in', async () => {
    const visitor = await newPerson(j.browser, j.url, { viewport: PHONE });
    j.people.push(visitor);
    await visitor.page.goto(`/posts/${poll.id}`);
    await visitor.page.getByRole('main').getByRole('button', { name: 'Show more' }).click();
    const ballot = await visible(visitor.page.getByRole('main').getByRole('group', { name: 'Poll: choose one' }));
    await visible(ballot.getByText('Sign in to vote'));
    await shot(visitor.page, 'visitor-390');
    await ballot.getByRole('button', { name: 'Vote' }).click();
    await visible(dialog(visitor.page, 'Login'));

    const phone = await signedInAs('jay@example.com', PHONE);
    await phone.page.goto(`/posts/${poll.id}`);
    await phone.page.getByRole('main').getByRole('button', { name: 'Show more' }).click();
    await visible(phone.page.getByRole('main').getByRole('list', { name: 'Poll results' }));
    await shot(phone.page, 'voted-390');
    const author = await signedInAs('ivy@example.com', PHONE);
    await author.page.goto('/');
    await navItem(author.page, 'Tweet').click();
    const compose = await visible(dialog(author.page, 'New post'));
    await compose.getByRole('textbox', { name: "What's happening?" }).fill('Tea or coffee?');
    await compose.getByRole('button', { name: 'Add a poll' }).click();
    await visible(compose.getByRole('group', { name: 'Poll' }));
    await checkA11y(author.page, 'the phone composer with a poll');
    await shot(author.page, 'composer-390');
  });
});
