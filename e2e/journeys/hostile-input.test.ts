/**
 * Someone signs up with markup and script in their name, bio and posts, and someone else takes a
 * look-alike of another person's name. Everywhere those show up (the author's own pages, the
 * feed, a post page, a profile, Who To Follow, another person's notifications) the browser must
 * show them as text: no dialog, no script running (a window flag the payloads set stays unset),
 * no injected element, no javascript: link.
 *
 * The pages run with CSP bypassed: the policy is a second line of defence, and this journey checks
 * the first one (rendering text as text) on its own.
 */
import type { Post, User } from '@pipit/contract';
import { describe, expect } from 'vitest';
import { ApiClient, PASSWORD, person } from '../support/api.ts';
import {
  checkA11y,
  composer,
  dialog,
  gone,
  navItem,
  newPerson,
  openFeedTab,
  openOwnProfile,
  openRegister,
  type Person,
  pathOf,
  postCard,
  signedIn,
  signInThroughModal,
  toast,
  visible,
  waitFor,
  whoToFollow,
} from '../support/browser.ts';
import {
  expectInert,
  FLAG,
  HOSTILE_BIO,
  HOSTILE_NAME,
  HOSTILE_POSTS,
  HOSTILE_SHOWS,
  LOOKALIKE_NAME,
} from '../support/hostile.ts';
import { solidImage } from '../support/images.ts';
import { journey } from '../support/journey.ts';

const HOSTILE_ALT = `"><img src=x onerror=window.${FLAG}=1> <script>window.${FLAG}=1</script>`;

describe('hostile input', () => {
  const j = journey('hostile-input');
  let mallory: Person;
  let vic: Person;
  let alice: User;
  let impostor: User;
  let vicsPost: Post;
  let malloryId = '';

  j.step('someone registers with markup as a name and posts script, javascript: links and look-alikes', async () => {
    alice = (await person(j.url, 'alice', 'Alice Anderson')).user;
    const seededImpostor = await person(j.url, 'alice_anderson', LOOKALIKE_NAME);
    impostor = seededImpostor.user;
    await seededImpostor.client.post("Hi, I'm the real alice. Trust me.");
    const seededVic = await person(j.url, 'vic', 'Vic Victim');
    vicsPost = await seededVic.client.post('Vic says hello.');

    mallory = await newPerson(j.browser, j.url, { bypassCSP: true });
    j.people.push(mallory);
    const { page } = mallory;
    await page.goto('/');
    const register = await openRegister(page);
    await register.getByLabel('Email', { exact: true }).fill('mallory@example.com');
    await register.getByLabel('Name', { exact: true }).fill(HOSTILE_NAME);
    await register.getByLabel('Username', { exact: true }).fill('mallory');
    await register.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await register.getByRole('button', { name: 'Register' }).click();
    await visible(toast(page, 'Account created.'));
    await waitFor(() => signedIn(page), 'Mallory to be signed in');

    for (const post of HOSTILE_POSTS) {
      const { box, submit } = composer(page);
      await box.fill(post.text);
      await submit.click();
      await visible(postCard(page, post.shows[0]));
    }
    await expectInert(mallory, 'Home (the author)', [HOSTILE_NAME, ...HOSTILE_SHOWS]);
  });

  j.step('the hostile bio is saved through Edit your profile and shows as text', async () => {
    const { page } = mallory;
    await openOwnProfile(page);
    await waitFor(() => /^\/users\/\d+$/.test(pathOf(page)), 'the own profile');
    malloryId = pathOf(page).split('/')[2] ?? '';
    await page.getByRole('main').getByRole('button', { name: 'Edit profile' }).click();
    const edit = await visible(dialog(page, 'Edit your profile'));
    await edit.getByLabel('Bio', { exact: true }).fill(HOSTILE_BIO);
    await edit.getByRole('button', { name: 'Save' }).click();
    await visible(toast(page, 'Updated'));
    await gone(edit);
    await visible(page.getByRole('main').getByRole('heading', { name: HOSTILE_NAME }));
    await visible(page.getByRole('main').getByText(HOSTILE_BIO));
    await expectInert(mallory, 'Profile (the author)', [HOSTILE_NAME, HOSTILE_BIO, ...HOSTILE_SHOWS]);
  });

  j.step("Mallory follows Vic, likes Vic's post and answers it (through the API)", async () => {
    const api = new ApiClient(j.url);
    await api.signIn('mallory@example.com');
    await api.follow(vicsPost.author.id);
    await api.like(vicsPost.id);
    await api.post(HOSTILE_POSTS[0].text, vicsPost.id);
  });

  j.step("Vic sees Mallory's name and text literally in Who To Follow and in notifications", async () => {
    vic = await newPerson(j.browser, j.url, { bypassCSP: true });
    j.people.push(vic);
    const { page } = vic;
    await page.goto('/');
    await signInThroughModal(page, 'vic@example.com', PASSWORD);
    const suggestions = await visible(whoToFollow(page));
    await visible(suggestions.getByText(HOSTILE_NAME, { exact: true }));
    await visible(suggestions.getByText(LOOKALIKE_NAME, { exact: true }));
    await expectInert(vic, 'Home with Who To Follow', [HOSTILE_NAME, LOOKALIKE_NAME]);

    await navItem(page, 'Notifications').click();
    await visible(page.getByRole('main').getByText(/replied to your post/));
    await expectInert(vic, 'Notifications', [HOSTILE_NAME, ...HOSTILE_POSTS[0].shows]);
    await checkA11y(page, 'Notifications with hostile text');
  });

  j.step("Mallory's profile and post pages render everything as text", async () => {
    const { page } = vic;
    await page.goto(`/users/${malloryId}`);
    await visible(page.getByRole('main').getByRole('heading', { name: HOSTILE_NAME }));
    const card = postCard(page, HOSTILE_POSTS[2].shows[0]);
    await visible(card);
    await expectInert(vic, "Mallory's profile", [HOSTILE_NAME, HOSTILE_BIO, ...HOSTILE_SHOWS]);
    await checkA11y(page, 'Profile with hostile text');
    await card.getByText('javascript:alert(1) [click me]', { exact: false }).click();
    await waitFor(() => /^\/posts\/\d+$/.test(pathOf(page)), 'the post page');
    // The post page's own article (the profile's cards have no name): the page has rendered.
    const detail = page.getByRole('article', { name: `Post by ${HOSTILE_NAME}` });
    await visible(detail.getByText(HOSTILE_POSTS[2].shows[1], { exact: false }));
    await expectInert(vic, 'a hostile post page', [HOSTILE_NAME, ...HOSTILE_POSTS[2].shows]);
  });

  j.step("hostile alt text stays text: the image's name, and the caption under it in the viewer", async () => {
    const { page } = mallory;
    await page.goto('/');
    const { box, form, submit } = composer(page);
    await box.fill('A picture, described');
    const chooser = page.waitForEvent('filechooser');
    await form.getByRole('button', { name: 'Add images' }).click();
    await (await chooser).setFiles({
      name: 'x.png',
      mimeType: 'image/png',
      buffer: await solidImage([10, 200, 90], 200),
    });
    await form.getByRole('textbox', { name: 'Alt text' }).fill(HOSTILE_ALT);
    await waitFor(() => submit.isEnabled(), 'Tweet enabled once the image is uploaded');
    await submit.click();
    await visible(toast(page, 'Your post was sent'));
    const card = postCard(page, 'A picture, described');
    await visible(card.getByRole('img', { name: HOSTILE_ALT }));
    await card.getByRole('button', { name: `Open image: ${HOSTILE_ALT}` }).click();
    const viewer = await visible(page.getByRole('dialog'));
    await visible(viewer.getByText(HOSTILE_ALT, { exact: true }));
    await expectInert(mallory, 'the image viewer with hostile alt text', [HOSTILE_ALT]);
    await page.keyboard.press('Escape');
    await gone(viewer);
  });

  j.step('hostile search terms and hashtag paths show as text on the search and hashtag pages', async () => {
    const { page } = vic;
    const term = `${HOSTILE_NAME} "<script>window.${FLAG}=1</script>"`;
    await page.goto(`/search?q=${encodeURIComponent(term)}`);
    await visible(page.getByRole('main').getByText(`No results for “${term}”`));
    expect(
      await page.getByRole('main').getByRole('searchbox').or(page.getByRole('combobox')).first().inputValue(),
    ).toBe(term);
    await expectInert(vic, 'search results for a hostile term', [`No results for “${term}”`]);
    for (const tab of ['People', 'Hashtags']) {
      await page.getByRole('tab', { name: tab }).click();
      // The tab's own answer, not the previous tab's still on screen: its address first, then its words.
      await waitFor(() => new URL(page.url()).searchParams.get('tab') === tab.toLowerCase(), `the ${tab} tab`);
      const said = page.getByRole('tabpanel', { name: tab }).getByText(`No results for “${term}”`);
      await waitFor(async () => (await said.count()) === 1, `the ${tab} tab's answer`);
      await expectInert(vic, `search ${tab} for a hostile term`, [`No results for “${term}”`]);
    }
    const tag = '<img src=x onerror=alert(1)>';
    await page.goto(`/hashtag/${encodeURIComponent(tag)}`);
    await visible(page.getByRole('main').getByRole('heading').first());
    await expectInert(vic, 'a hashtag page with markup in its path', []);
  });

  j.step("a look-alike name keeps its own letters and leads to its own profile, not Alice's", async () => {
    const { page } = vic;
    await page.goto('/');
    const card = postCard(await openFeedTab(page, 'Everyone'), "I'm the real alice");
    await visible(card);
    await expectInert(vic, 'Home, Everyone tab', [LOOKALIKE_NAME, HOSTILE_NAME, ...HOSTILE_SHOWS]);
    const hrefs = await card.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toContain(`/users/${impostor.id}`);
    expect(hrefs).not.toContain(`/users/${alice.id}`);
    const lookalikePost = postCard(page, HOSTILE_POSTS[3].shows[0]);
    const links = await lookalikePost
      .locator('a[href]')
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    expect(links.filter((href) => href.includes(`/users/${alice.id}`) || /alice$/i.test(href))).toEqual([]);
  });

  j.step('the server refuses bidirectional overrides that would disguise a name', async () => {
    const api = new ApiClient(j.url);
    const res = await api.raw('POST', '/api/register', {
      json: { email: 'trick@example.com', password: PASSWORD, username: 'trick', name: 'invoice\u202Etxt.exe' },
    });
    expect(res.status).toBe(400);
    expect(mallory.dialogs).toEqual([]);
    expect(vic.dialogs).toEqual([]);
  });
});
