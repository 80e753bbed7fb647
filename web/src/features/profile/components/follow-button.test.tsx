import type { User } from '@pipit/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ModalHost } from '../../../app/modal-host.tsx';
import { useUserView } from '../../../state/shadow.ts';
import { useUser } from '../../../state/users.ts';
import { deferred, json, mockFetch } from '../../../test/fetch-mock.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';
import { FollowButton } from './follow-button.tsx';

const BOB = makeUser({ id: '2', name: 'Bob Builder', username: 'bob' });

/** As the profile page shows a person: the cached profile seen through the overlay of a toggle in flight. */
function Shown({ user: cached }: { user: User }) {
  const user = useUserView(cached);
  return (
    <div>
      <p data-testid="followers">{user.followersCount}</p>
      <FollowButton user={user} />
    </div>
  );
}

function Profile() {
  const { data } = useUser('2');
  return data ? <Shown user={data} /> : null;
}

describe('following someone', () => {
  it('shows Following and the new count at once, then settles to the answer', async () => {
    const answer = deferred<Response>();
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/users/2': () => json(BOB),
      'PUT /api/users/2/follow': () => answer.promise,
    });
    const user = userEvent.setup();
    renderApp(<Profile />);
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: 'Follow' }));

    expect(screen.getByRole('button', { name: 'Following' })).toBeInTheDocument();
    expect(screen.getByTestId('followers')).toHaveTextContent('1');
    answer.resolve(json({ ...BOB, isFollowing: true, followersCount: 7 }));
    await waitFor(() => expect(screen.getByTestId('followers')).toHaveTextContent('7'));
    expect(screen.getByRole('button', { name: 'Following' })).toBeInTheDocument();
  });

  it('rolls back when the server refuses, and the count never goes below zero', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/users/2': () => json({ ...BOB, isFollowing: true, followersCount: 0 }),
      'DELETE /api/users/2/follow': () => json({ code: 'RATE_LIMITED', message: 'Slow down' }, 429),
    });
    const user = userEvent.setup();
    renderApp(<Profile />);
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: 'Following' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Could not unfollow. Try again.');
    expect(screen.getByRole('button', { name: 'Following' })).toBeInTheDocument();
    expect(screen.getByTestId('followers')).toHaveTextContent(/^[01]$/);
  });

  it("says 'Unfollow' under the pointer, but not right after following", async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/users/2': () => json(BOB),
      'PUT /api/users/2/follow': () => json({ ...BOB, isFollowing: true, followersCount: 1 }),
    });
    const user = userEvent.setup();
    renderApp(<Profile />);
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    const button = await screen.findByRole('button', { name: 'Follow' });
    await user.hover(button);
    expect(button).toHaveAccessibleName('Follow');
    await user.click(button);
    await waitFor(() => expect(server.callsTo('PUT', '/api/users/2/follow')).toHaveLength(1));
    expect(button).toHaveAccessibleName('Following');

    await user.unhover(button);
    await user.hover(button);
    expect(button).toHaveAccessibleName('Unfollow');
    await user.unhover(button);
    expect(button).toHaveAccessibleName('Following');
  });

  it('asks a visitor to sign in instead', async () => {
    const server = mockFetch({ 'GET /api/users/2': () => json(BOB) });
    const user = userEvent.setup();
    renderApp(
      <>
        <Profile />
        <ModalHost />
      </>,
    );
    await user.click(await screen.findByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    expect(server.callsTo('PUT', '/api/users/2/follow')).toHaveLength(0);
  });

  it('asks someone who approves followers: Requested at once, no count moved; clicking again withdraws it', async () => {
    const locked = { ...BOB, locked: true };
    const answer = deferred<Response>();
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/users/2': () => json(locked),
      'PUT /api/users/2/follow': () => answer.promise,
      'DELETE /api/users/2/follow': () => json(locked),
    });
    const user = userEvent.setup();
    renderApp(<Profile />);
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: 'Follow' }));

    expect(screen.getByRole('button', { name: 'Requested' })).toBeInTheDocument();
    expect(screen.getByTestId('followers')).toHaveTextContent('0');
    answer.resolve(json({ ...locked, followRequested: true }));
    await waitFor(() => expect(server.callsTo('PUT', '/api/users/2/follow')).toHaveLength(1));
    const requested = await screen.findByRole('button', { name: 'Requested' });
    await user.unhover(requested);
    await user.hover(requested);
    expect(requested).toHaveAccessibleName('Cancel request');
    await user.click(requested);
    await waitFor(() => expect(server.callsTo('DELETE', '/api/users/2/follow')).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(screen.getByTestId('followers')).toHaveTextContent('0');
  });
});
