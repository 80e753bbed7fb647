import type { List } from '@pipit/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ListPage } from '../../../app/routes/list.tsx';
import { ListsPage } from '../../../app/routes/lists.tsx';
import { json, mockFetch, noContent } from '../../../test/fetch-mock.ts';
import { makePage, makePost, makeUser } from '../../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';

const BOB = makeUser({ id: '2', name: 'Bob Builder', username: 'bob', isFollowing: true });
const CAL = makeUser({ id: '3', name: 'Cal Crow', username: 'cal', isFollowing: true });
const makeList = (overrides: Partial<List> = {}): List => ({
  id: '7',
  title: 'Birders',
  repliesPolicy: 'list',
  exclusive: false,
  memberCount: 0,
  createdAt: new Date().toISOString(),
  ...overrides,
});

const renderList = (route = '/lists/7') =>
  renderApp(
    <Routes>
      <Route path="/lists" element={<ListsPage />} />
      <Route path="/lists/:id" element={<ListPage />} />
    </Routes>,
    { route },
  );

describe('lists', () => {
  it('shows an empty state, then creates a list and opens its members', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/lists': () => json({ items: [] }),
      'POST /api/lists': () => json(makeList(), 201),
      'GET /api/lists/7': () => json(makeList()),
      'GET /api/lists/7/members': () => json(makePage([])),
      'GET /api/lists/7/candidates': () => json({ items: [] }),
    });
    renderList('/lists');
    expect(await screen.findByText('No lists yet')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'New list' }), 'Birders');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('tab', { name: 'Members', selected: true })).toBeInTheDocument();
    expect(JSON.parse(server.callsTo('POST', '/api/lists')[0]?.body ?? '{}')).toEqual({ title: 'Birders' });
    expect(await screen.findByText('Follow people to add them to your lists.')).toBeInTheDocument();
  });

  it('adds someone followed from the editor, and says so when the server refuses one', async () => {
    let members = [BOB];
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/lists/7': () => json(makeList({ memberCount: members.length })),
      'GET /api/lists/7/members': () => json(makePage(members)),
      'GET /api/lists/7/candidates': () =>
        json({ items: [CAL, BOB].map((p) => ({ ...p, inList: members.some((m) => m.id === p.id) })) }),
      'PUT /api/lists/7/members/3': () => {
        members = [CAL, ...members];
        return json(CAL);
      },
    });
    renderList('/lists/7?tab=members');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add @cal' }));
    expect(server.callsTo('PUT', '/api/lists/7/members/3')).toHaveLength(1);
    const onList = await screen.findByRole('list', { name: 'Members' });
    expect(await within(onList).findByText('@cal')).toBeInTheDocument();
    // Marked on the list among the people followed too (asked again after the change).
    const found = within(screen.getByRole('list', { name: 'People you follow' }));
    expect(await found.findByRole('button', { name: 'Remove @cal' })).toBeInTheDocument();

    server.on('DELETE /api/lists/7/members/2', () =>
      json({ code: 'NOT_FOUND', message: 'This list does not exist.' }, 404),
    );
    await user.click(within(onList).getByRole('button', { name: 'Remove @bob' }));
    expect(await screen.findByText('This list does not exist.')).toBeInTheDocument();
  });

  it('shows the timeline, and deletes the list only after a confirmation', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/lists': () => json({ items: [] }),
      'GET /api/lists/7': () => json(makeList({ memberCount: 1, exclusive: true })),
      'GET /api/lists/7/posts': () => json(makePage([makePost({ text: 'A wren on the fence' })])),
      'DELETE /api/lists/7': () => noContent(),
    });
    renderList();
    expect(await screen.findByText('A wren on the fence')).toBeInTheDocument();
    expect(screen.getByText('1 member · Exclusive')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete list' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete list?' });
    expect(confirm).toHaveTextContent('their posts come back to Home');
    expect(server.callsTo('DELETE', '/api/lists/7')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No lists yet')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/api/lists/7')).toHaveLength(1);
  });

  it("answers someone else's list (404) as a list that does not exist", async () => {
    mockFetch({
      ...signedInRoutes(),
      'GET /api/lists/7': () => json({ code: 'NOT_FOUND', message: 'This list does not exist.' }, 404),
    });
    renderList();
    expect(await screen.findByText('This list doesn’t exist.')).toBeInTheDocument();
  });
});
