import type { Draft, ScheduledPost } from '@pipit/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetch-mock.ts';
import { makePost } from '../../../test/fixtures.ts';
import { ALICE, renderApp, signedInRoutes } from '../../../test/render.tsx';
import { Composer } from './composer.tsx';

const DRAFT: Draft = {
  id: '5',
  post: { text: 'half a thought', visibility: 'unlisted' },
  media: [],
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

const scheduledOf = (body: { post: { text: string }; scheduledAt: string }): ScheduledPost => ({
  id: '9',
  scheduledAt: body.scheduledAt,
  post: body.post,
  media: [],
  failure: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
});

describe('Composer: drafts and scheduling', () => {
  it('saves what is written as a draft, then replaces that draft when saved again', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'POST /api/drafts': () => json(DRAFT, 201),
      'PATCH /api/drafts/5': (call) => json({ ...DRAFT, post: JSON.parse(call.body ?? '{}').post }),
    });
    renderApp(<Composer unsent />);
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: 'Save draft' });
    expect(save).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), 'half a thought');
    await user.click(save);
    expect(await screen.findByText('Saved to Drafts')).toBeInTheDocument();
    expect(JSON.parse(server.callsTo('POST', '/api/drafts')[0]?.body ?? '')).toMatchObject({
      post: { text: 'half a thought', parentId: null },
    });
    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), ', finished');
    await user.click(save);
    await waitFor(() => expect(server.callsTo('PATCH', '/api/drafts/5')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/drafts')).toHaveLength(1);
  });

  it('resumes a draft filled in, and sending it deletes the draft', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'POST /api/posts': () => json(makePost({ id: '1', text: 'half a thought', author: ALICE }), 201),
      'DELETE /api/drafts/5': () => new Response(null, { status: 204 }),
    });
    renderApp(<Composer unsent draft={DRAFT} />);
    const user = userEvent.setup();
    expect(screen.getByRole('textbox', { name: "What's happening?" })).toHaveValue('half a thought');
    await user.click(screen.getByRole('button', { name: 'Tweet' }));
    await waitFor(() => expect(server.callsTo('DELETE', '/api/drafts/5')).toHaveLength(1));
    expect(JSON.parse(server.callsTo('POST', '/api/posts')[0]?.body ?? '')).toMatchObject({
      text: 'half a thought',
      visibility: 'unlisted',
    });
  });

  it('resumes a draft behind a content warning with its warning, and sends it with it', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'POST /api/posts': () => json(makePost({ id: '2', text: 'the twist', author: ALICE }), 201),
      'DELETE /api/drafts/6': () => new Response(null, { status: 204 }),
    });
    renderApp(<Composer unsent draft={{ ...DRAFT, id: '6', post: { text: 'the twist', spoilerText: 'Plot' } }} />);
    expect(screen.getByRole('textbox', { name: 'Content warning' })).toHaveValue('Plot');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Tweet' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/posts')).toHaveLength(1));
    expect(JSON.parse(server.callsTo('POST', '/api/posts')[0]?.body ?? '')).toMatchObject({
      text: 'the twist',
      spoilerText: 'Plot',
      sensitive: true,
    });
  });

  it('schedules for a local time at least 5 minutes ahead and says when it will go out', async () => {
    const server = mockFetch({
      ...signedInRoutes(),
      'POST /api/scheduled-posts': (call) => json(scheduledOf(JSON.parse(call.body ?? '{}')), 201),
    });
    renderApp(<Composer unsent />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: "What's happening?" }), 'Good morning');
    await user.click(screen.getByRole('button', { name: 'Schedule for later' }));
    const field = screen.getByLabelText('Post on');
    // Too soon: refused before sending.
    const soon = new Date(Date.now() + 60_000);
    const local = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}T${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    await user.clear(field);
    await user.type(field, local(soon));
    expect(screen.getByRole('alert')).toHaveTextContent('at least 5 minutes');
    expect(screen.getByRole('button', { name: 'Schedule' })).toBeDisabled();
    const later = new Date(Date.now() + 2 * 3_600_000);
    await user.clear(field);
    await user.type(field, local(later));
    expect(screen.getByText(/^Will be posted/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText(/^Scheduled for/)).toBeInTheDocument();
    const [sent] = server.callsTo('POST', '/api/scheduled-posts');
    const body = JSON.parse(sent?.body ?? '');
    expect(body.post).toMatchObject({ text: 'Good morning' });
    expect(Math.abs(new Date(body.scheduledAt).getTime() - later.getTime())).toBeLessThan(60_000);
  });
});
