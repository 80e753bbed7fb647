import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../test/fetch-mock.ts';
import { makePost, makeUserSummary } from '../test/fixtures.ts';
import { renderApp } from '../test/render.tsx';
import { QuoteEmbed } from './quote-embed.tsx';

const QUOTED = makePost({
  id: '7',
  text: 'The original words',
  author: makeUserSummary({ id: '3', name: 'Carol Quoted', username: 'carol' }),
});

describe('QuoteEmbed', () => {
  it('shows the quoted post, and opens it on click without opening the quote', async () => {
    mockFetch();
    renderApp(
      <Routes>
        <Route
          path="/"
          element={
            // biome-ignore lint/a11y/useKeyWithClickEvents: a stand-in for the quoting post's row
            // biome-ignore lint/a11y/noStaticElementInteractions: as above
            <div onClick={() => screen.getByText('The original words').setAttribute('data-row', 'opened')}>
              <QuoteEmbed quote={{ state: 'shown', post: QUOTED }} />
            </div>
          }
        />
        <Route path="/posts/7" element={<p>Post 7 page</p>} />
      </Routes>,
    );
    expect(screen.getByText('Carol Quoted')).toBeInTheDocument();
    expect(screen.getByText('@carol')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByText('The original words'));
    expect(await screen.findByText('Post 7 page')).toBeInTheDocument();
  });

  it("says 'This post is unavailable', in a muted box that opens nothing, when the quoted post is deleted or hidden", () => {
    mockFetch();
    renderApp(<QuoteEmbed quote={{ state: 'unavailable' }} />);
    const box = screen.getByText('This post is unavailable');
    expect(box).toHaveClass('text-muted', 'border');
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByRole('blockquote')).not.toBeInTheDocument();
  });
});
