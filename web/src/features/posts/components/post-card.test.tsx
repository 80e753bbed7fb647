import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { usePost } from '../../../state/posts.ts';
import { deferred, json, mockFetch } from '../../../test/fetch-mock.ts';
import { makePost, makeUserSummary } from '../../../test/fixtures.ts';
import { renderApp, SESSION, signedInRoutes } from '../../../test/render.tsx';
import { PostCard } from './post-card.tsx';

const POST = makePost({
  id: '10',
  text: 'Birds at dawn',
  author: makeUserSummary({ id: '2', name: 'Bob Builder', username: 'bob' }),
});

function Shown() {
  const { data } = usePost('10');
  return data ? <PostCard post={data} /> : null;
}

async function showPost(like: () => Response | Promise<Response>) {
  const server = mockFetch({
    ...signedInRoutes(),
    'GET /api/posts/10': () => json(POST),
    'PUT /api/posts/10/like': like,
  });
  renderApp(<Shown />);
  const card = await screen.findByRole('article');
  // Likes need the member to be known.
  await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
  return { server, card };
}

describe('liking a post', () => {
  it('shows at once, then settles to the server answer', async () => {
    const answer = deferred<Response>();
    const { card, server } = await showPost(() => answer.promise);
    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Like' }));

    expect(within(card).getByRole('button', { name: 'Unlike' })).toBeInTheDocument();
    expect(card).toHaveTextContent('1 like');
    expect(server.callsTo('PUT', '/api/posts/10/like')[0]?.headers.get('X-CSRF-Token')).toBe('csrf-1');

    answer.resolve(json({ ...POST, likedByMe: true, likeCount: 5 }));
    await waitFor(() => expect(card).toHaveTextContent('5 likes'));
    expect(within(card).getByRole('button', { name: 'Unlike' })).toBeInTheDocument();
  });

  it('rolls back visibly when the server refuses', async () => {
    const { card } = await showPost(() => json({ code: 'INTERNAL_ERROR', message: 'boom' }, 500));
    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Like' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Could not like the post. Try again.');
    expect(within(card).getByRole('button', { name: 'Like' })).toBeInTheDocument();
    expect(card).toHaveTextContent('0 likes');
  });
});

describe('a reply', () => {
  it("says 'Replying to @name', linking to the person answered", async () => {
    mockFetch();
    renderApp(
      <PostCard post={{ ...POST, id: '11', parentId: '10', replyTo: { id: '1', username: 'alice', domain: null } }} />,
    );
    const card = await screen.findByRole('article');
    expect(card).toHaveTextContent('Replying to @alice');
    // Someone elsewhere: their server too.
    renderApp(
      <PostCard
        post={{ ...POST, id: '12', parentId: '10', replyTo: { id: '3', username: 'carol', domain: 'social.example' } }}
      />,
    );
    expect((await screen.findAllByRole('article'))[1]).toHaveTextContent('Replying to @carol@social.example');
    expect(within(card).getByRole('link', { name: '@alice' })).toHaveAttribute('href', '/users/1');
  });
});

describe('a click before the session has loaded', () => {
  it('is not lost: the like is sent once the session says who is signed in', async () => {
    const session = deferred<Response>();
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/auth/session': () => session.promise,
      'GET /api/posts/10': () => json(POST),
      'PUT /api/posts/10/like': () => json({ ...POST, likedByMe: true, likeCount: 1 }),
    });
    renderApp(<Shown />);
    const card = await screen.findByRole('article');
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Like' }));
    expect(server.callsTo('PUT', '/api/posts/10/like')).toHaveLength(0);
    expect(screen.queryByRole('dialog')).toBeNull(); // not taken for a visitor's click

    session.resolve(json(SESSION));
    await waitFor(() => expect(server.callsTo('PUT', '/api/posts/10/like')).toHaveLength(1));
    expect(await within(card).findByRole('button', { name: 'Unlike' })).toBeInTheDocument();
  });
});
