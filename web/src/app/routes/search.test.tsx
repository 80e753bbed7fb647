import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../test/fetch-mock.ts';
import { makeUser } from '../../test/fixtures.ts';
import { renderApp, signedInRoutes } from '../../test/render.tsx';
import { SearchPage } from './search.tsx';

const carol = makeUser({ id: '7', name: 'Carol Elsewhere', username: 'carol', domain: 'elsewhere.social' });

describe('Search for someone elsewhere', () => {
  it('opens on People, asks her server (resolve) for a member, and names her with her server', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/search/people': () => json({ items: [carol] }),
    });
    renderApp(<SearchPage />, { route: `/search?q=${encodeURIComponent('@carol@elsewhere.social')}` });
    expect(await screen.findByRole('tab', { name: 'People', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('@carol@elsewhere.social')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        server.callsTo('GET', '/api/search/people').some((c) => c.url.searchParams.get('resolve') === 'true'),
      ).toBe(true),
    );
  });

  it("a visitor's search finds only whom Pipit knows (no resolve)", async () => {
    const server = mockFetch({ 'GET /api/search/people': () => json({ items: [carol] }) });
    renderApp(<SearchPage />, { route: `/search?q=${encodeURIComponent('@carol@elsewhere.social')}` });
    expect(await screen.findByText('@carol@elsewhere.social')).toBeInTheDocument();
    const calls = server.callsTo('GET', '/api/search/people');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.url.searchParams.get('resolve') === null)).toBe(true);
  });
});
