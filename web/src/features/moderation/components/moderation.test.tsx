import type {
  AuditEntry,
  CurrentUser,
  DomainBlock,
  ModeratedUser,
  ModerationReport,
  Report,
  User,
} from '@pipit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ModerationPage } from '../../../app/routes/moderation.tsx';
import { SettingsPage } from '../../../app/routes/settings.tsx';
import { UserPage } from '../../../app/routes/user.tsx';
import { json, mockFetch } from '../../../test/fetch-mock.ts';
import { ALICE, makePage, makeUser, makeUserSummary } from '../../../test/fixtures.ts';
import { renderApp, SESSION } from '../../../test/render.tsx';

const BOB = makeUserSummary({ id: '2', name: 'Bob Builder', username: 'bob' });
const EMPTY = makePage([]);

const routesAs = (me: CurrentUser) => ({
  'GET /api/auth/session': () => json(SESSION),
  'GET /api/current': () => json(me),
});
const MODERATOR: CurrentUser = { ...ALICE, role: 'moderator' };
const ADMIN: CurrentUser = { ...ALICE, role: 'admin' };

const bodyOf = (call: { body: string | null } | undefined) => JSON.parse(call?.body ?? 'null');

function makeReport(overrides: Partial<ModerationReport> = {}): ModerationReport {
  return {
    id: '7',
    category: 'harassment',
    comment: 'keeps insulting me',
    status: 'open',
    outcome: null,
    createdAt: new Date().toISOString(),
    resolvedAt: null,
    forwarded: false,
    reporter: makeUserSummary({ id: '3', username: 'carol' }),
    resolvedBy: null,
    openReportsAboutUser: 2,
    subject: {
      user: { ...BOB, suspended: false, role: 'member' },
      postId: '10',
      postText: 'it is ugly and so are you',
      postExists: true,
      inReplyTo: { user: makeUserSummary({ id: '3', username: 'carol' }), text: 'look at my kite' },
    },
    ...overrides,
  };
}

describe('a profile for moderators', () => {
  const renderProfile = () =>
    renderApp(
      <Routes>
        <Route path="/users/:id" element={<UserPage />} />
      </Routes>,
      { route: '/users/2' },
    );

  it('More → Report @bob for anyone; Suspend @bob (after a confirmation) for moderators; the profile then says so', async () => {
    let bob: User = makeUser({ ...BOB });
    const server = mockFetch({
      ...routesAs(MODERATOR),
      'GET /api/users/2': () => json(bob),
      'GET /api/users/2/posts': () => json(EMPTY),
      'POST /api/users/2/report': (call) => json({ id: '1', ...bodyOf(call) }, 201),
      'PUT /api/moderation/users/2/suspension': () => {
        bob = { ...bob, suspended: true };
        return json({ ...BOB, suspended: true, role: 'member' });
      },
    });
    renderProfile();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'More' }));
    await user.click(screen.getByRole('menuitem', { name: 'Report @bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report @bob' });
    await user.click(within(dialog).getByRole('radio', { name: 'Harassment or bullying' }));
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/users/2/report')).toHaveLength(1));
    expect(bodyOf(server.callsTo('POST', '/api/users/2/report')[0])).toEqual({ category: 'harassment', comment: '' });

    await user.click(screen.getByRole('button', { name: 'More' }));
    await user.click(screen.getByRole('menuitem', { name: 'Suspend @bob' }));
    const confirm = await screen.findByRole('dialog', { name: 'Suspend @bob?' });
    await user.click(within(confirm).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('This account is suspended')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Follow' })).not.toBeInTheDocument();
    expect(server.callsTo('PUT', '/api/moderation/users/2/suspension')).toHaveLength(1);
  });

  it('someone elsewhere: the report may also go to their server’s moderators (a member’s has no such choice)', async () => {
    const server = mockFetch({
      ...routesAs(ALICE),
      'GET /api/users/2': () => json(makeUser({ ...BOB, domain: 'social.example' })),
      'GET /api/users/2/posts': () => json(EMPTY),
      'POST /api/users/2/report': (call) => json({ id: '1', ...bodyOf(call) }, 201),
    });
    renderProfile();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'More' }));
    await user.click(screen.getByRole('menuitem', { name: /Report @bob/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    const forward = within(dialog).getByRole('checkbox', { name: /Also send it to the moderators of social.example/ });
    expect(forward).not.toBeChecked();
    await user.click(forward);
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/users/2/report')).toHaveLength(1));
    expect(bodyOf(server.callsTo('POST', '/api/users/2/report')[0])).toEqual({
      category: 'spam',
      comment: '',
      forward: true,
    });
  });

  it('members have no Suspend item', async () => {
    mockFetch({
      ...routesAs(ALICE),
      'GET /api/users/2': () => json(makeUser({ ...BOB })),
      'GET /api/users/2/posts': () => json(EMPTY),
    });
    renderProfile();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'More' }));
    expect(screen.getByRole('menuitem', { name: 'Report @bob' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Suspend/ })).not.toBeInTheDocument();
  });
});

describe('the Moderation page', () => {
  it('is for moderators only', async () => {
    const server = mockFetch(routesAs(ALICE));
    renderApp(<ModerationPage />);
    expect(await screen.findByText('For moderators only')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.path.startsWith('/api/moderation'))).toEqual([]);
  });

  it('shows each open report with the content and its context; Remove post asks first, then the queue empties', async () => {
    let open = [makeReport()];
    const server = mockFetch({
      ...routesAs(MODERATOR),
      'GET /api/moderation/reports': () => json(makePage(open)),
      'POST /api/moderation/reports/7/resolve': (call) => {
        const closed = makeReport({ status: 'closed', outcome: 'post_removed', resolvedAt: new Date().toISOString() });
        expect(bodyOf(call)).toEqual({ action: 'remove_post' });
        open = [];
        return json(closed);
      },
    });
    renderApp(<ModerationPage />);
    const user = userEvent.setup();
    const card = await screen.findByRole('article', { name: /Harassment or bullying · a post by @bob/ });
    expect(card).toHaveTextContent('it is ugly and so are you');
    expect(card).toHaveTextContent('Replying to @carol: “look at my kite”');
    expect(card).toHaveTextContent('“keeps insulting me”');
    expect(card).toHaveTextContent('reported by @carol');
    expect(card).toHaveTextContent('2 open reports about them');

    await user.click(within(card).getByRole('button', { name: 'Remove post' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove this post?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Post removed');
    expect(await screen.findByText('No open reports')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/moderation/reports/7/resolve')).toHaveLength(1);
  });

  it('dismisses; when another moderator closed it first, says what came of it', async () => {
    mockFetch({
      ...routesAs(MODERATOR),
      'GET /api/moderation/reports': () => json(makePage([makeReport()])),
      'POST /api/moderation/reports/7/resolve': () =>
        json(makeReport({ status: 'closed', outcome: 'suspended', resolvedAt: new Date().toISOString() })),
    });
    renderApp(<ModerationPage />);
    const user = userEvent.setup();
    const card = await screen.findByRole('article');
    await user.click(within(card).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Already closed. The account was suspended.');
  });

  it('the log says who did what; the team lets an admin name a moderator by username', async () => {
    const log: AuditEntry[] = [
      {
        id: '1',
        action: 'post.removed',
        moderator: makeUserSummary({ id: '5', username: 'mo' }),
        subject: BOB,
        reportId: '7',
        detail: 'it is ugly',
        createdAt: new Date().toISOString(),
      },
    ];
    let team: ModeratedUser[] = [
      { ...makeUserSummary({ id: '1', username: 'alice' }), suspended: false, role: 'admin' },
    ];
    const server = mockFetch({
      ...routesAs(ADMIN),
      'GET /api/moderation/reports': () => json(EMPTY),
      'GET /api/moderation/log': () => json(makePage(log)),
      'GET /api/moderation/accounts': () => json(makePage(team)),
      'GET /api/users/by-username/dora': () => json(makeUser({ id: '9', username: 'dora' })),
      'GET /api/users/by-username/nobody': () => json({ code: 'NOT_FOUND', message: 'No such user.' }, 404),
      'PUT /api/moderation/users/9/role': (call) => {
        const dora: ModeratedUser = {
          ...makeUserSummary({ id: '9', username: 'dora' }),
          suspended: false,
          role: 'moderator',
        };
        expect(bodyOf(call)).toEqual({ role: 'moderator' });
        team = [...team, dora];
        return json(dora);
      },
    });
    renderApp(<ModerationPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Log' }));
    const entries = await screen.findByRole('list', { name: 'Audit log' });
    expect(entries).toHaveTextContent('@mo removed a post by @bob');
    expect(entries).toHaveTextContent('“it is ugly”');

    await user.click(screen.getByRole('tab', { name: 'Team' }));
    const field = await screen.findByLabelText('Name a moderator (username)');
    await user.type(field, '@nobody');
    await user.click(screen.getByRole('button', { name: 'Make moderator' }));
    expect(await screen.findByText('No one is called @nobody.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'dora');
    await user.click(screen.getByRole('button', { name: 'Make moderator' }));
    expect(await screen.findByRole('status')).toHaveTextContent('@dora is now a moderator');
    const list = await screen.findByRole('list', { name: 'Moderators and admins' });
    await waitFor(() => expect(list).toHaveTextContent('@dora · Moderator'));
    expect(within(list).getByRole('button', { name: 'Remove moderator' })).toBeInTheDocument();
    expect(server.callsTo('PUT', '/api/moderation/users/9/role')).toHaveLength(1);
  });
});

describe('Moderation → Servers', () => {
  it('an admin blocks a server after a confirmation saying what it does, and unblocks it; the log says so', async () => {
    let blocks: DomainBlock[] = [];
    const server = mockFetch({
      ...routesAs(ADMIN),
      'GET /api/moderation/reports': () => json(EMPTY),
      'GET /api/moderation/domains': () => json({ items: blocks }),
      'POST /api/moderation/domains': (call) => {
        const body = bodyOf(call);
        if (body.domain === 'not a host') {
          return json(
            { code: 'INVALID_INPUT', message: 'Enter a server’s name, like social.example', field: 'domain' },
            400,
          );
        }
        const block: DomainBlock = {
          domain: body.domain,
          reason: body.reason,
          createdAt: new Date().toISOString(),
          createdBy: makeUserSummary({ id: '1', username: 'alice' }),
          accounts: 3,
        };
        blocks = [block];
        return json(block, 201);
      },
      'DELETE /api/moderation/domains/spam.example': () => {
        blocks = [];
        return new Response(null, { status: 204 });
      },
    });
    renderApp(<ModerationPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Servers' }));
    expect(await screen.findByText('No blocked servers')).toBeInTheDocument();

    // Empty: said at once, nothing sent. A name the server refuses: said under the field.
    await user.click(screen.getByRole('button', { name: 'Block server' }));
    expect(screen.getByText('Enter a server’s name.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Server to block'), 'not a host');
    await user.click(screen.getByRole('button', { name: 'Block server' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Block not a host?' })).getByRole('button', { name: 'Block' }),
    );
    expect(await screen.findByText('Enter a server’s name, like social.example')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Server to block'));
    await user.type(screen.getByLabelText('Server to block'), 'spam.example');
    await user.type(screen.getByLabelText('Reason (optional, for moderators)'), 'Bots');
    await user.click(screen.getByRole('button', { name: 'Block server' }));
    const confirm = await screen.findByRole('dialog', { name: 'Block spam.example?' });
    expect(confirm).toHaveTextContent('Its accounts known here are suspended until you unblock it.');
    await user.click(within(confirm).getByRole('button', { name: 'Block' }));
    const list = await screen.findByRole('list', { name: 'Blocked servers' });
    expect(list).toHaveTextContent('spam.example');
    expect(list).toHaveTextContent('Bots');
    expect(list).toHaveTextContent('3 accounts suspended');
    expect(list).toHaveTextContent('by @alice');
    expect(bodyOf(server.callsTo('POST', '/api/moderation/domains').at(-1))).toEqual({
      domain: 'spam.example',
      reason: 'Bots',
    });

    await user.click(within(list).getByRole('button', { name: 'Unblock' }));
    expect(await screen.findByText('No blocked servers')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/api/moderation/domains/spam.example')).toHaveLength(1);
  });

  it('moderators read the list but cannot change it', async () => {
    mockFetch({
      ...routesAs(MODERATOR),
      'GET /api/moderation/reports': () => json(EMPTY),
      'GET /api/moderation/domains': () =>
        json({
          items: [
            {
              domain: 'spam.example',
              reason: '',
              createdAt: new Date().toISOString(),
              createdBy: null,
              accounts: 1,
            },
          ],
        }),
    });
    renderApp(<ModerationPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Servers' }));
    const list = await screen.findByRole('list', { name: 'Blocked servers' });
    expect(list).toHaveTextContent('1 account suspended');
    expect(list).toHaveTextContent('by a deleted account');
    expect(screen.queryByRole('button', { name: 'Unblock' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Server to block')).not.toBeInTheDocument();
  });
});

describe('Settings → Your reports', () => {
  it('lists the member’s reports with what came of each', async () => {
    const reports: Report[] = [
      {
        id: '2',
        category: 'spam',
        comment: '',
        subject: { user: BOB, postId: '10', postText: 'buy cheap watches' },
        status: 'closed',
        outcome: 'post_removed',
        createdAt: new Date().toISOString(),
        resolvedAt: new Date().toISOString(),
        forwarded: false,
      },
      {
        id: '1',
        category: 'harassment',
        comment: '',
        subject: { user: BOB, postId: null, postText: null },
        status: 'open',
        outcome: null,
        createdAt: new Date().toISOString(),
        resolvedAt: null,
        forwarded: false,
      },
    ];
    mockFetch({
      ...routesAs(ALICE),
      'GET /api/reports': () => json(makePage(reports)),
      'GET /api/sessions': () => json({ items: [] }),
      'GET /api/blocks': () => json(EMPTY),
      'GET /api/mutes': () => json(EMPTY),
      'GET /api/muted-words': () => json({ items: [] }),
    });
    renderApp(<SettingsPage />);
    const list = await screen.findByRole('list', { name: 'Your reports' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Spam · a post by @bob');
    expect(items[0]).toHaveTextContent('The post was removed');
    expect(items[1]).toHaveTextContent('Harassment or bullying · the account @bob');
    expect(items[1]).toHaveTextContent('Open: a moderator will look at it');
    expect(screen.queryByRole('heading', { name: 'Moderation' })).not.toBeInTheDocument();
  });
});
