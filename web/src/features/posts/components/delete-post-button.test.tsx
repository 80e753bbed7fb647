import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useUserPosts } from '../../../state/posts.ts';
import { json, mockFetch, noContent } from '../../../test/fetch-mock.ts';
import { makePost } from '../../../test/fixtures.ts';
import { ALICE, renderApp, signedInRoutes } from '../../../test/render.tsx';
import { PostList } from './post-list.tsx';

const mine = (id: string, text: string) => makePost({ id, text, author: ALICE });

function MyPosts() {
  return <PostList query={useUserPosts('1')} label="My posts" empty={<p>No posts</p>} />;
}

describe('deleting a post', () => {
  it('asks first, then removes the post from the list', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/users/1/posts': () =>
        json({ items: [mine('11', 'Keep me'), mine('12', 'Delete me')], nextCursor: null }),
      'DELETE /api/posts/12': () => noContent(),
    });
    const user = userEvent.setup();
    renderApp(<MyPosts />);
    const card = (await screen.findByText('Delete me')).closest('article') as HTMLElement;
    await user.click(await within(card).findByRole('button', { name: 'Delete' }));

    const confirm = await screen.findByRole('dialog', { name: 'Delete post?' });
    expect(server.callsTo('DELETE', '/api/posts/12')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByText('Delete me')).not.toBeInTheDocument());
    expect(screen.getByText('Keep me')).toBeInTheDocument();
    expect(await screen.findByText('Your post was deleted')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/api/posts/12')[0]?.headers.get('X-CSRF-Token')).toBe('csrf-1');
  });

  it('keeps the post when the confirmation is cancelled', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/users/1/posts': () => json({ items: [mine('12', 'Delete me')], nextCursor: null }),
    });
    const user = userEvent.setup();
    renderApp(<MyPosts />);
    const card = (await screen.findByText('Delete me')).closest('article') as HTMLElement;
    await user.click(await within(card).findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Delete me')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/api/posts/12')).toHaveLength(0);
  });

  it('keeps the post and says so when the server refuses to delete it', async () => {
    mockFetch({
      ...signedInRoutes(),
      'GET /api/users/1/posts': () => json({ items: [mine('12', 'Delete me')], nextCursor: null }),
      'DELETE /api/posts/12': () => json({ code: 'INTERNAL_ERROR', message: 'Internal error' }, 500),
    });
    const user = userEvent.setup();
    renderApp(<MyPosts />);
    const card = (await screen.findByText('Delete me')).closest('article') as HTMLElement;
    await user.click(await within(card).findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete post?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Could not delete the post. Try again.')).toBeInTheDocument();
    expect(screen.getByText('Delete me')).toBeInTheDocument();
    expect(screen.queryByText('Your post was deleted')).not.toBeInTheDocument();
    expect(within(confirm).getByRole('button', { name: 'Delete' })).toBeEnabled();
  });
});
