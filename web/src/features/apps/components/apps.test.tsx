import type { AuthorizedApp } from '@pipit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, noContent } from '../../../test/fetch-mock.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';
import { AuthorizedApps } from './authorized-apps.tsx';
import { authorizationQueryOf, Consent } from './consent.tsx';

const OOB = 'urn:ietf:wg:oauth:2.0:oob';
const SEARCH = `?client_id=abc&redirect_uri=${encodeURIComponent(OOB)}&response_type=code&scope=read+write&error=SessionRequired`;
const INFO = {
  app: { name: 'Ivory', website: 'https://tapbots.com/ivory' },
  scopes: ['read', 'write'],
  redirectUri: OOB,
};
const bodyOf = (call: { body: string | null } | undefined) => JSON.parse(call?.body ?? 'null');

describe('the consent page', () => {
  it('keeps only the OAuth fields of the query', () => {
    expect(authorizationQueryOf(SEARCH)).toEqual({
      client_id: 'abc',
      redirect_uri: OOB,
      response_type: 'code',
      scope: 'read write',
    });
  });

  it('says who asks for what; Authorize shows the code to an app without a page', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/oauth/authorization': () => json(INFO),
      'POST /api/oauth/authorization': () => json({ redirectTo: null, code: 'the-code' }),
    });
    renderApp(<Consent query={authorizationQueryOf(SEARCH)} />);
    expect(await screen.findByRole('heading', { name: 'Ivory wants to use your account' })).toBeInTheDocument();
    expect(screen.getByText(/Signed in as/)).toHaveTextContent('Signed in as @alice');
    const asks = screen.getByRole('list', { name: 'What the app may do' });
    expect(within(asks).getAllByRole('listitem')).toHaveLength(2);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Authorize' }));
    expect(await screen.findByLabelText('Authorization code')).toHaveValue('the-code');
    expect(bodyOf(server.callsTo('POST', '/api/oauth/authorization')[0])).toEqual({
      client_id: 'abc',
      redirect_uri: OOB,
      response_type: 'code',
      scope: 'read write',
      decision: 'approve',
    });
  });

  it('Deny says so; a broken request says what is wrong; a visitor is asked to sign in', async () => {
    mockFetch({
      ...signedInRoutes(),
      'GET /api/oauth/authorization': () => json(INFO),
      'POST /api/oauth/authorization': () => json({ redirectTo: null, code: null }),
    });
    const { unmount } = renderApp(<Consent query={authorizationQueryOf(SEARCH)} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('You denied access')).toBeInTheDocument();
    unmount();

    mockFetch({
      ...signedInRoutes(),
      'GET /api/oauth/authorization': () =>
        json({ code: 'INVALID_INPUT', message: 'redirect_uri is not one the app registered.', field: 'request' }, 400),
    });
    const second = renderApp(<Consent query={authorizationQueryOf(SEARCH)} />);
    expect(await screen.findByText('This request doesn’t work')).toBeInTheDocument();
    expect(screen.getByText(/redirect_uri is not one the app registered/)).toBeInTheDocument();
    second.unmount();

    mockFetch();
    renderApp(<Consent query={authorizationQueryOf(SEARCH)} />);
    expect(await screen.findByText('Sign in to authorize the app')).toBeInTheDocument();
  });
});

describe('Settings → Authorized apps', () => {
  it('lists them and revokes one', async () => {
    let apps: AuthorizedApp[] = [
      {
        id: '4',
        name: 'Ivory',
        website: null,
        scopes: ['read', 'write'],
        authorizedAt: '2026-11-20T10:00:00.000Z',
        lastUsedAt: '2026-11-24T10:00:00.000Z',
      },
    ];
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/oauth/apps': () => json({ items: apps }),
      'DELETE /api/oauth/apps/4': () => {
        apps = [];
        return noContent();
      },
    });
    renderApp(<AuthorizedApps />);
    const list = await screen.findByRole('list', { name: 'Authorized apps' });
    expect(list).toHaveTextContent('Ivory');
    await userEvent.setup().click(within(list).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Ivory can no longer use your account');
    await waitFor(() => expect(screen.getByText(/No app uses your account/)).toBeInTheDocument());
    expect(server.callsTo('DELETE', '/api/oauth/apps/4')).toHaveLength(1);
  });
});
