import type { User } from '@pipit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SettingsPage } from '../../../app/routes/settings.tsx';
import { UserPage } from '../../../app/routes/user.tsx';
import { json, mockFetch, noContent } from '../../../test/fetch-mock.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';

const BOB = makeUser({ id: '2', name: 'Bob Builder', username: 'bob', isFollowing: true });
const EMPTY_PAGE = { items: [], nextCursor: null };

function profileRoutes(bob: () => User) {
  return {
    ...signedInRoutes(),
    'GET /api/users/2': () => json(bob()),
    'GET /api/users/2/posts': () => json(EMPTY_PAGE),
  };
}

const renderProfile = () =>
  renderApp(
    <Routes>
      <Route path="/users/:id" element={<UserPage />} />
    </Routes>,
    { route: '/users/2' },
  );

describe('More on a profile', () => {
  it('blocks after a confirmation: the Follow button goes and the profile says so; Unblock undoes it', async () => {
    let bob = BOB;
    const server = mockFetch({
      ...profileRoutes(() => bob),
      'PUT /api/users/2/block': () => {
        bob = { ...bob, isBlocking: true, isFollowing: false };
        return json(bob);
      },
      'DELETE /api/users/2/block': () => {
        bob = { ...bob, isBlocking: false };
        return json(bob);
      },
    });
    renderProfile();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'More' }));
    const menu = screen.getByRole('menu', { name: 'More for @bob' });
    // The first item has focus; arrows move through the menu.
    expect(within(menu).getByRole('menuitem', { name: 'Mute @bob' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Block @bob' })).toHaveFocus();
    await user.keyboard('{Enter}');
    const confirm = await screen.findByRole('dialog', { name: 'Block @bob?' });
    await user.click(within(confirm).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('You blocked @bob')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Follow/ })).not.toBeInTheDocument();
    expect(server.callsTo('PUT', '/api/users/2/block')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'More' }));
    await user.click(screen.getByRole('menuitem', { name: 'Unblock @bob' }));
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/api/users/2/block')).toHaveLength(1);
  }, 15_000);

  it('mutes for a chosen time; Escape closes the menu and gives focus back', async () => {
    let bob = BOB;
    const server = mockFetch({
      ...profileRoutes(() => bob),
      'PUT /api/users/2/mute': () => {
        bob = { ...bob, isMuting: true };
        return json(bob);
      },
    });
    renderProfile();
    const user = userEvent.setup();
    const more = await screen.findByRole('button', { name: 'More' });
    await user.click(more);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(more).toHaveFocus();

    await user.click(more);
    await user.click(screen.getByRole('menuitem', { name: 'Mute @bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mute @bob?' });
    await user.click(within(dialog).getByRole('radio', { name: '7 days' }));
    await user.click(within(dialog).getByRole('button', { name: 'Mute' }));
    await waitFor(() => expect(server.callsTo('PUT', '/api/users/2/mute')).toHaveLength(1));
    expect(JSON.parse(server.callsTo('PUT', '/api/users/2/mute')[0]?.body ?? '')).toEqual({
      durationSeconds: 7 * 24 * 60 * 60,
    });
    await user.click(screen.getByRole('button', { name: 'More' }));
    expect(await screen.findByRole('menuitem', { name: 'Unmute @bob' })).toBeInTheDocument();
  }, 15_000);
});

describe('Settings: muted words, muted and blocked accounts', () => {
  it('adds and removes muted words, shows the server’s word on a bad one, and unmutes and unblocks people', async () => {
    let words = [{ id: '1', phrase: 'spoilers', createdAt: '2026-11-25T10:00:00.000Z' }];
    let muted = [{ ...makeUser({ id: '3', name: 'Carol', username: 'carol' }), isMuting: true, mutedUntil: null }];
    let blocked = [makeUser({ id: '2', name: 'Bob Builder', username: 'bob', isBlocking: true })];
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/sessions': () => json({ items: [] }),
      'GET /api/muted-words': () => json({ items: words }),
      'POST /api/muted-words': (request) => {
        const { phrase } = JSON.parse(request.body ?? '{}') as { phrase: string };
        if (phrase === 'x'.repeat(5)) {
          return json(
            {
              code: 'INVALID_INPUT',
              field: 'phrase',
              message: 'phrase: You can mute at most 100 words or phrases; remove one first.',
            },
            400,
          );
        }
        const word = { id: '2', phrase, createdAt: '2026-11-25T11:00:00.000Z' };
        words = [word, ...words];
        return json(word, 201);
      },
      'DELETE /api/muted-words/1': () => {
        words = words.filter((w) => w.id !== '1');
        return noContent();
      },
      'GET /api/mutes': () => json({ items: muted, nextCursor: null }),
      'DELETE /api/users/3/mute': () => {
        muted = [];
        return json(makeUser({ id: '3', username: 'carol' }));
      },
      'GET /api/blocks': () => json({ items: blocked, nextCursor: null }),
      'DELETE /api/users/2/block': () => {
        blocked = [];
        return json(makeUser({ id: '2', username: 'bob' }));
      },
    });
    renderApp(<SettingsPage />);
    const user = userEvent.setup();
    const wordList = await screen.findByRole('list', { name: 'Muted words' });
    expect(within(wordList).getByText('spoilers')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Word or phrase'), 'xxxxx');
    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(await screen.findByText('You can mute at most 100 words or phrases; remove one first.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Word or phrase'));
    await user.type(screen.getByLabelText('Word or phrase'), 'election');
    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(await within(wordList).findByText('election')).toBeInTheDocument();
    expect(screen.getByLabelText('Word or phrase')).toHaveValue('');

    await user.click(within(wordList).getByRole('button', { name: 'Unmute “spoilers”' }));
    await waitFor(() => expect(within(wordList).queryByText('spoilers')).not.toBeInTheDocument());

    const mutedList = screen.getByRole('list', { name: 'Muted accounts' });
    expect(within(mutedList).getByText(/until you unmute/)).toBeInTheDocument();
    await user.click(within(mutedList).getByRole('button', { name: 'Unmute @carol' }));
    expect(await screen.findByText('You haven’t muted anyone.')).toBeInTheDocument();

    await user.click(
      within(screen.getByRole('list', { name: 'Blocked accounts' })).getByRole('button', { name: 'Unblock @bob' }),
    );
    expect(await screen.findByText('You haven’t blocked anyone.')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/api/users/2/block')).toHaveLength(1);
  }, 20_000);
});
