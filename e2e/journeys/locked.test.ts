/**
 * A member who approves her followers: she turns "Approve followers" on in Settings; another member's
 * Follow on her profile becomes "Requested"; she sees the request in her notifications, opens the
 * Follow requests page from there and approves it; he now follows her and her posts reach his Home.
 */
import type { User } from '@pipit/contract';
import { describe } from 'vitest';
import { PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  newPerson,
  openFeedTab,
  type Person,
  pathOf,
  postCard,
  signInThroughModal,
  visible,
  waitFor,
} from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const LINA_POST = 'Lina’s notes, for the people she knows';

describe('a member who approves her followers', () => {
  const j = journey('locked');
  let lina: Person;
  let linaUser: User;
  let otto: Person;

  j.step('turns on "Approve followers" in Settings', async () => {
    const seeded = await person(j.url, 'lina', 'Lina Locke');
    linaUser = seeded.user;
    await seeded.client.post(LINA_POST);
    await person(j.url, 'otto', 'Otto Asker');
    lina = await newPerson(j.browser, j.url);
    j.people.push(lina);
    await lina.page.goto('/');
    await signInThroughModal(lina.page, 'lina@example.com', PASSWORD);
    await lina.page.goto('/settings');
    const box = await visible(lina.page.getByRole('checkbox', { name: 'Approve followers' }));
    await box.check();
    await visible(lina.page.getByRole('link', { name: 'See follow requests' }));
    await checkA11y(lina.page, 'Settings with Approve followers on');
  });

  j.step('another member presses Follow on her profile: it says Requested, and no follower is counted', async () => {
    otto = await newPerson(j.browser, j.url);
    j.people.push(otto);
    await otto.page.goto('/');
    await signInThroughModal(otto.page, 'otto@example.com', PASSWORD);
    await otto.page.goto(`/users/${linaUser.id}`);
    const main = otto.page.getByRole('main');
    await visible(main.getByText('@lina approves followers: following sends a request.'));
    await main.getByRole('button', { name: 'Follow', exact: true }).click();
    await visible(main.getByRole('button', { name: 'Requested', exact: true }));
    await visible(main.getByRole('link', { name: '0 Followers' }));
    await checkA11y(otto.page, 'a locked profile after Follow');
    // Still Requested after a reload: the server kept the request.
    await otto.page.reload();
    await visible(main.getByRole('button', { name: 'Requested', exact: true }));
  });

  j.step('she sees the request in her notifications, opens the requests page from it and approves', async () => {
    const { page } = lina;
    await page.goto('/notifications');
    await page.getByRole('link', { name: 'asked to follow you' }).click();
    await waitFor(() => pathOf(page) === '/follow-requests', 'the Follow requests page');
    await visible(page.getByRole('region', { name: 'Follow requests' }).getByText('Otto Asker'));
    await checkA11y(page, 'the Follow requests page');
    await page.getByRole('button', { name: 'Approve @otto' }).click();
    await visible(page.getByText('Approved: they follow you now'));
  });

  j.step('he now follows her, and her posts reach his Home', async () => {
    const { page } = otto;
    await page.goto(`/users/${linaUser.id}`);
    await visible(page.getByRole('main').getByRole('button', { name: 'Following', exact: true }));
    await page.goto('/');
    const home = await openFeedTab(page, 'Following');
    await visible(postCard(home, LINA_POST));
  });
});
