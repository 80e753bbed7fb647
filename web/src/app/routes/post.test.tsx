import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock.ts';
import { makePost, makeUserSummary } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';
import { PostPage } from './post.tsx';

const person = (name: string) => makeUserSummary({ id: String(name.length), name, username: name.toLowerCase() });

const ROOT = makePost({ id: '1', text: 'Where do swifts sleep?', author: person('Alice') });
const MIDDLE = makePost({ id: '2', text: 'On the wing, mostly.', author: person('Bob'), parent: ROOT });
const LEAF = makePost({ id: '3', text: 'Wait, really?', author: person('Carol'), parent: MIDDLE });

describe('the post page', () => {
  it('shows the conversation above a reply, root first, and who it answers', async () => {
    const server = mockFetch({
      'GET /api/posts/3': () => json(LEAF),
      'GET /api/posts/3/ancestors': () => json({ items: [ROOT, MIDDLE] }),
      'GET /api/posts/3/replies': () => json({ items: [], nextCursor: null }),
    });
    renderApp(
      <Routes>
        <Route path="/posts/:id" element={<PostPage />} />
      </Routes>,
      { route: '/posts/3' },
    );
    const conversation = await screen.findByRole('region', { name: 'Conversation' });
    const above = within(conversation).getAllByRole('article');
    expect(above.map((a) => a.textContent)).toEqual([
      expect.stringContaining('Where do swifts sleep?'),
      expect.stringContaining('On the wing, mostly.'),
    ]);
    const detail = screen.getByRole('article', { name: 'Post by Carol' });
    expect(detail).toHaveTextContent('Replying to @bob');
    // The conversation comes before the post in the page.
    expect(conversation.compareDocumentPosition(detail) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(server.callsTo('GET', '/api/posts/2')).toHaveLength(0);
  });

  it('asks for no conversation above a post that answers nobody', async () => {
    const server = mockFetch({
      'GET /api/posts/1': () => json(ROOT),
      'GET /api/posts/1/replies': () => json({ items: [MIDDLE], nextCursor: null }),
    });
    renderApp(
      <Routes>
        <Route path="/posts/:id" element={<PostPage />} />
      </Routes>,
      { route: '/posts/1' },
    );
    await screen.findByRole('article', { name: 'Post by Alice' });
    await screen.findByText('On the wing, mostly.');
    expect(screen.queryByRole('region', { name: 'Conversation' })).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/api/posts/1/ancestors')).toHaveLength(0);
  });

  it('titles a post behind a content warning with the warning, never the text it hides', async () => {
    const warned = makePost({ id: '4', text: 'The butler did it', spoilerText: 'Film ending', author: person('Dana') });
    mockFetch({
      'GET /api/posts/4': () => json(warned),
      'GET /api/posts/4/replies': () => json({ items: [], nextCursor: null }),
    });
    renderApp(
      <Routes>
        <Route path="/posts/:id" element={<PostPage />} />
      </Routes>,
      { route: '/posts/4' },
    );
    await screen.findByRole('article', { name: 'Post by Dana' });
    await waitFor(() => expect(document.title).toBe('Dana on Pipit: “Film ending” / Pipit'));
    expect(document.title).not.toContain('butler');
  });
});
