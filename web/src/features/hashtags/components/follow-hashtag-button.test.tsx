import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred, json, mockFetch } from '../../../test/fetch-mock.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';
import { FollowHashtagButton } from './follow-hashtag-button.tsx';
import { FollowedHashtags } from './followed-hashtags.tsx';

describe('following a hashtag', () => {
  it('shows Following at once, then settles to the answer', async () => {
    const answer = deferred<Response>();
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/hashtags/birds/follow': () => json({ tag: 'birds', following: false }),
      'PUT /api/hashtags/birds/follow': () => answer.promise,
    });
    const user = userEvent.setup();
    renderApp(<FollowHashtagButton tag="birds" />);
    await user.click(await screen.findByRole('button', { name: 'Follow #birds' }));
    expect(screen.getByText('Following')).toBeInTheDocument();
    answer.resolve(json({ tag: 'birds', following: true }));
    await waitFor(() => expect(server.callsTo('PUT', '/api/hashtags/birds/follow')).toHaveLength(1));
    expect(await screen.findByText('Following')).toBeInTheDocument();
  });

  it('rolls back and says why when the server refuses (the limit)', async () => {
    mockFetch({
      ...signedInRoutes(),
      'GET /api/hashtags/birds/follow': () => json({ tag: 'birds', following: false }),
      'PUT /api/hashtags/birds/follow': () =>
        json({ code: 'LIMIT_REACHED', message: 'You can follow at most 100 hashtags; unfollow one first.' }, 409),
    });
    const user = userEvent.setup();
    renderApp(<FollowHashtagButton tag="birds" />);
    await user.click(await screen.findByRole('button', { name: 'Follow #birds' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can follow at most 100 hashtags');
    expect(await screen.findByText('Follow')).toBeInTheDocument();
  });

  it('lists the followed hashtags with their pages and Following, or says there are none', async () => {
    mockFetch({
      ...signedInRoutes(),
      'GET /api/followed-hashtags': () =>
        json({
          items: [
            { tag: 'birds', following: true },
            { tag: 'café', following: true },
          ],
          nextCursor: null,
        }),
    });
    renderApp(<FollowedHashtags />);
    const list = await screen.findByRole('list', { name: 'Followed hashtags' });
    expect(list).toHaveTextContent('#birds');
    expect(screen.getByRole('link', { name: '#café' })).toHaveAttribute('href', '/hashtag/caf%C3%A9');
    expect(screen.getAllByText('Following')).toHaveLength(2);
  });

  it('says so when no hashtag is followed', async () => {
    mockFetch({
      ...signedInRoutes(),
      'GET /api/followed-hashtags': () => json({ items: [], nextCursor: null }),
    });
    renderApp(<FollowedHashtags />);
    expect(await screen.findByText(/You don’t follow any hashtags yet/)).toBeInTheDocument();
  });
});
