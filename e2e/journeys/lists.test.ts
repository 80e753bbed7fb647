/**
 * A member reads the people she follows apart (issue 27, lists): makes a list from the Lists page,
 * adds two people she follows from its members editor, reads their posts on the list's page (a new
 * one arrives live under "Show 1 new post"), makes the list exclusive so they leave Home, then
 * deletes it after a confirmation and they come back.
 */
import { describe } from 'vitest';
import { PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  dialog,
  gone,
  navItem,
  newPerson,
  openFeedTab,
  type Person,
  postCard,
  signInThroughModal,
  toast,
  visible,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

describe('a member keeps lists', () => {
  const j = journey('lists');
  let lia: Person;
  let bea: Awaited<ReturnType<typeof person>>;

  j.step('creates a list from the Lists page (empty at first) and lands on its members', async () => {
    const seeded = await person(j.url, 'lia', 'Lia Lister');
    bea = await person(j.url, 'bea', 'Bea Birder');
    const cal = await person(j.url, 'cal', 'Cal Crow');
    const dan = await person(j.url, 'dan', 'Dan Daily');
    for (const p of [bea, cal, dan]) await seeded.client.follow(p.user.id);
    await bea.client.post('Bea saw a kingfisher');
    await dan.client.post('Dan had toast');

    lia = await newPerson(j.browser, j.url);
    j.people.push(lia);
    const { page } = lia;
    await page.goto('/');
    await signInThroughModal(page, 'lia@example.com', PASSWORD);
    await navItem(page, 'Lists').click();
    await visible(page.getByText('No lists yet'));
    await checkA11y(page, 'the empty Lists page');
    await page.getByLabel('New list').fill('Birders');
    await page.getByRole('button', { name: 'Create' }).click();
    await visible(toast(page, 'Created “Birders”'));
    await visible(page.getByRole('tab', { name: 'Members', selected: true }));
  });

  j.step('adds two people she follows from the editor; the list shows their posts, not others', async () => {
    const { page } = lia;
    await page.getByRole('button', { name: 'Add @bea' }).click();
    await visible(page.getByRole('button', { name: 'Remove @bea' }).first());
    await page.getByLabel('Search people you follow').fill('ca');
    await page.getByRole('button', { name: 'Add @cal' }).click();
    await visible(page.getByRole('list', { name: 'Members' }).getByText('@cal'));
    await checkA11y(page, 'the members editor');
    await page.getByRole('tab', { name: 'Posts' }).click();
    const timeline = await visible(page.getByRole('region', { name: 'Birders timeline' }));
    await visible(postCard(timeline, 'Bea saw a kingfisher'));
    await gone(timeline.getByText('Dan had toast'));
    await bea.client.post('Bea: two herons now');
    await page.getByRole('button', { name: 'Show 1 new post' }).click();
    await visible(postCard(timeline, 'Bea: two herons now'));
  });

  j.step('makes it exclusive: its people leave Home; deleting it (after a confirmation) brings them back', async () => {
    const { page } = lia;
    await page.getByRole('button', { name: 'Edit list' }).click();
    const edit = await visible(dialog(page, 'Edit list'));
    await edit.getByLabel('Hide these people from Home').check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await visible(toast(page, 'List saved'));
    await visible(page.getByText('2 members · Exclusive'));
    await navItem(page, 'Home').click();
    const home = await openFeedTab(page, 'Following');
    await visible(postCard(home, 'Dan had toast'));
    await gone(home.getByText('Bea saw a kingfisher'));
    await navItem(page, 'Lists').click();
    await page.getByRole('link', { name: 'Birders' }).click();
    await page.getByRole('button', { name: 'Delete list' }).click();
    const confirm = await visible(dialog(page, 'Delete list?'));
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await visible(toast(page, 'Deleted “Birders”'));
    await visible(page.getByText('No lists yet'));
    await navItem(page, 'Home').click();
    await visible(postCard(await openFeedTab(page, 'Following'), 'Bea saw a kingfisher'));
  });
});
