import type { CurrentUser } from '@pipit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { usePost } from '../../../state/posts.ts';
import { json, mockFetch } from '../../../test/fetch-mock.ts';
import { ALICE, makePost, makeUserSummary } from '../../../test/fixtures.ts';
import { renderApp, SESSION } from '../../../test/render.tsx';
import { PostCard } from './post-card.tsx';

const BOB = makeUserSummary({ id: '2', name: 'Bob Builder', username: 'bob' });
const POST = makePost({ id: '10', text: 'buy cheap watches', author: BOB });
const routesAs = (me: CurrentUser) => ({
  'GET /api/auth/session': () => json(SESSION),
  'GET /api/current': () => json(me),
});
const bodyOf = (call: { body: string | null } | undefined) => JSON.parse(call?.body ?? 'null');

function ShownPost() {
  const { data } = usePost('10');
  return data ? <PostCard post={data} /> : null;
}

describe('reporting a post', () => {
  it('a post’s flag asks why (a category is required), sends the report and says what happens next', async () => {
    const server = mockFetch({
      ...routesAs(ALICE),
      'GET /api/posts/10': () => json(POST),
      'POST /api/posts/10/report': (call) => json({ id: '1', ...bodyOf(call) }, 201),
    });
    renderApp(<ShownPost />);
    const user = userEvent.setup();
    const card = await screen.findByRole('article');
    await user.click(await within(card).findByRole('button', { name: 'Report post' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report @bob’s post' });
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    expect(within(dialog).getByText('Choose what is wrong.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/posts/10/report')).toHaveLength(0);

    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.type(within(dialog).getByLabelText(/Anything moderators should know/), 'ads everywhere');
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    expect(await screen.findByRole('status')).toHaveTextContent('A moderator will look at it');
    expect(bodyOf(server.callsTo('POST', '/api/posts/10/report')[0])).toEqual({
      category: 'spam',
      comment: 'ads everywhere',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('one’s own posts have the bin, not the flag', async () => {
    mockFetch({ ...routesAs({ ...ALICE, id: '2', username: 'bob' }), 'GET /api/posts/10': () => json(POST) });
    renderApp(<ShownPost />);
    const card = await screen.findByRole('article');
    expect(await within(card).findByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Report post' })).not.toBeInTheDocument();
  });
});
