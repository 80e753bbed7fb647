import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { resetRevealed } from '../../../lib/spoilers.ts';
import { json, mockFetch } from '../../../test/fetch-mock.ts';
import { makePost, makeUserSummary } from '../../../test/fixtures.ts';
import { ALICE, renderApp, signedInRoutes } from '../../../test/render.tsx';
import { PostCard } from './post-card.tsx';

afterEach(() => resetRevealed());

const BOB = makeUserSummary({ id: '2', name: 'Bob Builder', username: 'bob' });
const PICTURE = {
  id: '5',
  url: '/media/a.jpg',
  previewUrl: '/media/a-small.jpg',
  width: 40,
  height: 30,
  blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
  alt: 'A kestrel',
};
const WARNED = makePost({
  id: '10',
  text: 'The butler did it',
  spoilerText: 'Film ending',
  sensitive: true,
  media: [PICTURE],
  author: BOB,
});

describe('a post behind a content warning', () => {
  it('shows the warning, not the text or pictures, until Show more; Show less closes it; both copies of the post follow', async () => {
    mockFetch({ ...signedInRoutes() });
    renderApp(
      <>
        <PostCard post={WARNED} />
        <PostCard post={WARNED} />
      </>,
    );
    const [first, second] = screen.getAllByRole('article') as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent('Film ending');
    expect(first).not.toHaveTextContent('The butler did it');
    expect(within(first).queryByRole('img', { name: 'A kestrel' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(first).getByRole('button', { name: 'Show more' }));
    // One store per post: the other list's copy opened too.
    for (const card of [first, second]) {
      expect(card).toHaveTextContent('The butler did it');
      expect(within(card).getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
    }
    await user.click(within(second).getByRole('button', { name: 'Show less' }));
    expect(first).not.toHaveTextContent('The butler did it');
  });

  it('opens by itself for a member who always expands warnings', async () => {
    mockFetch({
      'GET /api/auth/session': signedInRoutes()['GET /api/auth/session'],
      'GET /api/current': () => json({ ...ALICE, expandSpoilers: true }),
    });
    renderApp(<PostCard post={WARNED} />);
    const card = screen.getByRole('article');
    await waitFor(() => expect(card).toHaveTextContent('The butler did it'));
    expect(within(card).getByRole('button', { name: 'Show less' })).toBeInTheDocument();
  });

  it('covers sensitive pictures without a warning until shown, and hides them again', async () => {
    mockFetch({ ...signedInRoutes() });
    renderApp(<PostCard post={{ ...WARNED, spoilerText: '' }} />);
    const card = screen.getByRole('article');
    expect(card).toHaveTextContent('The butler did it');
    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Sensitive content — show' }));
    expect(within(card).queryByRole('button', { name: 'Sensitive content — show' })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Hide' }));
    expect(within(card).getByRole('button', { name: 'Sensitive content — show' })).toBeInTheDocument();
  });

  it('says “Edited” beside the time, which opens every version with what changed', async () => {
    const edited = makePost({ id: '10', text: 'Second', author: BOB, editedAt: new Date().toISOString() });
    mockFetch({
      ...signedInRoutes(),
      'GET /api/posts/10/history': () =>
        json({
          items: [
            {
              createdAt: '2026-01-01T10:00:00.000Z',
              text: 'First',
              spoilerText: '',
              sensitive: false,
              media: [],
              changes: null,
            },
            {
              createdAt: '2026-01-01T11:00:00.000Z',
              text: 'Second',
              spoilerText: 'Mild',
              sensitive: true,
              media: [{ ...PICTURE, url: null, previewUrl: null }],
              changes: {
                text: true,
                spoilerText: 'added',
                sensitive: 'marked',
                mediaAdded: 1,
                mediaRemoved: 0,
                altChanged: 0,
                mediaReordered: false,
              },
            },
          ],
        }),
    });
    renderApp(<PostCard post={edited} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edited' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit history' });
    const versions = within(await within(dialog).findByRole('list', { name: 'Versions, oldest first' })).getAllByRole(
      'listitem',
      { name: undefined },
    );
    expect(versions[0]).toHaveTextContent('Original');
    expect(dialog).toHaveTextContent('Text changed');
    expect(dialog).toHaveTextContent('Content warning added');
    expect(dialog).toHaveTextContent('1 picture added');
    expect(within(dialog).getByRole('img', { name: 'Picture 1, removed since: A kestrel' })).toBeInTheDocument();
  });
});
