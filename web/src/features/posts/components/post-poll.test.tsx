import type { Poll } from '@pipit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ModalHost } from '../../../app/modal-host.tsx';
import { usePost } from '../../../state/posts.ts';
import { json, mockFetch } from '../../../test/fetch-mock.ts';
import { makePost, makeUserSummary } from '../../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';
import { PostCard } from './post-card.tsx';

const POLL: Poll = {
  id: '10',
  expiresAt: new Date(Date.now() + 2 * 3_600_000 + 60_000).toISOString(),
  expired: false,
  multiple: false,
  hideTotals: false,
  votersCount: 3,
  votesCount: 3,
  options: [
    { title: 'Wren', votesCount: 1 },
    { title: 'Robin', votesCount: 2 },
  ],
  voted: false,
  ownVotes: [],
};
const BOB = makeUserSummary({ id: '2', name: 'Bob Builder', username: 'bob' });
const POST = makePost({ id: '10', text: 'Which bird?', author: BOB, poll: POLL });

function Shown() {
  const { data } = usePost('10');
  return data ? <PostCard post={data} /> : null;
}

describe('a post’s poll', () => {
  it('offers its options to a member who has not voted, sends the choice and shows the results with it marked', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/posts/10': () => json(POST),
      'POST /api/posts/10/poll/votes': () =>
        json({
          ...POST,
          poll: {
            ...POLL,
            votersCount: 4,
            votesCount: 4,
            options: [
              { title: 'Wren', votesCount: 2 },
              { title: 'Robin', votesCount: 2 },
            ],
            voted: true,
            ownVotes: [0],
          },
        }),
    });
    renderApp(<Shown />);
    const card = await screen.findByRole('article');
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    const group = within(card).getByRole('group', { name: 'Poll: choose one' });
    expect(card).toHaveTextContent('3 votes · 2 hours left');
    const vote = within(group).getByRole('button', { name: 'Vote' });
    expect(vote).toBeDisabled();
    const user = userEvent.setup();
    await user.click(within(group).getByRole('radio', { name: 'Wren' }));
    await user.click(vote);

    const results = await within(card).findByRole('list', { name: 'Poll results' });
    expect(JSON.parse(server.callsTo('POST', '/api/posts/10/poll/votes')[0]?.body ?? '')).toEqual({ choices: [0] });
    expect(
      within(results)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['50%WrenYour choice', '50%Robin']);
    expect(card).toHaveTextContent('4 votes');
  });

  it('shows the results at the end ("Final results"), and the options without counts while they are hidden', async () => {
    const ended = { ...POLL, expired: true, expiresAt: new Date(Date.now() - 1000).toISOString() };
    mockFetch({ ...signedInRoutes(), 'GET /api/posts/10': () => json({ ...POST, poll: ended }) });
    renderApp(<Shown />);
    const card = await screen.findByRole('article');
    expect(await within(card).findByRole('list', { name: 'Poll results' })).toHaveTextContent('33%Wren67%Robin');
    expect(card).toHaveTextContent('3 votes · Final results');
  });

  it('hidden counts: the voter sees the options and when the results will show', async () => {
    const hidden = {
      ...POLL,
      hideTotals: true,
      voted: true,
      ownVotes: [1],
      options: POLL.options.map((o) => ({ ...o, votesCount: null })),
    };
    mockFetch({ ...signedInRoutes(), 'GET /api/posts/10': () => json({ ...POST, poll: hidden }) });
    renderApp(<Shown />);
    const card = await screen.findByRole('article');
    const results = await within(card).findByRole('list', { name: 'Poll results' });
    expect(results).toHaveTextContent('WrenRobinYour choice');
    expect(results).not.toHaveTextContent('%');
    expect(card).toHaveTextContent('Results will show when the poll ends.');
  });

  it('asks a visitor to sign in to vote', async () => {
    const server = mockFetch({ 'GET /api/auth/session': () => json({}), 'GET /api/posts/10': () => json(POST) });
    renderApp(
      <>
        <Shown />
        <ModalHost />
      </>,
    );
    const card = await screen.findByRole('article');
    expect(await within(card).findByText('Sign in to vote')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Vote' }));
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/posts/10/poll/votes')).toEqual([]);
  });
});
