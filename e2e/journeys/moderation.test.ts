/**
 * A community keeps itself civil: the first account (the admin) names a moderator; a member reports
 * an abusive post with its flag and then the account from its profile; the moderator removes the
 * post and suspends the account from the Moderation page; the suspended person is signed out and
 * told why when signing in; the reporter sees what came of both reports in Settings; the audit log
 * shows every act; the moderator lifts the suspension and the person is back.
 */
import type { Post, User } from '@pipit/contract';
import { describe } from 'vitest';
import { type ApiClient, PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  dialog,
  gone,
  navItem,
  newPerson,
  type Person,
  postCard,
  signedOut,
  signInThroughModal,
  toast,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const ABUSE = 'Troll Tom says you are all idiots';
const HARMLESS = 'Troll Tom likes kites too';

describe('a community keeps itself civil', () => {
  const j = journey('moderation');
  let ada: Person;
  let mo: Person;
  let rita: Person;
  let tom: Person;
  let tomUser: User;
  let abuse: Post;
  let tomClient: ApiClient;

  j.step('the first account is the admin; she names a moderator from the Team tab', async () => {
    await person(j.url, 'ada', 'Ada Admin');
    await person(j.url, 'mo', 'Mo Moderator');
    await person(j.url, 'rita', 'Rita Reporter');
    const troll = await person(j.url, 'tom', 'Troll Tom');
    tomUser = troll.user;
    tomClient = troll.client;
    await tomClient.post(HARMLESS);
    abuse = await tomClient.post(ABUSE);

    ada = await newPerson(j.browser, j.url);
    j.people.push(ada);
    await ada.page.goto('/');
    await signInThroughModal(ada.page, 'ada@example.com', PASSWORD);
    await navItem(ada.page, 'Moderation').click();
    await visible(ada.page.getByText('No open reports'));
    await ada.page.getByRole('tab', { name: 'Team' }).click();
    await ada.page.getByLabel('Name a moderator (username)').fill('mo');
    await ada.page.getByRole('button', { name: 'Make moderator' }).click();
    await visible(toast(ada.page, '@mo is now a moderator'));
    const team = ada.page.getByRole('list', { name: 'Moderators and admins' });
    await visible(team.getByText('@mo · Moderator'));
    await checkA11y(ada.page, 'the Team tab');
  });

  j.step('a member reports the abusive post with its flag, then the account from its profile', async () => {
    tom = await newPerson(j.browser, j.url);
    j.people.push(tom);
    await tom.page.goto('/');
    await signInThroughModal(tom.page, 'tom@example.com', PASSWORD);

    rita = await newPerson(j.browser, j.url);
    j.people.push(rita);
    const { page } = rita;
    await page.goto('/');
    await signInThroughModal(page, 'rita@example.com', PASSWORD);
    await page.goto(`/posts/${abuse.id}`);
    const post = await visible(page.getByRole('article').filter({ hasText: ABUSE }));
    await post.getByRole('button', { name: 'Report post' }).click();
    const report = await visible(dialog(page, 'Report @tom’s post'));
    await checkA11y(page, 'the Report dialog');
    await report.getByRole('button', { name: 'Report' }).click();
    await visible(report.getByText('Choose what is wrong.'));
    await report.getByRole('radio', { name: 'Harassment or bullying' }).check();
    await report.getByLabel(/Anything moderators should know/).fill('He calls everyone names.');
    await report.getByRole('button', { name: 'Report' }).click();
    await gone(report);
    await visible(toast(page, 'A moderator will look at it'));

    await page.goto(`/users/${tomUser.id}`);
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Report @tom' }).click();
    const account = await visible(dialog(page, 'Report @tom'));
    await account.getByRole('radio', { name: 'Spam' }).check();
    await account.getByRole('button', { name: 'Report' }).click();
    await gone(account);

    await page.goto('/settings');
    const mine = await visible(page.getByRole('list', { name: 'Your reports' }));
    await visible(mine.getByText('Open: a moderator will look at it'));
  });

  j.step('the moderator reads the report with its content and removes the post', async () => {
    mo = await newPerson(j.browser, j.url);
    j.people.push(mo);
    const { page } = mo;
    await page.goto('/');
    await signInThroughModal(page, 'mo@example.com', PASSWORD);
    await navItem(page, 'Moderation').click();
    const card = await visible(page.getByRole('article', { name: /Harassment or bullying · a post by @tom/ }));
    await visible(card.getByText(ABUSE));
    await visible(card.getByText('“He calls everyone names.”'));
    await visible(card.getByText('2 open reports about them'));
    await checkA11y(page, 'the Moderation page');
    await card.getByRole('button', { name: 'Remove post' }).click();
    const confirm = await visible(dialog(page, 'Remove this post?'));
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await visible(toast(page, 'Post removed'));
    await gone(card);
    // Gone for everyone.
    await rita.page.goto(`/posts/${abuse.id}`);
    await visible(rita.page.getByText('This post doesn’t exist.'));
  });

  j.step('suspends the account from its report: he is signed out, told why, and his profile says so', async () => {
    const { page } = mo;
    const card = await visible(page.getByRole('article', { name: /Spam · the account @tom/ }));
    await card.getByRole('button', { name: 'Suspend @tom' }).click();
    const confirm = await visible(dialog(page, 'Suspend @tom?'));
    await confirm.getByRole('button', { name: 'Suspend' }).click();
    await visible(toast(page, 'Account suspended'));
    await visible(page.getByText('No open reports'));

    await tom.page.reload();
    await waitFor(() => signedOut(tom.page), 'the suspended person to be signed out');
    await navItem(tom.page, 'Profile').click();
    const login = await visible(dialog(tom.page, 'Login'));
    await login.getByLabel('Email', { exact: true }).fill('tom@example.com');
    await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await login.getByRole('button', { name: 'Sign In' }).click();
    await visible(login.getByText('This account is suspended.'));

    await rita.page.goto(`/users/${tomUser.id}`);
    await visible(rita.page.getByText('This account is suspended'));
    await gone(postCard(rita.page, HARMLESS));
  });

  j.step('the reporter sees what came of both reports; the log shows every act', async () => {
    await rita.page.goto('/settings');
    const mine = await visible(rita.page.getByRole('list', { name: 'Your reports' }));
    await visible(mine.getByText('The post was removed'));
    await visible(mine.getByText('The account was suspended'));

    // A moderator's Settings lead to the Moderation page (phones have no room for it in the bar).
    await mo.page.goto('/settings');
    await visible(mo.page.getByRole('link', { name: 'Open the reports' }));
    await checkA11y(mo.page, 'Settings as a moderator');
    await mo.page.getByRole('link', { name: 'Open the reports' }).click();
    await mo.page.getByRole('tab', { name: 'Log' }).click();
    const log = await visible(mo.page.getByRole('list', { name: 'Audit log' }));
    for (const line of ['@mo suspended @tom', '@mo removed a post by @tom', '@ada made @mo a moderator']) {
      await visible(log.getByText(line));
    }
  });

  j.step('the moderator lifts the suspension: he signs in again and his posts are back', async () => {
    const { page } = mo;
    await page.getByRole('tab', { name: 'Suspended' }).click();
    const list = await visible(page.getByRole('list', { name: 'Suspended accounts' }));
    await list.getByRole('button', { name: 'Lift suspension' }).click();
    await visible(toast(page, 'Lifted the suspension of @tom'));
    await visible(page.getByText('No suspended accounts'));

    const login = dialog(tom.page, 'Login');
    await login.getByRole('button', { name: 'Sign In' }).click();
    await gone(login);
    await rita.page.goto(`/users/${tomUser.id}`);
    await visible(postCard(rita.page, HARMLESS));
  });
});
