import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock.ts';
import { makePost, makeUserSummary } from '../../../test/fixtures.ts';
import { ALICE, renderApp, signedInRoutes } from '../../../test/render.tsx';
import { PostCard } from './post-card.tsx';
import { PostDetail } from './post-detail.tsx';

const BOB = makeUserSummary({ id: '2', name: 'Bob Builder', username: 'bob' });
const CAROL = makeUserSummary({ id: '3', name: 'Carol Reposter', username: 'carol' });

describe('a post’s visibility', () => {
  it('shows a badge, named for screen readers and explained on hover, unless the post is public', () => {
    mockFetch({ ...signedInRoutes() });
    renderApp(
      <>
        <PostCard post={makePost({ id: '1', text: 'For all', author: BOB })} />
        <PostCard post={makePost({ id: '2', text: 'For friends', author: BOB, visibility: 'followers' })} />
        <PostCard post={makePost({ id: '3', text: 'Psst @alice', author: BOB, visibility: 'direct' })} />
        <PostCard
          post={makePost({ id: '4', text: 'Quietly', author: BOB, visibility: 'unlisted', repostedBy: CAROL })}
        />
      </>,
    );
    const [pub, followers, direct, unlisted] = screen.getAllByRole('article') as HTMLElement[];
    expect(within(pub as HTMLElement).queryByRole('img', { name: /only|Unlisted|Public/ })).not.toBeInTheDocument();
    expect(within(followers as HTMLElement).getByRole('img', { name: 'Followers only' })).toHaveAttribute(
      'title',
      'Followers only: Only the author’s followers and the people mentioned can see this',
    );
    expect(within(direct as HTMLElement).getByRole('img', { name: 'Mentioned people only' })).toHaveAttribute(
      'title',
      'Mentioned people only: Only the people mentioned can see this',
    );
    // A repost entry carries the reposted post's.
    expect(within(unlisted as HTMLElement).getByRole('img', { name: 'Unlisted' })).toBeInTheDocument();
  });

  it('writes it out next to the date on the post’s page', () => {
    mockFetch({ ...signedInRoutes() });
    renderApp(<PostDetail post={makePost({ id: '2', text: 'For friends', author: BOB, visibility: 'followers' })} />);
    expect(screen.getByRole('img', { name: 'Followers only' })).toHaveTextContent('Followers only');
  });

  it('disables Repost of a followers-only or mentioned-only post, saying why, and sends nothing', async () => {
    const server = mockFetch({ ...signedInRoutes() });
    renderApp(
      <>
        <PostCard post={makePost({ id: '2', text: 'For friends', author: BOB, visibility: 'followers' })} />
        <PostCard post={makePost({ id: '3', text: 'Psst', author: BOB, visibility: 'direct' })} />
        <PostCard post={makePost({ id: '4', text: 'Quietly', author: BOB, visibility: 'unlisted' })} />
      </>,
    );
    const [followers, direct, unlisted] = screen.getAllByRole('article') as HTMLElement[];
    const repost = within(followers as HTMLElement).getByRole('button', { name: 'Repost' });
    expect(repost).toHaveAttribute('aria-disabled', 'true');
    expect(repost).toHaveAccessibleDescription('Followers-only posts can’t be reposted');
    expect(within(direct as HTMLElement).getByRole('button', { name: 'Repost' })).toHaveAccessibleDescription(
      'Posts for mentioned people only can’t be reposted',
    );
    expect(within(unlisted as HTMLElement).getByRole('button', { name: 'Repost' })).not.toHaveAttribute(
      'aria-disabled',
    );
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    await userEvent.setup().click(repost);
    expect(within(followers as HTMLElement).getByRole('button', { name: 'Repost' })).toBeInTheDocument();
    expect(server.callsTo('PUT', '/api/posts/2/repost')).toHaveLength(0);
  });

  it('disables Quote when its author allows nobody, except for the author; followers-only is left to the server', async () => {
    const server = mockFetch({ ...signedInRoutes() });
    renderApp(
      <>
        <PostCard post={makePost({ id: '2', text: 'Not to quote', author: BOB, quotePolicy: 'nobody' })} />
        <PostCard post={makePost({ id: '3', text: 'Mine', author: ALICE, quotePolicy: 'nobody' })} />
        <PostCard post={makePost({ id: '4', text: 'Followers may', author: BOB, quotePolicy: 'followers' })} />
      </>,
    );
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    const [bobs, mine, followers] = screen.getAllByRole('article') as HTMLElement[];
    await waitFor(() =>
      expect(within(mine as HTMLElement).getByRole('button', { name: 'Quote' })).not.toHaveAttribute('aria-disabled'),
    );
    const quote = within(bobs as HTMLElement).getByRole('button', { name: 'Quote' });
    expect(quote).toHaveAttribute('aria-disabled', 'true');
    expect(quote).toHaveAccessibleDescription('The author doesn’t allow quotes of this post');
    await userEvent.setup().click(quote);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(followers as HTMLElement).getByRole('button', { name: 'Quote' })).not.toHaveAttribute(
      'aria-disabled',
    );
  });
});
