import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock.ts';
import { makeUser } from '../../test/fixtures.ts';
import { ALICE, renderApp, signedInRoutes } from '../../test/render.tsx';
import { FollowRequestsPage } from './follow-requests.tsx';

const CAROL = makeUser({ id: '3', username: 'carol', bio: 'Hello there' });
const DAVE = makeUser({ id: '4', username: 'dave' });
const LOCKED_ALICE = { ...ALICE, locked: true };

describe('the Follow requests page', () => {
  it('approves and rejects each request; the row says what was decided', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/current': () => json(LOCKED_ALICE),
      'GET /api/follow-requests': () => json({ items: [CAROL, DAVE], nextCursor: null }),
      'POST /api/follow-requests/3/approve': () => json({ ...CAROL, followingCount: 1 }),
      'POST /api/follow-requests/4/reject': () => json({ code: 'NOT_FOUND', message: 'No request' }, 404),
    });
    const user = userEvent.setup();
    renderApp(<FollowRequestsPage />);
    const list = await screen.findByRole('region', { name: 'Follow requests' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Approve @carol' }));
    expect(await screen.findByText('Approved: they follow you now')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/follow-requests/3/approve')).toHaveLength(1);
    // dave withdrew meanwhile: nothing is left to decide, and the row says so.
    await user.click(screen.getByRole('button', { name: 'Reject @dave' }));
    expect(await screen.findByText('This request was withdrawn')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Approve|Reject/ })).toBeNull();
  });

  it('says when nobody is waiting, and where the setting is', async () => {
    mockFetch({
      ...signedInRoutes(),
      'GET /api/follow-requests': () => json({ items: [], nextCursor: null }),
    });
    renderApp(<FollowRequestsPage />);
    expect(await screen.findByText('No follow requests')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Approve followers in Settings' })).toHaveAttribute('href', '/settings');
  });

  it('offers a retry when the list fails', async () => {
    let calls = 0;
    mockFetch({
      ...signedInRoutes(),
      'GET /api/follow-requests': () =>
        ++calls === 1
          ? json({ code: 'INTERNAL_ERROR', message: 'x' }, 500)
          : json({ items: [CAROL], nextCursor: null }),
    });
    const user = userEvent.setup();
    renderApp(<FollowRequestsPage />);
    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve @carol' })).toBeInTheDocument());
  });
});
