import type { Conversation } from '@pipit/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, noContent } from '../../test/fetch-mock.ts';
import { ALICE, makePost, makeUserSummary } from '../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../test/render.tsx';
import { MessagesPage } from './messages.tsx';

const BOB = makeUserSummary({ id: '2', name: 'Bob Builder', username: 'bob' });
const CAROL = makeUserSummary({ id: '3', name: 'Carol', username: 'carol' });
const me = makeUserSummary({ id: ALICE.id, name: ALICE.name, username: ALICE.username });

const conversation = (id: string, overrides: Partial<Conversation> = {}): Conversation => ({
  id,
  participants: [BOB],
  lastPost: makePost({ id: `${id}0`, text: `Last words of ${id}`, author: BOB, visibility: 'direct' }),
  unread: false,
  updatedAt: new Date().toISOString(),
  ...overrides,
});

function PostStub() {
  return <p>post page {useParams().id}</p>;
}

function renderMessages() {
  return renderApp(
    <Routes>
      <Route path="/messages" element={<MessagesPage />} />
      <Route path="/posts/:id" element={<PostStub />} />
    </Routes>,
    { route: '/messages' },
  );
}

describe('the Messages page', () => {
  it('lists conversations with their people and last post, the unread ones said so; opening one reads it', async () => {
    const unread = conversation('7', { unread: true });
    const group = conversation('5', {
      participants: [BOB, CAROL],
      lastPost: makePost({ id: '50', text: 'See you there', author: me, visibility: 'direct' }),
    });
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/conversations': () => json({ items: [unread, group], nextCursor: null }),
      'GET /api/conversations/unread': () => json({ count: 1 }),
      'POST /api/conversations/7/read': () => noContent(),
    });
    renderMessages();
    const row = await screen.findByRole('article', { name: 'Conversation with Bob Builder, unread' });
    expect(row).toHaveTextContent('(unread)');
    expect(row).toHaveTextContent('Last words of 7');
    const other = screen.getByRole('article', { name: 'Conversation with Bob Builder and Carol' });
    expect(other).toHaveTextContent('You: See you there');
    expect(other).not.toHaveTextContent('(unread)');

    await userEvent.click(within(row).getByText('Last words of 7'));
    expect(await screen.findByText('post page 70')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/conversations/7/read')).toHaveLength(1);
    // A read one is not read again.
    expect(server.callsTo('POST', '/api/conversations/5/read')).toHaveLength(0);
  });

  it('deletes a conversation after a confirmation, and says what will appear when none are left', async () => {
    let items = [conversation('7')];
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/conversations': () => json({ items, nextCursor: null }),
      'GET /api/conversations/unread': () => json({ count: 0 }),
      'DELETE /api/conversations/7': () => {
        items = [];
        return noContent();
      },
    });
    renderMessages();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete conversation with Bob Builder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete conversation?' });
    expect(server.callsTo('DELETE', '/api/conversations/7')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No conversations yet')).toBeInTheDocument();
    expect(screen.getByText('Posts you send to mentioned people only appear here.')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/api/conversations/7')).toHaveLength(1);
  });

  it('offers a retry when the list cannot be loaded', async () => {
    let fail = true;
    mockFetch({
      ...signedInRoutes(),
      'GET /api/conversations': () =>
        fail ? json({ code: 'INTERNAL_ERROR', message: 'no' }, 500) : json({ items: [], nextCursor: null }),
      'GET /api/conversations/unread': () => json({ count: 0 }),
    });
    renderMessages();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Couldn’t load your messages.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No conversations yet')).toBeInTheDocument();
  });
});
