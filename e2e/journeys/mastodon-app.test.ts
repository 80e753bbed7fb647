/**
 * A member signs in to Pipit from a Mastodon app: the app (masto.js, unmodified) registers and sends
 * her to the consent page; she signs in there, reads what it asks for and presses Authorize; the app
 * trades the code (PKCE) for a token, reads her account and posts; the post is on her Home in the
 * browser; she revokes the app in Settings and its token stops working.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createOAuthAPIClient, createRestAPIClient, type mastodon } from 'masto';
import { describe, expect } from 'vitest';
import { PASSWORD, person } from '../support/api.ts';
import { checkA11y, dialog, gone, newPerson, type Person, postCard, toast, visible } from '../support/browser.ts';
import { journey } from '../support/journey.ts';

const OOB = 'urn:ietf:wg:oauth:2.0:oob';

describe('a member signs in from a Mastodon app', () => {
  const j = journey('mastodon-app');
  let mia: Person;
  let app: mastodon.v1.Client;
  let rest: mastodon.rest.Client;
  const verifier = randomBytes(48).toString('base64url');
  let code = '';

  j.step('the app registers and opens the consent page; she signs in there', async () => {
    await person(j.url, 'mia', 'Mia Mobile');
    app = await createRestAPIClient({ url: j.url }).v1.apps.create({
      clientName: 'Pocket Pipit',
      redirectUris: OOB,
      scopes: 'read write',
      website: 'https://pocket.example',
    });
    const authorize = new URL('/oauth/authorize', j.url);
    for (const [key, value] of Object.entries({
      client_id: app.clientId!,
      redirect_uri: OOB,
      response_type: 'code',
      scope: 'read write',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    })) {
      authorize.searchParams.set(key, value);
    }

    mia = await newPerson(j.browser, j.url);
    j.people.push(mia);
    const { page } = mia;
    await page.goto(authorize.toString());
    await visible(page.getByText('Sign in to authorize the app'));
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    const login = await visible(dialog(page, 'Login'));
    await login.getByLabel('Email', { exact: true }).fill('mia@example.com');
    await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await login.getByRole('button', { name: 'Sign In' }).click();
    await gone(login);
    await visible(page.getByRole('heading', { name: 'Pocket Pipit wants to use your account' }));
  });

  j.step('reads what it asks for, authorizes, and the app gets a token for her', async () => {
    const { page } = mia;
    const asks = page.getByRole('list', { name: 'What the app may do' });
    await visible(asks.getByText(/Read your timelines/));
    await visible(asks.getByText(/Post, reply, like/));
    await visible(page.getByText('Signed in as @mia'));
    await checkA11y(page, 'the consent page');
    await page.getByRole('button', { name: 'Authorize' }).click();
    const shown = await visible(page.getByLabel('Authorization code'));
    code = await shown.inputValue();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const token = await createOAuthAPIClient({ url: j.url }).token.create({
      grantType: 'authorization_code',
      clientId: app.clientId!,
      clientSecret: app.clientSecret!,
      redirectUri: OOB,
      code,
      ...({ codeVerifier: verifier } as object),
    });
    rest = createRestAPIClient({ url: j.url, accessToken: token.accessToken });
    expect((await rest.v1.accounts.verifyCredentials()).username).toBe('mia');
  });

  j.step('the app posts for her; the post is on her Home', async () => {
    await rest.v1.statuses.create({ status: 'Posted from Pocket Pipit' });
    const { page } = mia;
    await page.goto('/');
    await visible(postCard(page, 'Posted from Pocket Pipit'));
  });

  j.step('she revokes the app in Settings: its token stops working at once', async () => {
    const { page } = mia;
    await page.goto('/settings');
    const apps = await visible(page.getByRole('list', { name: 'Authorized apps' }));
    await visible(apps.getByText('Pocket Pipit'));
    await apps.getByRole('button', { name: 'Revoke' }).click();
    await visible(toast(page, 'Pocket Pipit can no longer use your account'));
    await expect(rest.v1.accounts.verifyCredentials()).rejects.toThrow();
  });
});
