/**
 * A visitor arrives: reads the Everyone feed, a post, a profile and a hashtag's page (from a post's
 * #hashtag; Trending lists it), and every members-only door
 * (Notifications, Profile, Tweet) opens the login modal instead. Login and register switch into
 * each other, an invalid email never leaves the browser, a failed sign-in says so, and opening
 * /notifications asks to sign in there (error=SessionRequired).
 */
import type { Post, User } from '@pipit/contract';
import { describe, expect } from 'vitest';
import { person } from '../support/api.ts';
import {
  checkA11y,
  dialog,
  expectNoRequest,
  feedTab,
  gone,
  navItem,
  newPerson,
  type Person,
  pathOf,
  sessionKnown,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

describe('a visitor', () => {
  const j = journey('visitor');
  let vera: User;
  let post: Post;
  let reply: Post;
  let visitor: Person;

  j.step('finds the Everyone feed on Home', async () => {
    const seeded = await person(j.url, 'vera', 'Vera Visible');
    vera = seeded.user as User;
    post = await seeded.client.post('Hello from Vera, readable by everyone');
    const other = await person(j.url, 'wes', 'Wes Writer');
    reply = await other.client.post('A reply that visitors can read too', post.id);
    await seeded.client.post('Dawn chorus today #BirdWatch');
    await other.client.post('Heard it too #birdwatch');

    visitor = await newPerson(j.browser, j.url);
    j.people.push(visitor);
    const { page } = visitor;
    await page.goto('/');
    await visible(page.getByText(post.text));
    await sessionKnown(page);
    expect(await feedTab(page, 'Everyone').getAttribute('aria-selected')).toBe('true');
    expect(await navItem(page, 'Logout').count(), 'a visitor has no Logout item').toBe(0);
    await visible(navItem(page, 'Home'));
    await checkA11y(page, 'Home (visitor)');
  });

  j.step('Notifications opens the login modal instead of navigating; Escape closes it', async () => {
    const { page } = visitor;
    const opener = navItem(page, 'Notifications');
    await opener.click();
    const login = await visible(dialog(page, 'Login'));
    expect(pathOf(page)).toBe('/');
    await visible(login.getByLabel('Email'));
    await visible(login.getByLabel('Password'));
    await visible(login.getByRole('button', { name: 'Sign In' }));
    await waitFor(
      () => login.getByLabel('Email', { exact: true }).evaluate((el) => el === document.activeElement),
      'focus to start in the Email field',
    );
    await checkA11y(page, 'Login modal');
    await page.keyboard.press('Escape');
    await gone(login);
    await waitFor(
      () => opener.evaluate((el) => el === document.activeElement),
      'focus to return to Notifications, which opened the modal',
    );
  });

  j.step('Profile opens the login modal; its close button closes it', async () => {
    const { page } = visitor;
    await navItem(page, 'Profile').click();
    const login = await visible(dialog(page, 'Login'));
    expect(pathOf(page)).toBe('/');
    await login.getByRole('button', { name: /close/i }).click();
    await gone(login);
  });

  j.step("the 'Tweet' button opens the login modal", async () => {
    const { page } = visitor;
    await navItem(page, 'Tweet').click();
    await visible(dialog(page, 'Login'));
  });

  j.step('login and register switch through their footer links', async () => {
    const { page } = visitor;
    const login = dialog(page, 'Login');
    await login.getByRole('button', { name: 'Create an account' }).click();
    const register = await visible(dialog(page, 'Create an account'));
    await gone(login);
    for (const label of ['Email', 'Name', 'Username', 'Password'])
      await visible(register.getByLabel(label, { exact: true }));
    await visible(register.getByRole('button', { name: 'Register' }));
    await visible(register.getByText('Already have an account?'));
    await checkA11y(page, 'Register modal');
    await register.getByRole('button', { name: 'Sign In' }).click();
    await visible(dialog(page, 'Login'));
    await gone(register);
  });

  j.step("login: 'Invalid email' shows while typing and blocks the request", async () => {
    const { page } = visitor;
    const login = dialog(page, 'Login');
    const email = login.getByLabel('Email', { exact: true });
    await email.pressSequentially('vera@example');
    await visible(login.getByText('Invalid email'));
    await login.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await expectNoRequest(page, /\/api\/auth\/callback\//, async () => {
      await login.getByLabel('Password', { exact: true }).press('Enter');
      const submit = login.getByRole('button', { name: 'Sign In' });
      if (await submit.isEnabled()) await submit.click();
    });
    await visible(login);
    await email.pressSequentially('.com');
    await gone(login.getByText('Invalid email'));
    await page.keyboard.press('Escape');
    await gone(login);
  });

  j.step("a failed sign-in says 'Wrong email or password.' and the modal stays usable", async () => {
    const { page } = visitor;
    await navItem(page, 'Profile').click();
    const login = await visible(dialog(page, 'Login'));
    await login.getByLabel('Email', { exact: true }).fill('vera@example.com');
    await login.getByLabel('Password', { exact: true }).fill('not the password at all');
    await login.getByRole('button', { name: 'Sign In' }).click();
    await visible(login.getByRole('alert').filter({ hasText: 'Wrong email or password.' }));
    // Focus is back in the form, and Escape still closes the modal.
    await waitFor(
      () => login.getByLabel('Password', { exact: true }).evaluate((el) => el === document.activeElement),
      'focus to go back to the password',
    );
    await checkA11y(page, 'Login modal after a failed sign-in');
    expect(
      visitor.console.some((line) => line.includes('Sign-in failed')),
      'the failure is logged too',
    ).toBe(true);
    await page.keyboard.press('Escape');
    await gone(login);
  });

  j.step("'a@bü.de' is an invalid email: checked as typed, not as punycode", async () => {
    const { page } = visitor;
    await navItem(page, 'Profile').click();
    const login = await visible(dialog(page, 'Login'));
    await login.getByLabel('Email', { exact: true }).pressSequentially('a@bü.de');
    await visible(login.getByText('Invalid email'));
    await page.keyboard.press('Escape');
    await gone(login);
  });

  j.step('opening /notifications asks to sign in there, with error=SessionRequired and the callbackUrl', async () => {
    const { page } = visitor;
    await page.goto('/notifications');
    const login = await visible(dialog(page, 'Login'));
    await visible(login.getByText('Sign in to see this page.'));
    const url = new URL(page.url());
    expect(url.pathname).toBe('/notifications');
    expect(url.searchParams.get('error')).toBe('SessionRequired');
    expect(url.searchParams.get('callbackUrl')).toBe(`${j.url}/notifications`);
    await checkA11y(page, 'Notifications (visitor, sign-in asked)');
    await page.keyboard.press('Escape');
    await gone(login);
    await visible(page.getByText('Sign in to see your notifications'));
    await page.goto('/');
  });

  j.step('reads a post page with its replies', async () => {
    const { page } = visitor;
    await page.getByText(post.text).click();
    await waitFor(() => pathOf(page) === `/posts/${post.id}`, 'the post page to open');
    await visible(page.getByText(reply.text));
    await checkA11y(page, 'Post page (visitor)');
    // The reply's own page: who it answers, and the conversation above it.
    await page.getByText(reply.text).click();
    await waitFor(() => pathOf(page) === `/posts/${reply.id}`, 'the reply page to open');
    const conversation = await visible(page.getByRole('region', { name: 'Conversation' }));
    await visible(conversation.getByText(post.text));
    await visible(page.getByRole('article', { name: 'Post by Wes Writer' }).getByText('Replying to @vera'));
    await checkA11y(page, 'Reply page with its conversation (visitor)');
  });

  j.step('reads a profile, and its Follow button asks to sign in', async () => {
    const { page } = visitor;
    await page.goto(`/users/${vera.id}`);
    await visible(page.getByRole('heading', { name: vera.name }));
    await visible(page.getByText('@vera').first());
    await visible(page.getByText(post.text));
    await checkA11y(page, 'Profile (visitor)');
    await page.getByRole('main').getByRole('button', { name: 'Follow', exact: true }).click();
    await visible(dialog(page, 'Login'));
    await page.keyboard.press('Escape');
    await gone(dialog(page, 'Login'));
  });

  j.step('follows a #hashtag from a post to its page, and finds it in Trending', async () => {
    const { page } = visitor;
    await page.goto('/');
    const trending = await visible(page.getByRole('region', { name: 'Trending' }));
    await visible(trending.getByRole('link', { name: /#birdwatch\s*2 people posting/ }));
    await page
      .getByRole('article')
      .filter({ hasText: 'Dawn chorus today' })
      .getByRole('link', { name: '#BirdWatch' })
      .click();
    await waitFor(() => pathOf(page) === '/hashtag/BirdWatch', 'the hashtag page');
    await visible(page.getByRole('heading', { name: '#birdwatch' }));
    const posts = await visible(page.getByRole('region', { name: 'Posts with #birdwatch' }));
    await visible(posts.getByText('Heard it too'));
    await visible(posts.getByText('Dawn chorus today'));
    expect(await posts.getByRole('article').count()).toBe(2);
    await checkA11y(page, 'Hashtag page (visitor)');
  });

  j.step('searches: people as one types, then posts, people and hashtags on the results page', async () => {
    const { page } = visitor;
    await page.goto('/');
    const field = page.getByRole('complementary').getByRole('combobox', { name: 'Search' });
    await field.fill('ver');
    const suggestions = page.getByRole('listbox', { name: 'Search suggestions' });
    await visible(suggestions.getByRole('option', { name: /Vera Visible/ }));
    await field.press('ArrowDown');
    await field.press('Enter');
    await waitFor(() => pathOf(page) === `/users/${vera.id}`, "Vera's profile from a suggestion");

    await page.goto('/');
    await field.fill('readable');
    await field.press('Enter');
    await waitFor(() => pathOf(page) === '/search', 'the results page');
    const results = page.getByRole('tabpanel');
    await visible(results.getByText(post.text));
    await checkA11y(page, 'Search results (visitor)');
    await page.getByRole('tab', { name: 'People' }).click();
    await visible(results.getByText('No results for “readable”'));
    const box = page.getByRole('main').getByRole('combobox', { name: 'Search' });
    await box.fill('#bird');
    await box.press('Enter');
    await waitFor(() => new URL(page.url()).searchParams.get('q') === '#bird', 'the search for #bird');
    await page.getByRole('tab', { name: 'Hashtags' }).click();
    await visible(results.getByRole('link', { name: /#birdwatch\s*2 posts/ }));
    expect(new URL(page.url()).searchParams.get('tab')).toBe('hashtags');
  });

  j.step('an unknown page, user or post shows a not-found page', async () => {
    const { page } = visitor;
    for (const path of ['/no/such/page', '/users/999999999', '/posts/999999999']) {
      await page.goto(path);
      await visible(page.getByText(/not found|doesn.t exist|404/i));
      await checkA11y(page, `Not found (${path})`);
    }
    expect(visitor.errors, 'uncaught page errors').toEqual([]);
    expect(visitor.dialogs).toEqual([]);
  });
});
