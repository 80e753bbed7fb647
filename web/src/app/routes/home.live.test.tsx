import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { liveKeys } from '../../state/keys.ts';
import { mockEventSource } from '../../test/event-source.ts';
import { json, mockFetch } from '../../test/fetch-mock.ts';
import { makePage, makePost, makeUserSummary } from '../../test/fixtures.ts';
import { ALICE, renderApp, signedInRoutes } from '../../test/render.tsx';
import { HomePage } from './home.tsx';

const bob = makeUserSummary({ id: '2', username: 'bob' });
const OLD = makePost({ id: '1', text: 'An older post', author: bob });

async function visitorOnHome() {
  const live = mockEventSource();
  mockFetch({ 'GET /api/timeline/everyone': () => json(makePage([OLD])) });
  const { queryClient } = renderApp(<HomePage />);
  const list = await screen.findByRole('region', { name: 'Everyone timeline' });
  await waitFor(() => expect(live.opened.filter((s) => !s.closed)).toHaveLength(1));
  return { live, list, queryClient };
}

describe('live updates on Home', () => {
  it('holds new posts behind "Show N new posts" instead of moving the list, then shows them on top', async () => {
    const { live, list } = await visitorOnHome();
    act(() =>
      live.push({
        type: 'post.created',
        post: makePost({ id: '5', text: 'Fresh one', author: bob }),
        timelines: ['everyone'],
      }),
    );
    const button = await screen.findByRole('button', { name: 'Show 1 new post' });
    expect(within(list).queryByText('Fresh one')).toBeNull();
    act(() =>
      live.push({
        type: 'post.created',
        post: makePost({ id: '6', text: 'Fresher', author: bob }),
        timelines: ['everyone'],
      }),
    );
    expect(await screen.findByRole('button', { name: 'Show 2 new posts' })).toBe(button);

    const scrolled = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    await userEvent.setup().click(button);
    expect(scrolled).toHaveBeenCalled();
    const texts = within(list)
      .getAllByRole('article')
      .map((a) => a.textContent);
    expect(texts[0]).toContain('Fresher');
    expect(texts[1]).toContain('Fresh one');
    expect(texts[2]).toContain('An older post');
    expect(screen.queryByRole('button', { name: /new post/ })).toBeNull();
  });

  it('ignores a post for a timeline the reader is not on', async () => {
    const { live, queryClient } = await visitorOnHome();
    act(() => live.push({ type: 'post.created', post: makePost({ id: '7', author: bob }), timelines: ['following'] }));
    // Handled at once (the listener writes the cache synchronously): nothing waits for Everyone.
    expect(queryClient.getQueryData(liveKeys.pending('everyone'))).toBeUndefined();
    expect(queryClient.getQueryData(liveKeys.pending('following'))).toBeUndefined();
    expect(screen.queryByRole('button', { name: /new post/ })).toBeNull();
  });

  it('takes a deleted post off the page, and out of what is waiting', async () => {
    const { live } = await visitorOnHome();
    act(() => live.push({ type: 'post.created', post: makePost({ id: '5', author: bob }), timelines: ['everyone'] }));
    await screen.findByRole('button', { name: 'Show 1 new post' });
    act(() => {
      live.push({ type: 'post.deleted', id: '5', parentId: null, authorId: '2' });
      live.push({ type: 'post.deleted', id: '1', parentId: null, authorId: '2' });
    });
    await waitFor(() => expect(screen.queryByText('An older post')).toBeNull());
    expect(screen.getByText('No posts yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /new post/ })).toBeNull();
  });

  it('puts the unread count in the document title, raises it live, and clears it when they are read in another tab', async () => {
    const live = mockEventSource();
    let unread = 3;
    mockFetch({
      ...signedInRoutes(),
      'GET /api/current': () => json({ ...ALICE, hasNotification: unread > 0 }),
      'GET /api/notifications/unread': () => json({ count: unread }),
      'GET /api/timeline/following': () => json(makePage([OLD])),
    });
    renderApp(<HomePage />);
    await waitFor(() => expect(document.title).toBe('(3) Home / Pipit'));
    await waitFor(() => expect(live.opened.filter((s) => !s.closed)).toHaveLength(1));

    unread = 4;
    act(() => live.push({ type: 'notification', notificationType: 'like' }));
    await waitFor(() => expect(document.title).toBe('(4) Home / Pipit'));

    unread = 0;
    act(() => live.push({ type: 'notifications.read' }));
    await waitFor(() => expect(document.title).toBe('Home / Pipit'));
  });
});
