import type { Visibility } from '@pipit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetch-mock.ts';
import { makePost } from '../../../test/fixtures.ts';
import { ALICE, renderApp, signedInRoutes } from '../../../test/render.tsx';
import { Composer } from './composer.tsx';

const POST = makePost({ id: '10', text: 'Hello Pipit', author: ALICE });

function setup(defaultVisibility: Visibility, props: Parameters<typeof Composer>[0] = {}) {
  const server = mockFetch({
    ...signedInRoutes(),
    'GET /api/current': () => json({ ...ALICE, defaultVisibility }),
    'POST /api/posts': () => json(POST, 201),
  });
  renderApp(<Composer {...props} />);
  return server;
}

const sent = (server: ReturnType<typeof setup>) => JSON.parse(server.callsTo('POST', '/api/posts')[0]?.body ?? '');

async function openMenu(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: /^Visibility: / }));
  return screen.getByRole('menu', { name: 'Who can see and quote this' });
}

describe('the composer’s visibility', () => {
  it('starts at the member’s default and sends it', async () => {
    const server = setup('followers');
    const user = userEvent.setup();
    expect(await screen.findByRole('button', { name: 'Visibility: Followers only' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), 'For friends');
    await user.click(screen.getByRole('button', { name: 'Tweet' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    // A followers-only post can be quoted by followers at most.
    expect(sent(server)).toMatchObject({ visibility: 'followers', quotePolicy: 'followers' });
  });

  it('offers the four with their meaning in words; the chosen one is checked and focused, and is sent', async () => {
    const server = setup('public');
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Visibility: Public' });
    const menu = await openMenu(user);
    const items = within(menu).getAllByRole('menuitemradio');
    expect(items.map((item) => item.textContent)).toEqual([
      'PublicAnyone can see this',
      'UnlistedAnyone can see this, but not on Everyone, hashtags or search',
      'Followers onlyOnly your followers and people you mention',
      'Mentioned people onlyOnly people you mention',
      'Anyone',
      'Your followers',
      'Nobody',
    ]);
    const pub = within(menu).getByRole('menuitemradio', { name: 'Public' });
    expect(pub).toHaveAttribute('aria-checked', 'true');
    expect(pub).toHaveAccessibleDescription('Anyone can see this');
    expect(pub).toHaveFocus();
    expect(within(menu).getByRole('group', { name: 'Who can see this' })).toBeInTheDocument();
    expect(within(menu).getByRole('group', { name: 'Who can quote' })).toBeInTheDocument();
    // Arrow keys move; Enter chooses and closes, focus back on the button.
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitemradio', { name: 'Unlisted' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Visibility: Unlisted' });
    expect(button).toHaveFocus();

    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), 'Quietly');
    await user.click(screen.getByRole('button', { name: 'Tweet' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    expect(sent(server)).toMatchObject({ visibility: 'unlisted', quotePolicy: 'anyone' });
    // Sent: the next post starts at the default again.
    expect(await screen.findByRole('button', { name: 'Visibility: Public' })).toBeInTheDocument();
  });

  it('narrows who may quote with the visibility: mentioned-only posts nobody', async () => {
    const server = setup('public');
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Visibility: Public' });
    let menu = await openMenu(user);
    await user.click(within(menu).getByRole('menuitemradio', { name: 'Mentioned people only' }));
    menu = await openMenu(user);
    expect(within(menu).getByRole('menuitemradio', { name: 'Nobody' })).toHaveAttribute('aria-checked', 'true');
    const anyone = within(menu).getByRole('menuitemradio', { name: 'Anyone' });
    expect(anyone).toHaveAttribute('aria-disabled', 'true');
    await user.click(anyone);
    expect(within(menu).getByRole('menuitemradio', { name: 'Nobody' })).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), '@bob psst');
    await user.click(screen.getByRole('button', { name: 'Tweet' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    expect(sent(server)).toMatchObject({ visibility: 'direct', quotePolicy: 'nobody' });
  });

  it('keeps the quote policy chosen for a public post', async () => {
    const server = setup('public');
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Visibility: Public' });
    const menu = await openMenu(user);
    await user.click(within(menu).getByRole('menuitemradio', { name: 'Nobody' }));
    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), 'Mine alone');
    await user.click(screen.getByRole('button', { name: 'Tweet' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    expect(sent(server)).toMatchObject({ visibility: 'public', quotePolicy: 'nobody' });
  });

  it('starts a reply at a narrower parent’s visibility and offers nothing wider, saying why', async () => {
    const server = setup('public', { parentId: '7', parentVisibility: 'followers', submitLabel: 'Reply' });
    const user = userEvent.setup();
    await waitFor(() => expect(server.callsTo('GET', '/api/current')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Visibility: Followers only' })).toBeInTheDocument();
    const menu = await openMenu(user);
    for (const name of ['Public', 'Unlisted']) {
      const item = within(menu).getByRole('menuitemradio', { name });
      expect(item).toHaveAttribute('aria-disabled', 'true');
      expect(item).toHaveAccessibleDescription(
        'A reply can’t be seen by more people than the post it answers (followers only)',
      );
    }
    await user.click(within(menu).getByRole('menuitemradio', { name: 'Public' }));
    expect(screen.getByRole('button', { name: 'Visibility: Followers only' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitemradio', { name: 'Mentioned people only' })).not.toHaveAttribute(
      'aria-disabled',
    );
  });

  it('keeps a reply at the member’s default when that is narrower than the parent', async () => {
    setup('direct', { parentId: '7', parentVisibility: 'unlisted', submitLabel: 'Reply' });
    expect(await screen.findByRole('button', { name: 'Visibility: Mentioned people only' })).toBeInTheDocument();
  });

  it('shows the server’s refusal of a quote its author does not allow', async () => {
    mockFetch({
      ...signedInRoutes(),
      'POST /api/posts': () =>
        json({ code: 'FORBIDDEN', message: "Only the author's followers may quote this post." }, 403),
    });
    renderApp(<Composer quote={makePost({ id: '42', quotePolicy: 'followers' })} label="Add a comment" />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Add a comment' }), 'So true');
    await user.click(screen.getByRole('button', { name: 'Tweet' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("Only the author's followers may quote this post.");
  });
});

describe('the composer before the member’s profile has arrived', () => {
  it('leaves the visibility to the server (their default) unless one was chosen', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      // The profile never answers: the default is not known here.
      'GET /api/current': () => new Promise<Response>(() => {}),
      'POST /api/posts': () => json(POST, 201),
    });
    renderApp(<Composer />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), 'Early bird');
    await user.click(screen.getByRole('button', { name: 'Tweet' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    expect(sent(server)).toEqual({ text: 'Early bird', parentId: null });
  });
});
