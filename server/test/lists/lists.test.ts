/**
 * Lists (issue 27, part 5): a member's own lists of people they follow, each with a timeline (replies
 * by its policy, reposts once, through the visibility rules), exclusive lists whose members leave Home.
 * Someone else's list is absent (404, never 403); members rest on follows: an unfollow or a block
 * takes them off.
 */
import { LIST_LIMITS, type List, type ListCandidate, type Post, type User } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertUser, seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, getAll, getPage } from '../helpers/social.ts';

const createList = async (client: TestClient, body: Record<string, unknown>) => {
  const res = await client.post('/api/lists', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<List>();
};
const addMember = async (client: TestClient, listId: string, userId: number | string) => {
  const res = await client.put(`/api/lists/${listId}/members/${userId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<User>();
};
const timeline = async (client: TestClient, listId: string) =>
  (await getAll<Post>(client, `/api/lists/${listId}/posts`, 50)).map((p) => p.text);
const home = async (client: TestClient) =>
  (await getAll<Post>(client, '/api/timeline/following', 50)).map((p) => p.text);

describe('lists', () => {
  const ctx = useTestApp();

  it('creates, reads, renames, changes and deletes a list; defaults: replies to list members, not exclusive', async () => {
    const { clients } = await seedTrio(ctx);
    const created = await createList(clients.alice, { title: '  Close friends  ' });
    expect(created).toMatchObject({ title: 'Close friends', repliesPolicy: 'list', exclusive: false, memberCount: 0 });
    expect((await clients.alice.get('/api/lists')).json().items).toEqual([created]);
    expect((await clients.alice.get(`/api/lists/${created.id}`)).json()).toEqual(created);

    const changed = await clients.alice.patch(`/api/lists/${created.id}`, {
      title: 'Friends',
      repliesPolicy: 'none',
      exclusive: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: created.id, title: 'Friends', repliesPolicy: 'none', exclusive: true });
    const titleOnly = await clients.alice.patch(`/api/lists/${created.id}`, { title: 'Pals' });
    expect(titleOnly.json()).toMatchObject({ title: 'Pals', repliesPolicy: 'none', exclusive: true });

    expect((await clients.alice.delete(`/api/lists/${created.id}`)).statusCode).toBe(204);
    expect((await clients.alice.get(`/api/lists/${created.id}`)).statusCode).toBe(404);
    expect((await clients.alice.get('/api/lists')).json().items).toEqual([]);
  });

  it("answers someone else's list as absent (404 NOT_FOUND, as an unknown id), for every call", async () => {
    const { bob, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    const list = await createList(clients.alice, { title: 'Mine' });
    await addMember(clients.alice, list.id, bob.id);
    const calls: ['GET' | 'PATCH' | 'DELETE' | 'PUT', string, unknown?][] = [
      ['GET', `/api/lists/${list.id}`],
      ['PATCH', `/api/lists/${list.id}`, { title: 'Taken' }],
      ['DELETE', `/api/lists/${list.id}`],
      ['GET', `/api/lists/${list.id}/posts`],
      ['GET', `/api/lists/${list.id}/members`],
      ['PUT', `/api/lists/${list.id}/members/${bob.id}`],
      ['DELETE', `/api/lists/${list.id}/members/${bob.id}`],
      ['GET', `/api/lists/${list.id}/candidates`],
    ];
    for (const [method, url, body] of calls) {
      const theirs = await clients.carol.request(method, url, body);
      const unknown = await clients.carol.request(method, url.replace(`/lists/${list.id}`, '/lists/999999'), body);
      expect(theirs.statusCode, `${method} ${url}`).toBe(404);
      expect(theirs.json(), `${method} ${url}`).toEqual(unknown.json());
      expect(theirs.json().code).toBe('NOT_FOUND');
    }
    // Nothing changed.
    expect((await clients.alice.get(`/api/lists/${list.id}`)).json()).toMatchObject({ title: 'Mine', memberCount: 1 });
    for (const url of ['/api/lists', `/api/lists/${list.id}`]) {
      expect((await clients.visitor.get(url)).json().code).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses a bad title, a bad replies policy, unknown fields and an empty change, saying which', async () => {
    const { clients } = await seedTrio(ctx);
    const refusals: [unknown, string][] = [
      [{ title: '' }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: '\u200b' }, 'title'],
      [{ title: 'x'.repeat(LIST_LIMITS.titleMax + 1) }, 'title'],
      [{ title: 'two\nlines' }, 'title'],
      [{}, 'title'],
      [{ title: 'ok', repliesPolicy: 'everyone' }, 'repliesPolicy'],
      [{ title: 'ok', exclusive: 'yes' }, 'exclusive'],
      [{ title: 'ok', colour: 'red' }, ''],
    ];
    for (const [body, field] of refusals) {
      const res = await clients.alice.post('/api/lists', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('INVALID_INPUT');
      if (field) expect(res.json().issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    // A title of exactly the limit, in user-perceived characters (an emoji counts once).
    expect((await clients.alice.post('/api/lists', { title: '🐦'.repeat(LIST_LIMITS.titleMax) })).statusCode).toBe(201);
    const list = await createList(clients.alice, { title: 'fine' });
    for (const body of [{}, { repliesPolicy: 'all' }, { title: '' }]) {
      const res = await clients.alice.patch(`/api/lists/${list.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('INVALID_INPUT');
    }
  });

  it(`holds at most ${LIST_LIMITS.lists} lists per member (LIMIT_REACHED)`, async () => {
    const { alice, clients } = await seedTrio(ctx);
    await ctx.db.db.execute(
      sql`insert into lists (owner_id, title) select ${alice.id}, 'list ' || g from generate_series(1, ${LIST_LIMITS.lists}) g`,
    );
    const res = await clients.alice.post('/api/lists', { title: 'one more' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'LIMIT_REACHED' });
    // Another member is not affected.
    await createList(clients.bob, { title: 'mine' });
  });

  it('adds only people one follows (NOT_FOLLOWING), idempotently; unknown people are NOT_FOUND; removes', async () => {
    const { bob, carol, clients } = await seedTrio(ctx);
    const list = await createList(clients.alice, { title: 'People' });
    const refused = await clients.alice.put(`/api/lists/${list.id}/members/${bob.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'NOT_FOLLOWING', message: expect.stringMatching(/follow/) });
    expect((await clients.alice.put(`/api/lists/${list.id}/members/999999`)).json().code).toBe('NOT_FOUND');
    expect((await clients.alice.put(`/api/lists/${list.id}/members/nope`)).statusCode).toBe(404);

    await follow(clients.alice, bob.id);
    await follow(clients.alice, carol.id);
    expect(await addMember(clients.alice, list.id, bob.id)).toMatchObject({ id: String(bob.id) });
    await addMember(clients.alice, list.id, bob.id);
    await addMember(clients.alice, list.id, carol.id);
    const members = await getAll<User>(clients.alice, `/api/lists/${list.id}/members`, 1);
    expect(members.map((u) => u.username)).toEqual(['carol', 'bob']);
    expect((await clients.alice.get(`/api/lists/${list.id}`)).json().memberCount).toBe(2);

    const removed = await clients.alice.delete(`/api/lists/${list.id}/members/${bob.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ username: 'bob' });
    expect((await clients.alice.delete(`/api/lists/${list.id}/members/${bob.id}`)).statusCode).toBe(200);
    expect((await getAll<User>(clients.alice, `/api/lists/${list.id}/members`, 5)).map((u) => u.username)).toEqual([
      'carol',
    ]);
  });

  it(`holds at most ${LIST_LIMITS.members} people per list (LIMIT_REACHED)`, async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const list = await createList(clients.alice, { title: 'Crowd' });
    await ctx.db.db.execute(sql`insert into users (email, username, name, password_hash)
      select 'c' || g || '@example.com', 'c' || g, 'C ' || g, 'x' from generate_series(1, ${LIST_LIMITS.members}) g`);
    await ctx.db.db.execute(sql`insert into follows (follower_id, followee_id)
      select ${alice.id}, id from users where username like 'c%' and username <> 'carol'`);
    await ctx.db.db.execute(sql`insert into list_members (list_id, owner_id, user_id)
      select ${Number(list.id)}, ${alice.id}, id from users where username like 'c%' and username <> 'carol'`);
    await follow(clients.alice, bob.id);
    const res = await clients.alice.put(`/api/lists/${list.id}/members/${bob.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('LIMIT_REACHED');
    expect((await clients.alice.get(`/api/lists/${list.id}`)).json().memberCount).toBe(LIST_LIMITS.members);
  });

  it('an unfollow, or a block either way, takes the person off the lists of the one who followed', async () => {
    const { bob, carol, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await follow(clients.alice, carol.id);
    const a = await createList(clients.alice, { title: 'A' });
    const b = await createList(clients.alice, { title: 'B' });
    for (const list of [a, b]) {
      await addMember(clients.alice, list.id, bob.id);
      await addMember(clients.alice, list.id, carol.id);
    }
    expect((await clients.alice.delete(`/api/users/${bob.id}/follow`)).statusCode).toBe(200);
    for (const list of [a, b]) {
      const members = await getAll<User>(clients.alice, `/api/lists/${list.id}/members`, 5);
      expect(members.map((u) => u.username)).toEqual(['carol']);
    }
    // carol blocks alice: the follow goes, and with it her place on alice's lists.
    expect(
      (await clients.carol.put(`/api/users/${(await clients.alice.get('/api/current')).json().id}/block`)).statusCode,
    ).toBe(200);
    expect((await clients.alice.get(`/api/lists/${a.id}`)).json().memberCount).toBe(0);
    // Following again does not put anyone back.
    await follow(clients.alice, bob.id);
    expect((await clients.alice.get(`/api/lists/${b.id}`)).json().memberCount).toBe(0);
  });

  it('shows the members’ posts and reposts newest first, page by page, each post once', async () => {
    const { bob, carol, clients } = await seedTrio(ctx);
    const dave = await insertUser(ctx.db, { username: 'dave' });
    await follow(clients.alice, bob.id);
    await follow(clients.alice, carol.id);
    await follow(clients.alice, dave.id);
    const list = await createList(clients.alice, { title: 'BC' });
    await addMember(clients.alice, list.id, bob.id);
    await addMember(clients.alice, list.id, carol.id);
    const written: string[] = [];
    for (let i = 0; i < 7; i++) {
      const who = i % 2 === 0 ? clients.bob : clients.carol;
      written.push((await createPost(who, `post ${i}`)).text);
    }
    await createPost(clients.alice, 'by the owner: not on the list');
    await ctx.db.db.execute(sql`insert into posts (author_id, text) values (${dave.id}, 'followed, not on the list')`);
    const expected = [...written].reverse();
    for (const limit of [1, 3, 50]) {
      expect((await getAll<Post>(clients.alice, `/api/lists/${list.id}/posts`, limit)).map((p) => p.text)).toEqual(
        expected,
      );
    }
    // A repost by a member of a post by a non-member shows once, as a repost; of a member's post, not again.
    const bobsFirst = (await getPage<Post>(clients.alice, `/api/users/${bob.id}/posts`)).items.at(-1) as Post;
    expect((await clients.carol.put(`/api/posts/${bobsFirst.id}/repost`)).statusCode).toBe(200);
    expect((await timeline(clients.alice, list.id)).filter((t) => t === 'post 0')).toHaveLength(1);
    const alicePost = await createPost(clients.alice, 'owner post');
    expect((await clients.carol.put(`/api/posts/${alicePost.id}/repost`)).statusCode).toBe(200);
    expect((await clients.bob.put(`/api/posts/${alicePost.id}/repost`)).statusCode).toBe(200);
    const page = await getPage<Post>(clients.alice, `/api/lists/${list.id}/posts`);
    const reposts = page.items.filter((p) => p.id === alicePost.id);
    expect(reposts).toHaveLength(1);
    expect(reposts[0]?.repostedBy?.username).toBe('carol');
  });

  it('shows replies by the list’s policy: none, to list members, to people the owner follows', async () => {
    const { bob, carol, clients } = await seedTrio(ctx);
    const daveRow = await insertUser(ctx.db, { username: 'dave' });
    const eveRow = await insertUser(ctx.db, { username: 'eve' });
    await follow(clients.alice, bob.id);
    await follow(clients.alice, carol.id);
    await follow(clients.alice, daveRow.id);
    const [fromDave] = await seedOne(daveRow.id, 'dave says');
    const [fromEve] = await seedOne(eveRow.id, 'eve says');
    const aliceRoot = await createPost(clients.alice, 'alice says');
    const bobRoot = await createPost(clients.bob, 'bob root');
    await createPost(clients.bob, 'bob to himself', bobRoot.id);
    await createPost(clients.bob, 'bob to carol', (await createPost(clients.carol, 'carol root')).id);
    await createPost(clients.bob, 'bob to dave', String(fromDave));
    await createPost(clients.bob, 'bob to eve', String(fromEve));
    await createPost(clients.bob, 'bob to alice', aliceRoot.id);

    const lists: Record<string, List> = {};
    for (const policy of ['none', 'list', 'followed'] as const) {
      lists[policy] = await createList(clients.alice, { title: policy, repliesPolicy: policy });
      await addMember(clients.alice, lists[policy].id, bob.id);
      await addMember(clients.alice, lists[policy].id, carol.id);
    }
    expect(await timeline(clients.alice, lists.none!.id)).toEqual(['carol root', 'bob root']);
    expect(await timeline(clients.alice, lists.list!.id)).toEqual([
      'bob to carol',
      'carol root',
      'bob to himself',
      'bob root',
    ]);
    expect(await timeline(clients.alice, lists.followed!.id)).toEqual([
      'bob to alice',
      'bob to dave',
      'bob to carol',
      'carol root',
      'bob to himself',
      'bob root',
    ]);
    // Changing the policy changes the timeline at once.
    await clients.alice.patch(`/api/lists/${lists.followed!.id}`, { repliesPolicy: 'none' });
    expect(await timeline(clients.alice, lists.followed!.id)).toEqual(['carol root', 'bob root']);

    async function seedOne(authorId: number, text: string) {
      const res = await ctx.db.db.execute(
        sql`insert into posts (author_id, text) values (${authorId}, ${text}) returning id`,
      );
      return (res as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
    }
  });

  it('goes through the visibility rules: a muted member and muted words leave the list timeline', async () => {
    const { bob, carol, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await follow(clients.alice, carol.id);
    const list = await createList(clients.alice, { title: 'L' });
    await addMember(clients.alice, list.id, bob.id);
    await addMember(clients.alice, list.id, carol.id);
    await createPost(clients.bob, 'bob talks');
    await createPost(clients.carol, 'carol talks about spoilers');
    await createPost(clients.carol, 'carol talks');
    expect((await clients.alice.put(`/api/users/${bob.id}/mute`, {})).statusCode).toBe(200);
    expect((await clients.alice.post('/api/muted-words', { phrase: 'spoilers' })).statusCode).toBe(201);
    expect(await timeline(clients.alice, list.id)).toEqual(['carol talks']);
  });

  it('exclusive: the members’ posts leave Home (without home feeds), and come back when it is not', async () => {
    const { bob, carol, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await follow(clients.alice, carol.id);
    await createPost(clients.bob, 'bob 1');
    await createPost(clients.carol, 'carol 1');
    const mine = await createPost(clients.alice, 'alice 1');
    // A repost by an exclusive member leaves Home too; the same post reposted by someone else stays.
    await clients.bob.put(`/api/posts/${mine.id}/repost`);
    const list = await createList(clients.alice, { title: 'Bob only', exclusive: true });
    expect(await home(clients.alice)).toEqual(['alice 1', 'carol 1', 'bob 1']);
    await addMember(clients.alice, list.id, bob.id);
    expect(await home(clients.alice)).toEqual(['alice 1', 'carol 1']);
    expect(await timeline(clients.alice, list.id)).toEqual(['alice 1', 'bob 1']);
    await clients.alice.patch(`/api/lists/${list.id}`, { exclusive: false });
    expect(await home(clients.alice)).toEqual(['alice 1', 'carol 1', 'bob 1']);
    await clients.alice.patch(`/api/lists/${list.id}`, { exclusive: true });
    expect(await home(clients.alice)).toEqual(['alice 1', 'carol 1']);
    // bob's own Home, and carol's, are theirs: untouched.
    expect(await home(clients.bob)).toEqual(['alice 1', 'bob 1']);
    expect(await clients.alice.delete(`/api/lists/${list.id}`)).toMatchObject({ statusCode: 204 });
    expect(await home(clients.alice)).toEqual(['alice 1', 'carol 1', 'bob 1']);
  });

  it('offers the people one follows as candidates, by name or username prefix, marked when on the list', async () => {
    const { bob, carol, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await follow(clients.alice, carol.id);
    const list = await createList(clients.alice, { title: 'L' });
    await addMember(clients.alice, list.id, carol.id);
    const all = (await clients.alice.get(`/api/lists/${list.id}/candidates`)).json().items as ListCandidate[];
    expect(all.map((c) => [c.username, c.inList])).toEqual([
      ['carol', true],
      ['bob', false],
    ]);
    const bo = (await clients.alice.get(`/api/lists/${list.id}/candidates?q=@BO`)).json().items as ListCandidate[];
    expect(bo.map((c) => c.username)).toEqual(['bob']);
    // Nobody alice does not follow, however well they match; a wildcard is a plain character.
    expect((await clients.alice.get(`/api/lists/${list.id}/candidates?q=ali`)).json().items).toEqual([]);
    expect((await clients.alice.get(`/api/lists/${list.id}/candidates?q=%25`)).json().items).toEqual([]);
    const long = await clients.alice.get(`/api/lists/${list.id}/candidates?q=${'a'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
  });
});
