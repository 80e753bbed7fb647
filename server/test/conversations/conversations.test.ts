/**
 * Direct posts as conversations (issue 27, part 4) through the web API: who has one and how it
 * reads (its last post, its people, unread), reading and removing one (and a new post bringing it
 * back), what a block hides, refusals (not in it: 404), and the cursor pages.
 */
import type { Conversation, Post } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { getAll, getPage, rowsOf } from '../helpers/social.ts';

async function write(client: TestClient, body: Record<string, unknown>): Promise<Post> {
  const res = await client.post('/api/posts', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Post>();
}

const direct = (client: TestClient, text: string, parentId?: string) =>
  write(client, { text, visibility: 'direct', ...(parentId ? { parentId } : {}) });

async function conversationsOf(client: TestClient): Promise<Conversation[]> {
  return (await getPage<Conversation>(client, '/api/conversations', null, 50)).items;
}

async function unreadOf(client: TestClient): Promise<number> {
  const res = await client.get('/api/conversations/unread');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ count: number }>().count;
}

const names = (c: Conversation | undefined) => c?.participants.map((p) => p.username);

describe('conversations', () => {
  const ctx = useTestApp();

  it('lists a direct post for its author (read) and the people it mentions (unread), with the others in it; nobody else', async () => {
    const { clients } = await seedTrio(ctx);
    const sent = await direct(clients.alice, 'Lunch, @bob?');

    const [mine] = await conversationsOf(clients.alice);
    expect(mine).toMatchObject({ id: sent.id, unread: false, lastPost: { id: sent.id, visibility: 'direct' } });
    expect(names(mine)).toEqual(['bob']);
    expect(mine?.updatedAt).toBe(sent.createdAt);

    const [bobs] = await conversationsOf(clients.bob);
    expect(bobs).toMatchObject({ id: sent.id, unread: true, lastPost: { id: sent.id, text: 'Lunch, @bob?' } });
    expect(names(bobs)).toEqual(['alice']);
    expect(await unreadOf(clients.bob)).toBe(1);
    expect(await unreadOf(clients.alice)).toBe(0);

    expect(await conversationsOf(clients.carol)).toEqual([]);
    expect(await unreadOf(clients.carol)).toBe(0);
  });

  it('makes no conversation of a public, unlisted or followers-only post that mentions someone', async () => {
    const { clients } = await seedTrio(ctx);
    for (const visibility of ['public', 'unlisted', 'followers']) {
      await write(clients.alice, { text: `@bob ${visibility}`, visibility });
    }
    expect(await conversationsOf(clients.alice)).toEqual([]);
    expect(await conversationsOf(clients.bob)).toEqual([]);
  });

  it('keeps a direct post that mentions nobody as a conversation of its author alone', async () => {
    const { clients } = await seedTrio(ctx);
    const note = await direct(clients.alice, 'a note to self');
    const [mine] = await conversationsOf(clients.alice);
    expect(mine).toMatchObject({ id: note.id, unread: false, participants: [], lastPost: { id: note.id } });
  });

  it('gathers direct replies into their conversation: the newest post it shows each person, unread for the others', async () => {
    const { clients } = await seedTrio(ctx);
    const root = await direct(clients.alice, 'Party at mine, @bob @carol');
    await clients.bob.post(`/api/conversations/${root.id}/read`);
    // Bob answers alice only (the author a reply answers is in its audience; carol is not mentioned).
    const answer = await direct(clients.bob, 'I will bring cake', root.id);
    const [aliceView] = await conversationsOf(clients.alice);
    expect(aliceView).toMatchObject({ id: root.id, unread: true, lastPost: { id: answer.id } });
    expect(names(aliceView)).toEqual(['bob', 'carol']);
    const [bobView] = await conversationsOf(clients.bob);
    expect(bobView).toMatchObject({ id: root.id, unread: false, lastPost: { id: answer.id } });
    // Carol was not reached by bob's reply: she still sees alice's post, unread since it came.
    const [carolView] = await conversationsOf(clients.carol);
    expect(carolView).toMatchObject({ id: root.id, unread: true, lastPost: { id: root.id } });

    const again = await direct(clients.alice, 'Cake is great @carol', answer.id);
    const [carolNow] = await conversationsOf(clients.carol);
    expect(carolNow).toMatchObject({ id: root.id, lastPost: { id: again.id } });
    expect(names(carolNow)).toEqual(['alice', 'bob']);
    expect((await conversationsOf(clients.alice)).map((c) => c.id)).toEqual([root.id]);

    // A direct reply to a public post starts a conversation of its own.
    const open = await write(clients.carol, { text: 'Anyone around?' });
    const aside = await direct(clients.alice, 'I am', open.id);
    expect((await conversationsOf(clients.carol)).map((c) => c.id)).toEqual([aside.id, root.id]);
  });

  it('marks a conversation read, for that person only; 404 for one they are not in, an unknown id or a non-id', async () => {
    const { clients } = await seedTrio(ctx);
    const sent = await direct(clients.alice, '@bob @carol psst');
    const read = await clients.bob.post(`/api/conversations/${sent.id}/read`);
    expect(read.statusCode, read.body).toBe(204);
    expect((await conversationsOf(clients.bob))[0]?.unread).toBe(false);
    expect(await unreadOf(clients.bob)).toBe(0);
    expect((await conversationsOf(clients.carol))[0]?.unread).toBe(true);
    // Reading twice is fine.
    expect((await clients.bob.post(`/api/conversations/${sent.id}/read`)).statusCode).toBe(204);

    const other = await direct(clients.alice, '@bob only');
    for (const [client, id] of [
      [clients.carol, other.id],
      [clients.bob, '999999'],
      [clients.bob, 'abc'],
    ] as const) {
      for (const res of [
        await client.post(`/api/conversations/${id}/read`),
        await client.delete(`/api/conversations/${id}`),
      ]) {
        expect([id, res.statusCode]).toEqual([id, 404]);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
    }
    // Nothing changed for the people in it.
    expect((await conversationsOf(clients.bob)).find((c) => c.id === other.id)?.unread).toBe(true);
    expect((await conversationsOf(clients.alice)).map((c) => c.id)).toEqual([other.id, sent.id]);
  });

  it('needs a member: 401 for a visitor on every call', async () => {
    const { clients } = await seedTrio(ctx);
    const sent = await direct(clients.alice, '@bob hi');
    for (const res of [
      await clients.visitor.get('/api/conversations'),
      await clients.visitor.get('/api/conversations/unread'),
      await clients.visitor.post(`/api/conversations/${sent.id}/read`),
      await clients.visitor.delete(`/api/conversations/${sent.id}`),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  it('removes a conversation for oneself only; a new post in it brings it back, unread', async () => {
    const { clients } = await seedTrio(ctx);
    const sent = await direct(clients.alice, '@bob are you there?');
    const removed = await clients.bob.delete(`/api/conversations/${sent.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await conversationsOf(clients.bob)).toEqual([]);
    expect(await unreadOf(clients.bob)).toBe(0);
    expect((await conversationsOf(clients.alice)).map((c) => c.id)).toEqual([sent.id]);
    // Gone: removing it again is a 404.
    expect((await clients.bob.delete(`/api/conversations/${sent.id}`)).statusCode).toBe(404);
    // The post itself is still there for bob.
    expect((await clients.bob.get(`/api/posts/${sent.id}`)).statusCode).toBe(200);

    // A reply reaches whom it mentions and the author it answers (here alice herself): bob is mentioned.
    const aside = await direct(clients.alice, 'never mind', sent.id);
    expect(await conversationsOf(clients.bob)).toEqual([]);
    expect((await conversationsOf(clients.alice))[0]?.lastPost.id).toBe(aside.id);
    const nudge = await direct(clients.alice, '@bob hello?', aside.id);
    const [back] = await conversationsOf(clients.bob);
    expect(back).toMatchObject({ id: sent.id, unread: true, lastPost: { id: nudge.id } });
    expect(await unreadOf(clients.bob)).toBe(1);
  });

  it('never shows a post hidden from the reader: a block hides its posts and its author, a conversation with nothing left goes', async () => {
    const { alice, carol, clients } = await seedTrio(ctx);
    const root = await direct(clients.alice, 'Plans, @bob @carol?');
    const reply = await direct(clients.bob, 'Yes! @carol', root.id);
    expect((await clients.carol.put(`/api/users/${alice.id}/block`)).statusCode).toBe(200);

    const [carolView] = await conversationsOf(clients.carol);
    expect(carolView).toMatchObject({ id: root.id, lastPost: { id: reply.id } });
    expect(names(carolView)).toEqual(['bob']);
    // Alice no longer sees carol in it either (a block is mutual).
    expect(names((await conversationsOf(clients.alice))[0])).toEqual(['bob']);

    // A conversation of alice's posts only: nothing for carol, not even in the unread count.
    await direct(clients.alice, 'Just us, @carol');
    expect((await conversationsOf(clients.carol)).map((c) => c.id)).toEqual([root.id]);
    expect(await unreadOf(clients.carol)).toBe(1);
    // Nothing reaches her from alice after the block: no row is written for her.
    const held = rowsOf<{ n: number }>(
      await ctx.db.db.execute(sql`select count(*)::int as n from conversations where user_id = ${carol.id}`),
    );
    expect(held[0]?.n).toBe(1);
  });

  it('shows the newest post left when the last is deleted, and leaves out a conversation with none left', async () => {
    const { clients } = await seedTrio(ctx);
    const root = await direct(clients.alice, '@bob first');
    const answer = await direct(clients.bob, 'second', root.id);
    expect((await clients.bob.delete(`/api/posts/${answer.id}`)).statusCode).toBe(204);
    const [left] = await conversationsOf(clients.alice);
    expect(left).toMatchObject({ id: root.id, lastPost: { id: root.id } });
    expect((await clients.alice.delete(`/api/posts/${root.id}`)).statusCode).toBe(204);
    expect(await conversationsOf(clients.alice)).toEqual([]);
    expect(await conversationsOf(clients.bob)).toEqual([]);
    expect(await unreadOf(clients.alice)).toBe(0);
  });

  it('pages the latest first by cursor, each conversation once', async () => {
    const { clients } = await seedTrio(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await direct(clients.alice, `@bob note ${i}`)).id);
    // An answer to the oldest brings it to the top.
    await direct(clients.bob, 'answering the first', ids[0]);
    const expected = [ids[0], ...ids.slice(1).reverse()];
    expect((await getAll<Conversation>(clients.bob, '/api/conversations', 3)).map((c) => c.id)).toEqual(expected);
    expect((await getAll<Conversation>(clients.alice, '/api/conversations', 2)).map((c) => c.id)).toEqual(expected);
    const bad = await clients.bob.get('/api/conversations?cursor=nonsense');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'cursor' });
    expect((await clients.bob.get('/api/conversations?limit=0')).statusCode).toBe(400);
  });
});
