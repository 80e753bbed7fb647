import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetch-mock.ts';
import { makeUser, makeUserSummary } from '../../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../../test/render.tsx';
import { WhoToFollow } from './who-to-follow.tsx';

const person = (id: string, username: string) => makeUserSummary({ id, name: username.toUpperCase(), username });

describe('Who To Follow', () => {
  it('drops a person once followed, and someone new takes the place', async () => {
    let suggestions = [person('2', 'bob'), person('3', 'carol')];
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/users': () => json(suggestions),
      'PUT /api/users/2/follow': () => {
        suggestions = [person('3', 'carol'), person('4', 'dave')];
        return json(makeUser({ ...person('2', 'bob'), followersCount: 1, isFollowing: true }));
      },
    });
    const user = userEvent.setup();
    renderApp(<WhoToFollow />);
    const list = await screen.findByRole('region', { name: 'Who To Follow' });
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    const row = within(list).getByText('@bob').closest('li') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Follow' }));

    await waitFor(() => expect(within(list).queryByText('@bob')).not.toBeInTheDocument());
    expect(await within(list).findByText('@dave')).toBeInTheDocument();
    expect(within(list).getByText('@carol')).toBeInTheDocument();
  });
});
