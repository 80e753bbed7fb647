import type { AuditEntry, CurrentUser, ModeratedUser, ModerationReport, Post, Report, User } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { users } from '../../src/db/schema.ts';
import {
  insertUser,
  PASSWORD,
  seedTrio,
  signInWithPassword,
  TestClient,
  testConfig,
  useTestApp,
} from '../helpers/app.ts';
import { createPost, follow, getAll, like } from '../helpers/social.ts';

type Ctx = ReturnType<typeof useTestApp>;

/** Alice, Bob and Carol (members), Mo (a moderator) and Ada (an admin), each signed in. */
async function seedCommunity(ctx: Ctx) {
  const trio = await seedTrio(ctx);
  const mo = await insertUser(ctx.db, { username: 'mo', role: 'moderator' });
  const ada = await insertUser(ctx.db, { username: 'ada', role: 'admin' });
  return {
    ...trio,
    mo,
    ada,
    clients: {
      ...trio.clients,
      mo: await new TestClient(ctx).signInAs(mo.id),
      ada: await new TestClient(ctx).signInAs(ada.id),
    },
  };
}

async function report(client: TestClient, url: string, body: object = { category: 'spam', comment: '' }) {
  const res = await client.post(url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Report;
}

async function resolve(client: TestClient, id: string, action: string): Promise<ModerationReport> {
  const res = await client.post(`/api/moderation/reports/${id}/resolve`, { action });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ModerationReport;
}

const queue = (client: TestClient, status = 'open') =>
  getAll<ModerationReport>(client, `/api/moderation/reports?status=${status}`, 50);
const texts = async (client: TestClient, url: string) => (await getAll<Post>(client, url, 50)).map((p) => p.text);

describe('roles', () => {
  const ctx = useTestApp({ adminEmails: ['boss@example.com'] });

  const register = (email: string, username: string) =>
    new TestClient(ctx).withCsrf().post('/api/register', { email, username, name: username, password: PASSWORD });

  it('the first account is an admin, the next are members, and ADMIN_EMAILS are admins', async () => {
    expect((await register('first@example.com', 'first')).json()).toMatchObject({ role: 'admin' });
    expect((await register('second@example.com', 'second')).json()).toMatchObject({ role: 'member' });
    expect((await register('BOSS@example.com', 'boss')).json()).toMatchObject({ role: 'admin' });
    const signedIn = new TestClient(ctx);
    await signInWithPassword(signedIn, 'second@example.com');
    expect(((await signedIn.get('/api/current')).json() as CurrentUser).role).toBe('member');
  });

  it('an account named in ADMIN_EMAILS later becomes an admin when the server starts', async () => {
    const dora = await insertUser(ctx.db, { username: 'dora' });
    expect(dora.role).toBe('member');
    const config = testConfig({ adminEmails: ['dora@example.com'] });
    const app = await buildApp(config, { db: ctx.db });
    try {
      await app.ready();
      const client = await new TestClient({ app, config }).signInAs(dora.id);
      expect(((await client.get('/api/current')).json() as CurrentUser).role).toBe('admin');
    } finally {
      await app.close();
    }
  });

  it('admins name moderators and take it back; the change applies at once and is logged', async () => {
    const { bob, mo, ada, clients } = await seedCommunity(ctx);
    expect((await clients.bob.get('/api/moderation/reports')).statusCode).toBe(403);

    const named = await clients.ada.put(`/api/moderation/users/${bob.id}/role`, { role: 'moderator' });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json()).toMatchObject({ username: 'bob', role: 'moderator', suspended: false });
    // Bob's open session carries the new role at once.
    expect((await clients.bob.get('/api/moderation/reports')).statusCode).toBe(200);
    const team = await getAll<ModeratedUser>(clients.mo, '/api/moderation/accounts?filter=team', 50);
    expect(team.map((u) => [u.username, u.role])).toEqual([
      ['bob', 'moderator'],
      ['mo', 'moderator'],
      ['ada', 'admin'],
    ]);

    expect((await clients.ada.put(`/api/moderation/users/${bob.id}/role`, { role: 'member' })).json()).toMatchObject({
      role: 'member',
    });
    expect((await clients.bob.get('/api/moderation/reports')).statusCode).toBe(403);

    const log = await getAll<AuditEntry>(clients.mo, '/api/moderation/log', 50);
    expect(log.map((e) => [e.action, e.moderator?.username, e.subject?.username, e.detail])).toEqual([
      ['role.changed', 'ada', 'bob', 'member'],
      ['role.changed', 'ada', 'bob', 'moderator'],
    ]);

    // Only admins name moderators; an admin's role is configuration's; nobody changes their own.
    for (const [client, id, code, status] of [
      [clients.mo, bob.id, 'FORBIDDEN', 403],
      [clients.ada, ada.id, 'INVALID_INPUT', 400],
      [clients.ada, 999_999, 'NOT_FOUND', 404],
    ] as const) {
      const res = await client.put(`/api/moderation/users/${id}/role`, { role: 'moderator' });
      expect([res.statusCode, res.json().code]).toEqual([status, code]);
    }
    const other = await insertUser(ctx.db, { username: 'otheradmin', role: 'admin' });
    const res = await clients.ada.put(`/api/moderation/users/${other.id}/role`, { role: 'member' });
    expect([res.statusCode, res.json().code]).toEqual([403, 'FORBIDDEN']);
    // An admin cannot be named anything here.
    const bad = await clients.ada.put(`/api/moderation/users/${mo.id}/role`, { role: 'admin' });
    expect([bad.statusCode, bad.json().field]).toEqual([400, 'role']);
  });
});

describe('reports', () => {
  const ctx = useTestApp();

  it('a member reports a post or a person; reporting again updates the open report', async () => {
    const { bob, carol, clients } = await seedCommunity(ctx);
    const post = await createPost(clients.bob, 'buy cheap watches');
    const first = await report(clients.alice, `/api/posts/${post.id}/report`, { category: 'spam', comment: ' ads ' });
    expect(first).toMatchObject({
      category: 'spam',
      comment: 'ads',
      status: 'open',
      outcome: null,
      resolvedAt: null,
      subject: { user: { username: 'bob' }, postId: post.id, postText: 'buy cheap watches' },
    });
    const again = await report(clients.alice, `/api/posts/${post.id}/report`, { category: 'illegal' });
    expect(again).toMatchObject({ id: first.id, category: 'illegal', comment: '' });

    const person = await report(clients.alice, `/api/users/${bob.id}/report`, {
      category: 'harassment',
      comment: 'keeps replying to me',
    });
    expect(person.id).not.toBe(first.id);
    expect(person.subject).toEqual({
      user: expect.objectContaining({ username: 'bob' }),
      postId: null,
      postText: null,
    });

    // A repost is reported as the post it reposts.
    expect((await clients.carol.put(`/api/posts/${post.id}/repost`)).statusCode).toBe(200);
    const carolsRepost = (await getAll<Post>(clients.carol, `/api/users/${carol.id}/posts`, 5))[0]!;
    const viaRepost = await report(clients.alice, `/api/posts/${carolsRepost.id}/report`);
    expect(viaRepost).toMatchObject({ id: first.id, subject: { postId: post.id, user: { username: 'bob' } } });

    const mine = await getAll<Report>(clients.alice, '/api/reports', 50);
    expect(mine.map((r) => r.id)).toEqual([person.id, first.id]);
    expect(await getAll<Report>(clients.bob, '/api/reports', 50)).toEqual([]);
  });

  it('refuses one’s own post, oneself, unknown posts and people, and bad bodies, storing nothing', async () => {
    const { alice, bob, clients } = await seedCommunity(ctx);
    const own = await createPost(clients.alice, 'mine');
    // Someone elsewhere, known here, while federation is off: there is no way to send their server anything.
    const [far] = await ctx.db.db
      .insert(users)
      .values({ username: 'far', name: 'Far', domain: 'far.example', email: null, passwordHash: null })
      .returning({ id: users.id });
    const cases: [string, object, number, string, string?][] = [
      [`/api/posts/${own.id}/report`, { category: 'spam' }, 400, 'INVALID_INPUT', 'id'],
      [`/api/users/${alice.id}/report`, { category: 'spam' }, 400, 'INVALID_INPUT', 'id'],
      ['/api/posts/999999/report', { category: 'spam' }, 404, 'NOT_FOUND'],
      ['/api/users/999999/report', { category: 'spam' }, 404, 'NOT_FOUND'],
      [`/api/users/${bob.id}/report`, { category: 'rude' }, 400, 'INVALID_INPUT', 'category'],
      [`/api/users/${bob.id}/report`, {}, 400, 'INVALID_INPUT', 'category'],
      [`/api/users/${bob.id}/report`, { category: 'spam', comment: 'x'.repeat(1001) }, 400, 'INVALID_INPUT', 'comment'],
      [`/api/users/${bob.id}/report`, { category: 'spam', comment: 'a\u0000b' }, 400, 'INVALID_INPUT', 'comment'],
      [`/api/users/${bob.id}/report`, { category: 'spam', extra: 1 }, 400, 'INVALID_INPUT'],
      // Forwarding: a member has no other server; with federation off nobody's can be reached; not a boolean.
      [`/api/users/${bob.id}/report`, { category: 'spam', forward: true }, 400, 'INVALID_INPUT', 'forward'],
      [`/api/users/${far?.id}/report`, { category: 'spam', forward: true }, 400, 'INVALID_INPUT', 'forward'],
      [`/api/users/${far?.id}/report`, { category: 'spam', forward: 'yes' }, 400, 'INVALID_INPUT', 'forward'],
    ];
    for (const [url, body, status, code, field] of cases) {
      const res = await clients.alice.post(url, body);
      expect([url, res.statusCode, res.json().code], JSON.stringify(body)).toEqual([url, status, code]);
      if (field) expect(res.json().field).toBe(field);
    }
    const visitor = await clients.visitor.post(`/api/users/${bob.id}/report`, { category: 'spam' });
    expect(visitor.statusCode).toBe(401);
    expect(await getAll<Report>(clients.alice, '/api/reports', 50)).toEqual([]);
    expect(await queue(clients.mo)).toEqual([]);
  });
});

describe('moderation', () => {
  const ctx = useTestApp();

  it('moderators read the open reports, oldest first, with the content, its context and the reporter', async () => {
    const { bob, clients } = await seedCommunity(ctx);
    const carols = await createPost(clients.carol, 'what do you think of my kite?');
    const reply = await createPost(clients.bob, 'it is ugly and so are you', carols.id);
    await report(clients.carol, `/api/posts/${reply.id}/report`, { category: 'harassment', comment: 'rude' });
    await report(clients.alice, `/api/users/${bob.id}/report`, { category: 'harassment' });

    for (const client of [clients.alice, clients.bob]) {
      const res = await client.get('/api/moderation/reports');
      expect([res.statusCode, res.json().code]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await clients.visitor.get('/api/moderation/reports')).statusCode).toBe(401);

    const open = await queue(clients.mo);
    expect(open).toHaveLength(2);
    expect(open[0]).toMatchObject({
      category: 'harassment',
      comment: 'rude',
      reporter: { username: 'carol' },
      subject: {
        user: { username: 'bob', suspended: false, role: 'member' },
        postId: reply.id,
        postText: 'it is ugly and so are you',
        postExists: true,
        inReplyTo: { user: { username: 'carol' }, text: 'what do you think of my kite?' },
      },
      openReportsAboutUser: 2,
      resolvedBy: null,
    });
    expect(open[1]).toMatchObject({ reporter: { username: 'alice' }, subject: { postId: null, inReplyTo: null } });
    // Admins read them too; pages follow the cursor.
    const page1 = (await clients.ada.get('/api/moderation/reports?limit=1')).json();
    expect(page1.items.map((r: ModerationReport) => r.id)).toEqual([open[0]!.id]);
    const page2 = (await clients.ada.get(`/api/moderation/reports?limit=1&cursor=${page1.nextCursor}`)).json();
    expect(page2.items.map((r: ModerationReport) => r.id)).toEqual([open[1]!.id]);
    expect(page2.nextCursor).toBeNull();
    expect((await clients.mo.get('/api/moderation/reports?status=maybe')).statusCode).toBe(400);
  });

  it('removing a post deletes it for everyone, closes every report about it and is logged; reporters see it', async () => {
    const { bob, clients } = await seedCommunity(ctx);
    const post = await createPost(clients.bob, 'a hateful post');
    const other = await createPost(clients.bob, 'a fine post');
    const byAlice = await report(clients.alice, `/api/posts/${post.id}/report`, { category: 'hate' });
    const byCarol = await report(clients.carol, `/api/posts/${post.id}/report`, { category: 'hate' });
    const aboutOther = await report(clients.carol, `/api/posts/${other.id}/report`, { category: 'spam' });

    const done = await resolve(clients.mo, byAlice.id, 'remove_post');
    expect(done).toMatchObject({
      status: 'closed',
      outcome: 'post_removed',
      resolvedBy: { username: 'mo' },
      subject: { postExists: false, postText: 'a hateful post' },
    });
    for (const client of [clients.alice, clients.bob, clients.visitor]) {
      expect((await client.get(`/api/posts/${post.id}`)).statusCode).toBe(404);
    }
    expect(((await clients.bob.get(`/api/users/${bob.id}`)).json() as User).postsCount).toBe(1);

    // Both reports about it closed; the one about another post stays open.
    expect((await queue(clients.mo)).map((r) => r.id)).toEqual([aboutOther.id]);
    expect((await queue(clients.mo, 'closed')).map((r) => [r.id, r.outcome])).toEqual(
      expect.arrayContaining([
        [byAlice.id, 'post_removed'],
        [byCarol.id, 'post_removed'],
      ]),
    );
    const carols = await getAll<Report>(clients.carol, '/api/reports', 50);
    expect(carols.find((r) => r.id === byCarol.id)).toMatchObject({ status: 'closed', outcome: 'post_removed' });

    // Acting on a closed report changes nothing and answers it as it is.
    expect(await resolve(clients.ada, byCarol.id, 'dismiss')).toMatchObject({ outcome: 'post_removed' });
    const log = await getAll<AuditEntry>(clients.mo, '/api/moderation/log', 50);
    expect(log.map((e) => [e.action, e.moderator?.username, e.subject?.username, e.reportId, e.detail])).toEqual([
      ['post.removed', 'mo', 'bob', byAlice.id, 'a hateful post'],
    ]);
  });

  it('dismissing closes one report; unknown reports, person reports and bad actions are refused', async () => {
    const { bob, clients } = await seedCommunity(ctx);
    const post = await createPost(clients.bob, 'a fine post');
    const aboutPost = await report(clients.alice, `/api/posts/${post.id}/report`, { category: 'spam' });
    const aboutBob = await report(clients.alice, `/api/users/${bob.id}/report`, { category: 'spam' });

    for (const [id, body, status, code] of [
      [aboutBob.id, { action: 'remove_post' }, 400, 'INVALID_INPUT'],
      [aboutBob.id, { action: 'ban' }, 400, 'INVALID_INPUT'],
      [aboutBob.id, {}, 400, 'INVALID_INPUT'],
      ['999999', { action: 'dismiss' }, 404, 'NOT_FOUND'],
      ['abc', { action: 'dismiss' }, 404, 'NOT_FOUND'], // an id no report can have
    ] as const) {
      const res = await clients.mo.post(`/api/moderation/reports/${id}/resolve`, body);
      expect([res.statusCode, res.json().code]).toEqual([status, code]);
    }
    const member = await clients.alice.post(`/api/moderation/reports/${aboutBob.id}/resolve`, { action: 'dismiss' });
    expect([member.statusCode, member.json().code]).toEqual([403, 'FORBIDDEN']);

    expect(await resolve(clients.mo, aboutPost.id, 'dismiss')).toMatchObject({
      outcome: 'dismissed',
      status: 'closed',
    });
    expect((await clients.alice.get(`/api/posts/${post.id}`)).statusCode).toBe(200);
    expect((await queue(clients.mo)).map((r) => r.id)).toEqual([aboutBob.id]);
    const mine = await getAll<Report>(clients.alice, '/api/reports', 50);
    expect(mine.map((r) => [r.id, r.outcome])).toEqual([
      [aboutBob.id, null],
      [aboutPost.id, 'dismissed'],
    ]);
  });

  it('a suspension ends the sessions, refuses sign-in, hides everything of theirs and marks the profile; a lift undoes it', async () => {
    const { bob, carol, mo, ada, clients } = await seedCommunity(ctx);
    await follow(clients.alice, bob.id);
    const bobs = await createPost(clients.bob, 'bob writes of #kites');
    const carols = await createPost(clients.carol, 'carol asks');
    await createPost(clients.bob, 'bob replies', carols.id);
    const quote = await clients.carol.post('/api/posts', { text: 'carol quotes', quoteOfId: bobs.id });
    expect(quote.statusCode, quote.body).toBe(201);
    await like(clients.carol, bobs.id);
    const aboutBob = await report(clients.alice, `/api/users/${bob.id}/report`, { category: 'spam' });
    const aboutPost = await report(clients.carol, `/api/posts/${bobs.id}/report`, { category: 'spam' });

    const done = await resolve(clients.mo, aboutBob.id, 'suspend');
    expect(done).toMatchObject({ outcome: 'suspended', subject: { user: { suspended: true } } });
    expect((await queue(clients.mo)).map((r) => r.id)).toEqual([]);
    const carolsReports = await getAll<Report>(clients.carol, '/api/reports', 50);
    expect(carolsReports.find((r) => r.id === aboutPost.id)?.outcome).toBe('suspended');

    // Signed out everywhere, and signing in says why.
    expect((await clients.bob.get('/api/current')).statusCode).toBe(401);
    const signIn = await signInWithPassword(new TestClient(ctx), 'bob@example.com');
    expect(signIn.statusCode).toBe(401);
    expect(signIn.json().url).toContain('error=AccountSuspended');
    const wrong = await signInWithPassword(new TestClient(ctx), 'bob@example.com', 'not the password');
    expect(wrong.json().url).toContain('error=CredentialsSignin');

    // Nothing of theirs anywhere, for members and visitors; the profile says so.
    for (const client of [clients.alice, clients.carol, clients.visitor]) {
      for (const url of [
        '/api/timeline/everyone',
        `/api/users/${bob.id}/posts`,
        `/api/posts/${carols.id}/replies`,
        '/api/search/posts?q=bob',
        '/api/hashtags/kites/posts',
      ]) {
        expect(await texts(client, url), url).not.toEqual(expect.arrayContaining([expect.stringMatching(/^bob/)]));
      }
      // Carol's quote of Bob is hers: it stays, with nothing of Bob's post in it.
      const everyone = (await client.get('/api/timeline/everyone')).json<{ items: Post[] }>().items;
      expect(everyone.find((p) => p.text === 'carol quotes')?.quote).toEqual({ state: 'unavailable' });
      expect((await client.get(`/api/posts/${bobs.id}`)).statusCode).toBe(404);
      expect(((await client.get(`/api/users/${bob.id}`)).json() as User).suspended).toBe(true);
      const people = (await client.get('/api/search/people?q=bob')).json();
      expect(people.items).toEqual([]);
    }
    expect(await texts(clients.alice, '/api/timeline/following')).toEqual([]);
    expect((await clients.carol.put(`/api/users/${bob.id}/follow`)).statusCode).toBe(403);
    expect((await clients.carol.put(`/api/posts/${bobs.id}/like`)).statusCode).toBe(404);
    const notifications = (await clients.carol.get('/api/notifications')).json();
    expect(notifications.items.map((n: { actor: { username: string } }) => n.actor.username)).not.toContain('bob');

    // A moderator cannot suspend an admin or another moderator, nor themselves; an admin can suspend a moderator.
    for (const [client, id, status] of [
      [clients.mo, ada.id, 403],
      [clients.mo, mo.id, 400],
      [clients.alice, carol.id, 403],
      [clients.mo, 999_999, 404],
    ] as const) {
      expect((await client.put(`/api/moderation/users/${id}/suspension`)).statusCode).toBe(status);
    }
    const otherMod = await insertUser(ctx.db, { username: 'mod2', role: 'moderator' });
    expect((await clients.mo.put(`/api/moderation/users/${otherMod.id}/suspension`)).statusCode).toBe(403);
    expect((await clients.ada.put(`/api/moderation/users/${otherMod.id}/suspension`)).json()).toMatchObject({
      suspended: true,
    });

    const suspended = await getAll<ModeratedUser>(clients.mo, '/api/moderation/accounts?filter=suspended', 50);
    expect(suspended.map((u) => u.username)).toEqual(['mod2', 'bob']);

    // Lifted: Bob signs in again and everything is back.
    const lifted = await clients.mo.delete(`/api/moderation/users/${bob.id}/suspension`);
    expect(lifted.json()).toMatchObject({ username: 'bob', suspended: false });
    const back = new TestClient(ctx);
    expect((await signInWithPassword(back, 'bob@example.com')).statusCode).toBe(200);
    expect((await back.get('/api/current')).statusCode).toBe(200);
    expect(await texts(clients.alice, '/api/timeline/following')).toEqual(['bob replies', 'bob writes of #kites']);
    expect((await clients.visitor.get(`/api/posts/${bobs.id}`)).statusCode).toBe(200);
    const everyone = (await clients.visitor.get('/api/timeline/everyone')).json<{ items: Post[] }>().items;
    expect(everyone.find((p) => p.text === 'carol quotes')?.quote).toMatchObject({
      state: 'shown',
      post: { text: 'bob writes of #kites' },
    });

    const log = await getAll<AuditEntry>(clients.mo, '/api/moderation/log', 50);
    expect(log.map((e) => [e.action, e.moderator?.username, e.subject?.username])).toEqual([
      ['account.restored', 'mo', 'bob'],
      ['account.suspended', 'ada', 'mod2'],
      ['account.suspended', 'mo', 'bob'],
    ]);
  });

  it('moderators only: the audit log and account lists', async () => {
    const { clients } = await seedCommunity(ctx);
    for (const url of ['/api/moderation/log', '/api/moderation/accounts?filter=team']) {
      expect((await clients.alice.get(url)).statusCode).toBe(403);
      expect((await clients.visitor.get(url)).statusCode).toBe(401);
      expect((await clients.mo.get(url)).statusCode).toBe(200);
    }
    expect((await clients.mo.get('/api/moderation/accounts')).statusCode).toBe(400);
    expect((await clients.mo.get('/api/moderation/accounts?filter=everyone')).statusCode).toBe(400);
  });
});
