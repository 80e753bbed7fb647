import type { Post } from '@pipit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { usePost } from '../../../state/posts.ts';
import { usePostView } from '../../../state/shadow.ts';
import { deferred, json, mockFetch } from '../../../test/fetch-mock.ts';
import { makePost } from '../../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';
import { PostCard } from './post-card.tsx';

const POST = makePost({ id: '10', likeCount: 2 });

/** An item that wraps a post (as a repost will): it shows the post through the same overlay. */
function Wrapper({ post }: { post: Post }) {
  const shown = usePostView(post);
  return <p data-testid="wrapper">{`${shown.likedByMe ? 'liked' : 'not liked'} ${shown.likeCount}`}</p>;
}

/** The post as the app shows it: from the cache, where each answer of the server is written. */
function Shown() {
  const { data } = usePost('10');
  return data ? (
    <>
      <PostCard post={data} />
      <Wrapper post={data} />
    </>
  ) : null;
}

async function setup(answers: (() => Promise<Response> | Response)[]) {
  let n = 0;
  const server = mockFetch({
    ...signedInRoutes(),
    'GET /api/posts/10': () => json(POST),
    'PUT /api/posts/10/like': () => (answers[n++] ?? (() => json(POST)))(),
    'DELETE /api/posts/10/like': () => (answers[n++] ?? (() => json(POST)))(),
    'PUT /api/posts/10/bookmark': () => (answers[n++] ?? (() => json(POST)))(),
    'DELETE /api/posts/10/bookmark': () => (answers[n++] ?? (() => json(POST)))(),
  });
  const { queryClient } = renderApp(<Shown />);
  await screen.findByRole('article');
  await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
  return { server, queryClient, card: screen.getByRole('article'), wrapper: screen.getByTestId('wrapper') };
}

describe('the optimistic overlay', () => {
  it('shows a like at once wherever the post is, including inside an item that wraps it', async () => {
    const answer = deferred<Response>();
    const { card, wrapper } = await setup([() => answer.promise]);
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Like' }));
    expect(card).toHaveTextContent('3 likes');
    expect(wrapper).toHaveTextContent('liked 3');
    answer.resolve(json({ ...POST, likedByMe: true, likeCount: 3 }));
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Unlike' })).toBeInTheDocument());
  });

  it('a quick like-unlike ends where the last click asked, and never flickers in between', async () => {
    const first = deferred<Response>();
    const second = deferred<Response>();
    const { card, queryClient } = await setup([() => first.promise, () => second.promise]);
    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Like' }));
    await user.click(within(card).getByRole('button', { name: 'Unlike' }));
    // The first answer comes back while the second call is in flight: the screen keeps the last ask.
    first.resolve(json({ ...POST, likedByMe: true, likeCount: 3 }));
    await waitFor(() => expect(queryClient.isMutating()).toBe(1));
    expect(within(card).getByRole('button', { name: 'Like' })).toBeInTheDocument();
    expect(card).toHaveTextContent('2 likes');
    second.resolve(json(POST));
    await waitFor(() => expect(card).toHaveTextContent('2 likes'));
    expect(within(card).getByRole('button', { name: 'Like' })).toBeInTheDocument();
  });

  it('a bookmark and a like in flight together each keep their own overlay; a failed bookmark goes back', async () => {
    const liking = deferred<Response>();
    const keeping = deferred<Response>();
    const { card } = await setup([() => liking.promise, () => keeping.promise]);
    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Like' }));
    await user.click(within(card).getByRole('button', { name: 'Bookmark' }));
    // Both show at once: the bookmark did not overwrite the like's overlay.
    expect(within(card).getByRole('button', { name: 'Unlike' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Remove bookmark' })).toBeInTheDocument();
    expect(card).toHaveTextContent('3 likes');
    liking.resolve(json({ ...POST, likedByMe: true, likeCount: 3 }));
    await waitFor(() => expect(card).toHaveTextContent('3 likes'));
    expect(within(card).getByRole('button', { name: 'Remove bookmark' })).toBeInTheDocument();
    keeping.resolve(json({ code: 'RATE_LIMITED', message: 'Too many requests' }, 429));
    await waitFor(() => expect(within(card).getByRole('button', { name: 'Bookmark' })).toBeInTheDocument());
    expect(within(card).getByRole('button', { name: 'Unlike' })).toBeInTheDocument();
  });
});
