import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred, json, mockFetch } from '../../../test/fetch-mock.ts';
import { makePost } from '../../../test/fixtures.ts';
import { ALICE, renderApp, signedInRoutes } from '../../../test/render.tsx';
import { Composer } from './composer.tsx';
import { typingAt } from './suggestions.tsx';

const POST = makePost({ id: '10', text: 'Hello Pipit', author: ALICE });

function setup() {
  const server = mockFetch({ ...signedInRoutes(), 'POST /api/posts': () => json(POST, 201) });
  renderApp(<Composer />);
  return { server, box: screen.getByRole('textbox', { name: "What's happening?" }) };
}

const tweet = () => screen.getByRole('button', { name: 'Tweet' });

describe('Composer', () => {
  it('keeps Tweet disabled while empty or blank', async () => {
    const { box } = setup();
    const user = userEvent.setup();
    expect(tweet()).toBeDisabled();
    await user.type(box, '   ');
    expect(tweet()).toBeDisabled();
    await user.type(box, '\u200B\u200B');
    expect(tweet(), 'only invisible characters').toBeDisabled();
    await user.type(box, 'hi');
    expect(tweet()).toBeEnabled();
  });

  it('counts user-perceived characters down near the limit and turns red past it', async () => {
    const { box } = setup();
    const user = userEvent.setup();
    await user.click(box);
    await user.paste('👍🏽'.repeat(259));
    expect(screen.queryByTestId('characters-left')).not.toBeInTheDocument();
    await user.paste('👍🏽');
    expect(screen.getByTestId('characters-left')).toHaveTextContent('20');
    await user.paste('x'.repeat(20));
    expect(screen.getByTestId('characters-left')).toHaveTextContent('0');
    expect(tweet()).toBeEnabled();
    await user.paste('!');
    expect(screen.getByTestId('characters-left')).toHaveTextContent('-1');
    expect(screen.getByTestId('characters-left')).toHaveClass('text-danger');
    expect(tweet()).toBeDisabled();
  });

  it("posts on Ctrl+Enter, toasts 'Your post was sent' and empties the box", async () => {
    const { box, server } = setup();
    const user = userEvent.setup();
    await user.type(box, '  Hello Pipit  ');
    await user.keyboard('{Control>}{Enter}{/Control}');

    expect(await screen.findByText('Your post was sent')).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue(''));
    const [post] = server.callsTo('POST', '/api/posts');
    expect(JSON.parse(post?.body ?? '')).toEqual({
      text: 'Hello Pipit',
      parentId: null,
      visibility: 'public',
      quotePolicy: 'anyone',
    });
    expect(post?.headers.get('X-CSRF-Token')).toBe('csrf-1');
  });

  it("says 'Your reply was sent' for a reply, not that a Tweet was created", async () => {
    mockFetch({ ...signedInRoutes(), 'POST /api/posts': () => json({ ...POST, parentId: '7' }, 201) });
    renderApp(<Composer parentId="7" label="Post your reply" submitLabel="Reply" />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Post your reply' }), 'Agreed');
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    expect(await screen.findByText('Your reply was sent')).toBeInTheDocument();
    expect(screen.queryByText(/Tweet/)).not.toBeInTheDocument();
  });

  it('shows the server’s word on the text without its field prefix', async () => {
    mockFetch({
      ...signedInRoutes(),
      'POST /api/posts': () =>
        json(
          {
            code: 'INVALID_INPUT',
            message: 'text: Post must not contain control characters',
            field: 'text',
            issues: [{ field: 'text', message: 'text: Post must not contain control characters' }],
          },
          400,
        ),
    });
    renderApp(<Composer />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), 'Hello');
    await user.click(tweet());
    expect(await screen.findByRole('alert')).toHaveTextContent('Post must not contain control characters');
    expect(screen.queryByText(/^text:/)).not.toBeInTheDocument();
  });

  it('posts on Cmd+Enter too', async () => {
    const { box, server } = setup();
    const user = userEvent.setup();
    await user.type(box, 'Hello Pipit');
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
  });

  it('suggests people after @: Escape closes the list, Enter inserts the chosen one', async () => {
    const BOB = { ...ALICE, id: '2', name: 'Bob Builder', username: 'bob', isFollowing: false };
    const server = mockFetch({
      ...signedInRoutes(),
      'GET /api/search/people': (call) =>
        json({ items: (call.url.searchParams.get('q') ?? '').startsWith('bo') ? [BOB] : [] }),
    });
    renderApp(<Composer />);
    const box = screen.getByRole('textbox', { name: "What's happening?" });
    const user = userEvent.setup();
    await user.type(box, 'Hi @bo');
    await screen.findByRole('option', { name: /Bob Builder/ }, { timeout: 4_000 });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    // Typing on reopens it, the first suggestion highlighted; Enter inserts it (and posts nothing).
    await user.keyboard('b');
    const option = await screen.findByRole('option', { name: /Bob Builder/ }, { timeout: 4_000 });
    expect(box).toHaveAttribute('aria-activedescendant', option.id);
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('Hi @bob ');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/api/posts')).toHaveLength(0);
  }, 15_000);

  it('knows what is being typed: @name and #tag before the caret, not inside an e-mail or a word', () => {
    expect(typingAt('Hi @bo', 6)).toEqual({ sigil: '@', word: 'bo', start: 3 });
    expect(typingAt('#Caf\u00e9', 5)).toEqual({ sigil: '#', word: 'Caf\u00e9', start: 0 });
    expect(typingAt('mail bob@exa', 12)).toBeNull();
    expect(typingAt('issue#12', 8)).toBeNull();
    expect(typingAt('@bob and more', 13)).toBeNull();
    expect(typingAt('@', 1)).toBeNull();
  });
});

describe('Composer images', () => {
  const file = (name: string, type = 'image/jpeg', size = 1000) => new File([new Uint8Array(size)], name, { type });
  const uploaded = (id: string) => ({
    id,
    url: `/media/${id}.jpg`,
    previewUrl: `/media/${id}p.jpg`,
    width: 800,
    height: 600,
    blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
    alt: '',
  });

  function setupImages() {
    let next = 0;
    const server = mockFetch({
      ...signedInRoutes(),
      'POST /api/media': () => json(uploaded(String(++next)), 201),
      'POST /api/posts': () => json(POST, 201),
    });
    const { container } = renderApp(<Composer />);
    const input = container.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    return { server, input };
  }

  it('uploads chosen images at once and posts them with their alt text, images only allowed', async () => {
    const { server, input } = setupImages();
    const user = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Add images' })).toBeEnabled();
    await user.upload(input, [file('one.jpg'), file('two.png', 'image/png')]);
    await waitFor(() => expect(server.callsTo('POST', '/api/media')).toHaveLength(2));
    const sent = server.callsTo('POST', '/api/media')[0];
    expect((sent?.form?.get('file') as File | undefined)?.name).toBe('one.jpg');
    expect(sent?.headers.get('X-CSRF-Token')).toBe('csrf-1');
    const alts = screen.getAllByRole('textbox', { name: 'Alt text' });
    expect(alts).toHaveLength(2);
    await user.type(alts[1] as HTMLElement, ' A heron ');
    await waitFor(() => expect(tweet()).toBeEnabled());
    await user.click(tweet());
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    expect(JSON.parse(server.callsTo('POST', '/api/posts')[0]?.body ?? '')).toEqual({
      text: '',
      parentId: null,
      media: [
        { id: '1', alt: '' },
        { id: '2', alt: 'A heron' },
      ],
      visibility: 'public',
      quotePolicy: 'anyone',
    });
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Alt text' })).not.toBeInTheDocument());
  });

  it('keeps Tweet disabled while an image uploads, and a removed image is not posted', async () => {
    const held = deferred<Response>();
    const { server, input } = setupImages();
    server.on('POST /api/media', () => held.promise);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), 'look');
    await user.upload(input, file('slow.jpg'));
    expect(await screen.findByLabelText('Uploading image 1')).toBeInTheDocument();
    expect(tweet()).toBeDisabled();
    held.resolve(json(uploaded('9'), 201));
    await waitFor(() => expect(tweet()).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Remove image 1' }));
    await user.click(tweet());
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    expect(JSON.parse(server.callsTo('POST', '/api/posts')[0]?.body ?? '')).toEqual({
      text: 'look',
      parentId: null,
      visibility: 'public',
      quotePolicy: 'anyone',
    });
  });

  it('refuses a GIF, a fifth image and a refused upload with a message, keeping the rest', async () => {
    const { server, input } = setupImages();
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(input, file('cat.gif', 'image/gif'));
    expect(await screen.findByText(/GIF images are not supported yet/)).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/media')).toHaveLength(0);
    await user.upload(input, [file('a.jpg'), file('b.jpg'), file('c.jpg'), file('d.jpg'), file('e.jpg')]);
    expect(await screen.findByText('You can add up to 4 images to a post.')).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo('POST', '/api/media')).toHaveLength(4));
    expect(screen.getByRole('button', { name: 'Add images' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Remove image 4' }));
    server.on('POST /api/media', () =>
      json(
        { code: 'UNSUPPORTED_IMAGE', message: 'file must be a JPEG, PNG or WebP image (checked by its bytes).' },
        400,
      ),
    );
    await user.upload(input, file('fake.jpg'));
    expect(
      await screen.findByText('file must be a JPEG, PNG or WebP image (checked by its bytes).'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('textbox', { name: 'Alt text' })).toHaveLength(3));
  });
});

describe('Composer quoting', () => {
  it('shows the quoted post under the box and sends quoteOfId', async () => {
    const quoted = makePost({ id: '42', text: 'Quote me on that' });
    const server = mockFetch({ ...signedInRoutes(), 'POST /api/posts': () => json(POST, 201) });
    renderApp(<Composer quote={quoted} label="Add a comment" />);
    expect(screen.getByText('Quote me on that')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Add a comment' }), 'So true');
    await user.click(tweet());
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    expect(JSON.parse(server.callsTo('POST', '/api/posts')[0]?.body ?? '')).toEqual({
      text: 'So true',
      parentId: null,
      quoteOfId: '42',
      visibility: 'public',
      quotePolicy: 'anyone',
    });
  });
});

describe('Composer: content warnings and edits', () => {
  it('adds a content warning with CW, sends it trimmed, and marks pictures sensitive when asked', async () => {
    const { server, box } = setup();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'CW (content warning)' }));
    expect(screen.getByRole('button', { name: 'CW (content warning)' })).toHaveAttribute('aria-pressed', 'true');
    await user.type(screen.getByRole('textbox', { name: 'Content warning' }), '  Film ending ');
    await user.type(box, 'The butler did it');
    await user.click(tweet());
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    expect(JSON.parse(server.callsTo('POST', '/api/posts')[0]?.body ?? '{}')).toMatchObject({
      text: 'The butler did it',
      spoilerText: 'Film ending',
      sensitive: true,
    });
  });

  it('keeps Tweet disabled while the warning is over 100 characters', async () => {
    const { box } = setup();
    const user = userEvent.setup();
    await user.type(box, 'hello');
    await user.click(screen.getByRole('button', { name: 'CW (content warning)' }));
    await user.click(screen.getByRole('textbox', { name: 'Content warning' }));
    await user.paste('x'.repeat(101));
    expect(tweet()).toBeDisabled();
    expect(screen.getByText('A content warning can be at most 100 characters.')).toBeInTheDocument();
  });

  it('edits a post: starts from its text, warning and pictures, and saves them with PATCH', async () => {
    const picture = {
      id: '5',
      url: '/media/a.jpg',
      previewUrl: '/media/a-small.jpg',
      width: 40,
      height: 30,
      blurhash: 'x',
      alt: 'A kestrel',
    };
    const mine = makePost({
      id: '10',
      text: 'Old words',
      spoilerText: 'Birds',
      sensitive: true,
      media: [picture],
      author: ALICE,
    });
    const server = mockFetch({
      ...signedInRoutes(),
      'PATCH /api/posts/10': () => json({ ...mine, text: 'New words', editedAt: new Date().toISOString() }),
    });
    renderApp(<Composer editing={mine} submitLabel="Save" label="Edit your post" />);
    const box = screen.getByRole('textbox', { name: 'Edit your post' });
    expect(box).toHaveValue('Old words');
    expect(screen.getByRole('textbox', { name: 'Content warning' })).toHaveValue('Birds');
    expect(screen.getByRole('textbox', { name: 'Alt text' })).toHaveValue('A kestrel');
    // Who may see it does not change with an edit.
    expect(screen.queryByRole('button', { name: /visibility|Public/i })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.clear(box);
    await user.type(box, 'New words');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.callsTo('PATCH', '/api/posts/10')).toHaveLength(1));
    expect(JSON.parse(server.callsTo('PATCH', '/api/posts/10')[0]?.body ?? '{}')).toEqual({
      text: 'New words',
      spoilerText: 'Birds',
      sensitive: true,
      media: [{ id: '5', alt: 'A kestrel' }],
    });
    expect(await screen.findByText('Your post was saved')).toBeInTheDocument();
  });

  describe('a post with a poll', () => {
    const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
    const withPoll = () =>
      makePost({
        id: '11',
        text: 'Which bird?',
        author: ALICE,
        poll: {
          id: '11',
          expiresAt: inAnHour(),
          expired: false,
          multiple: false,
          hideTotals: false,
          votersCount: 2,
          votesCount: 2,
          options: [
            { title: 'Wren', votesCount: 1 },
            { title: 'Robin', votesCount: 1 },
          ],
          voted: false,
          ownVotes: [],
        },
      });
    const edit = (post: ReturnType<typeof makePost>) => {
      const server = mockFetch({ ...signedInRoutes(), 'PATCH /api/posts/11': () => json(post) });
      renderApp(<Composer editing={post} submitLabel="Save" label="Edit your post" />);
      return server;
    };
    const sent = (server: ReturnType<typeof mockFetch>) =>
      JSON.parse(server.callsTo('PATCH', '/api/posts/11')[0]?.body ?? '{}');

    it('starts with its poll; the text alone is saved without it (its votes and end stay)', async () => {
      const server = edit(withPoll());
      expect(screen.getByRole('textbox', { name: 'Choice 1' })).toHaveValue('Wren');
      expect(screen.getByRole('textbox', { name: 'Choice 2' })).toHaveValue('Robin');
      expect(screen.getByRole('button', { name: 'Add images' })).toBeDisabled();
      const user = userEvent.setup();
      await user.type(screen.getByRole('textbox', { name: 'Edit your post' }), ' Really?');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(server.callsTo('PATCH', '/api/posts/11')).toHaveLength(1));
      expect(sent(server)).toEqual({ text: 'Which bird? Really?', spoilerText: '', sensitive: false, media: [] });
    });

    it('sends the poll when its choices change, and says the votes will go', async () => {
      const server = edit(withPoll());
      const user = userEvent.setup();
      expect(screen.queryByText(/takes away the votes/)).not.toBeInTheDocument();
      await user.clear(screen.getByRole('textbox', { name: 'Choice 2' }));
      await user.type(screen.getByRole('textbox', { name: 'Choice 2' }), 'Swift');
      expect(screen.getByText(/takes away the votes so far; those who voted are told/)).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(server.callsTo('PATCH', '/api/posts/11')).toHaveLength(1));
      expect(sent(server).poll).toEqual({
        options: ['Wren', 'Swift'],
        expiresIn: 3600,
        multiple: false,
        hideTotals: false,
      });
    });

    it('removes the poll with null', async () => {
      const server = edit(withPoll());
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Remove poll' }));
      expect(screen.queryByRole('textbox', { name: 'Choice 1' })).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(server.callsTo('PATCH', '/api/posts/11')).toHaveLength(1));
      expect(sent(server).poll).toBeNull();
    });
  });
});
