import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { usePost } from '../../../state/posts.ts';
import { json, mockFetch } from '../../../test/fetch-mock.ts';
import { makePost, makeUserSummary } from '../../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';
import { PostCard } from './post-card.tsx';

const BOB = makeUserSummary({ id: '2', name: 'Bob Builder', username: 'bob' });
const CAROL = makeUserSummary({ id: '3', name: 'Carol Reposter', username: 'carol' });
const POST = makePost({ id: '10', text: 'Worth passing on', author: BOB, repostedBy: CAROL });

function Shown() {
  const { data } = usePost('10');
  return data ? <PostCard post={data} /> : null;
}

describe('reposting', () => {
  it("shows who reposted an entry, and Repost turns to 'Undo repost' with the count, keeping the header", async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/posts/10': () => json(POST),
      'PUT /api/posts/10/repost': () => json({ ...POST, repostedBy: null, repostedByMe: true, repostCount: 1 }),
    });
    renderApp(<Shown />);
    const card = await screen.findByRole('article');
    expect(within(card).getByRole('link', { name: 'Carol Reposter reposted' })).toHaveAttribute('href', '/users/3');
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Repost' }));
    const undo = await within(card).findByRole('button', { name: 'Undo repost' });
    expect(undo).toBeInTheDocument();
    expect(within(card).getByText('1 repost')).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo('PUT', '/api/posts/10/repost')).toHaveLength(1));
    // The server's answer is the post alone: the entry still says who reposted it.
    expect(within(card).getByRole('link', { name: 'Carol Reposter reposted' })).toBeInTheDocument();
  });
});
