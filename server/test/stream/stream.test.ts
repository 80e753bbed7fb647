/**
 * GET /api/stream: live updates as Server-Sent Events, read by a real HTTP client from a listening
 * server. Each wait is for a message or for the hub to be idle (every event so far delivered),
 * never for a guessed time.
 */
import type { LiveEvent } from '@pipit/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import type { StreamClient } from '../../src/modules/stream/stream.hub.ts';
import { seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { openStream, type Received } from './sse-client.ts';

describe('the live stream', () => {
  const ctx = useTestApp();
  const open: Awaited<ReturnType<typeof openStream>>[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  let address: Promise<string> | null = null;
  let addressOf: App | null = null;
  function baseUrl(app: App) {
    if (addressOf !== app) {
      addressOf = app;
      address = app.listen({ port: 0, host: '127.0.0.1' });
    }
    return address as Promise<string>;
  }

  /** A stream as `client` (a member's cookies, or none for a visitor) opens it. */
  async function stream(client?: TestClient, headers: Record<string, string> = {}) {
    const cookie: Record<string, string> = client && client.cookies.size > 0 ? { cookie: client.cookies.header() } : {};
    const s = await openStream(`${await baseUrl(ctx.app)}/api/stream`, { ...cookie, ...headers });
    open.push(s);
    return s;
  }

  const isPost = (id: string) => (r: Received) => r.data.type === 'post.created' && r.data.post.id === id;
  const hubIdle = () => ctx.app.services.stream.idle();

  async function post(client: TestClient, text: string, parentId?: string) {
    const res = await client.post('/api/posts', parentId ? { text, parentId } : { text });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string }>().id;
  }

  it('opens as an event stream that is never cached, nor compressed (its events go out as they happen)', async () => {
    const s = await stream(undefined, { 'accept-encoding': 'gzip, deflate, br' });
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toContain('text/event-stream');
    expect(s.res.headers.get('cache-control')).toBe('private, no-store');
    expect(s.res.headers.get('content-encoding')).toBeNull();
    // And a post arrives through it while the stream stays open.
    const { clients } = await seedTrio(ctx);
    const id = await post(clients.alice, 'Heard at once');
    expect((await s.next(isPost(id))).data.type).toBe('post.created');
  });

  it('brings a new post to a visitor for Everyone, and to a follower for Following too', async () => {
    const { alice, clients } = await seedTrio(ctx);
    expect((await clients.bob.put(`/api/users/${alice.id}/follow`)).statusCode).toBe(200);
    const [visitor, bob, carol, own] = [
      await stream(),
      await stream(clients.bob),
      await stream(clients.carol),
      await stream(clients.alice),
    ];
    const id = await post(clients.alice, 'Swifts are back');

    const seenBy = async (s: typeof visitor) =>
      (await s.next(isPost(id))).data as Extract<LiveEvent, { type: 'post.created' }>;
    expect((await seenBy(visitor)).timelines).toEqual(['everyone']);
    expect((await seenBy(carol)).timelines).toEqual(['everyone']);
    expect((await seenBy(bob)).timelines).toEqual(['following', 'everyone']);
    expect((await seenBy(own)).timelines).toEqual(['following', 'everyone']);
    const shown = await seenBy(visitor);
    expect(shown.post).toMatchObject({ id, text: 'Swifts are back', likedByMe: false, author: { username: 'alice' } });
    // Each message carries its id for a reconnect.
    expect((await visitor.next(isPost(id))).id).toMatch(/^[0-9a-f]+\.\d+$/);
  });

  it("brings a post with a hashtag a member follows to their Following live and on resume, by someone they don't follow", async () => {
    const { clients } = await seedTrio(ctx);
    expect((await clients.bob.put('/api/hashtags/birds/follow')).statusCode).toBe(200);
    const [bob, carol] = [await stream(clients.bob), await stream(clients.carol)];
    const tagged = await post(clients.alice, 'Swifts are back #Birds');
    const plain = await post(clients.alice, 'no tag');
    const timelinesOf = async (s: typeof bob, id: string) =>
      ((await s.next(isPost(id))).data as Extract<LiveEvent, { type: 'post.created' }>).timelines;
    expect(await timelinesOf(bob, tagged)).toEqual(['following', 'everyone']);
    expect(await timelinesOf(bob, plain)).toEqual(['everyone']);
    expect(await timelinesOf(carol, tagged)).toEqual(['everyone']);
    // A reconnect's replay says the same.
    const before = carol.received.find(isPost(tagged));
    expect(before).toBeDefined();
    const firstId = String(Number(String(before?.id).split('.')[1]) - 1);
    const resumed = await stream(clients.bob, { 'last-event-id': `${String(before?.id).split('.')[0]}.${firstId}` });
    expect(await timelinesOf(resumed, tagged)).toEqual(['following', 'everyone']);
    expect(await timelinesOf(resumed, plain)).toEqual(['everyone']);
  });

  it('sends no post to a member who blocked or muted its author, or was blocked by them, live or on resume', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    expect((await clients.carol.put(`/api/users/${alice.id}/block`)).statusCode).toBe(200);
    expect((await clients.bob.put(`/api/users/${alice.id}/mute`, {})).statusCode).toBe(200);
    const [aliceStream, bobStream, carolStream, visitor] = [
      await stream(clients.alice),
      await stream(clients.bob),
      await stream(clients.carol),
      await stream(),
    ];
    const fromAlice = await post(clients.alice, 'from alice');
    const fromCarol = await post(clients.carol, 'from carol');
    // Frames arrive in order: once a stream has Carol's post, anything sent before it is there too.
    for (const s of [visitor, bobStream, carolStream]) await s.next(isPost(fromCarol));
    await aliceStream.next(isPost(fromAlice));
    await hubIdle();
    const postsSeen = (s: typeof visitor) =>
      s.received.flatMap((r) => (r.data.type === 'post.created' ? [r.data.post.text] : []));
    expect(postsSeen(visitor)).toEqual(['from alice', 'from carol']);
    expect(postsSeen(bobStream)).toEqual(['from carol']);
    expect(postsSeen(carolStream)).toEqual(['from carol']);
    // The blocked person does not see the blocker's post either (checked once Bob's post, sent later, is there).
    const later = await post(clients.bob, 'later');
    await aliceStream.next(isPost(later));
    expect(postsSeen(aliceStream)).toEqual(['from alice', 'later']);

    // A reconnect's replay leaves them out too.
    const first = visitor.received.find(isPost(fromAlice));
    const resumed = await stream(clients.bob, { 'last-event-id': String(first?.id) });
    const again = await post(clients.bob, 'from bob');
    await resumed.next(isPost(again));
    expect(postsSeen(resumed)).toEqual(['from carol', 'later', 'from bob']);
    void bob;
  });

  it('sends a post only to its audience, on the timelines it belongs to, live and on resume', async () => {
    const { alice, clients } = await seedTrio(ctx);
    // Bob follows Alice; Carol does not.
    expect((await clients.bob.put(`/api/users/${alice.id}/follow`)).statusCode).toBe(200);
    const [bobStream, carolStream, visitor] = [await stream(clients.bob), await stream(clients.carol), await stream()];
    const write = async (text: string, visibility: string) => {
      const res = await clients.alice.post('/api/posts', { text, visibility });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string }>().id;
    };
    await write('open', 'public');
    await write('quiet', 'unlisted');
    await write('inner circle', 'followers');
    await write('just for @carol', 'direct');
    await write('just to myself', 'direct');
    // A public post from Carol, sent after them: once a stream has it, it has all it will get of Alice's.
    const mark = await post(clients.carol, 'mark');
    for (const s of [bobStream, carolStream, visitor]) await s.next(isPost(mark));
    await hubIdle();
    const seen = (s: typeof visitor) =>
      s.received.flatMap((r) =>
        r.data.type === 'post.created' && r.data.post.text !== 'mark'
          ? [[r.data.post.text, r.data.timelines.join()]]
          : [],
      );
    // Everyone lists public posts; a follower's Following has the unlisted and followers-only ones; a
    // direct post reaches whom it mentions, on no timeline of theirs but a conversation's.
    expect(seen(visitor)).toEqual([['open', 'everyone']]);
    expect(seen(bobStream)).toEqual([
      ['open', 'following,everyone'],
      ['quiet', 'following'],
      ['inner circle', 'following'],
    ]);
    expect(seen(carolStream)).toEqual([['open', 'everyone']]);
    // A reconnect's replay keeps to the same audiences, after an unfollow at once.
    expect((await clients.bob.delete(`/api/users/${alice.id}/follow`)).statusCode).toBe(200);
    const first = visitor.received[0];
    const resumed = await stream(clients.bob, { 'last-event-id': String(first?.id) });
    const again = await post(clients.carol, 'again');
    await resumed.next(isPost(again));
    expect(resumed.received.flatMap((r) => (r.data.type === 'post.created' ? [r.data.post.text] : []))).toEqual([
      'mark',
      'again',
    ]);
  });

  it('sends a quote of a post hidden from a member with its quote unavailable, live and on resume; others see it', async () => {
    const { alice, clients } = await seedTrio(ctx);
    expect((await clients.carol.put(`/api/users/${alice.id}/block`)).statusCode).toBe(200);
    const fromAlice = await post(clients.alice, 'from alice');
    const [bobStream, carolStream, visitor] = [await stream(clients.bob), await stream(clients.carol), await stream()];
    const res = await clients.bob.post('/api/posts', { text: 'bob quotes alice', quoteOfId: fromAlice });
    expect(res.statusCode).toBe(201);
    const quoteId = res.json<{ id: string }>().id;
    const quoteSeen = async (s: typeof visitor) => {
      const got = await s.next(isPost(quoteId));
      return got.data.type === 'post.created' ? got.data.post.quote : undefined;
    };
    expect(await quoteSeen(carolStream)).toEqual({ state: 'unavailable' });
    expect(JSON.stringify(carolStream.received)).not.toContain('from alice');
    for (const s of [bobStream, visitor])
      expect(await quoteSeen(s)).toMatchObject({ state: 'shown', post: { text: 'from alice' } });

    // A reconnect's replay from just before the quote: the same.
    const [boot, seq] = String(visitor.received.find(isPost(quoteId))?.id).split('.');
    const resumed = await stream(clients.carol, { 'last-event-id': `${boot}.${Number(seq) - 1}` });
    expect(await quoteSeen(resumed)).toEqual({ state: 'unavailable' });
    const replayedBob = await stream(clients.bob, { 'last-event-id': `${boot}.${Number(seq) - 1}` });
    expect(await quoteSeen(replayedBob)).toMatchObject({ state: 'shown', post: { text: 'from alice' } });
  });

  it("names the member's lists that show a new post (their replies policy applied), live and on resume", async () => {
    const { bob, carol, clients } = await seedTrio(ctx);
    for (const who of [bob, carol])
      expect((await clients.alice.put(`/api/users/${who.id}/follow`)).statusCode).toBe(200);
    const made = async (body: object) => (await clients.alice.post('/api/lists', body)).json<{ id: string }>().id;
    const all = await made({ title: 'all', repliesPolicy: 'followed' });
    const quiet = await made({ title: 'no replies', repliesPolicy: 'none' });
    for (const list of [all, quiet]) {
      expect((await clients.alice.put(`/api/lists/${list}/members/${bob.id}`)).statusCode).toBe(200);
    }
    const [aliceStream, carolStream] = [await stream(clients.alice), await stream(clients.carol)];
    const root = await post(clients.bob, 'a root');
    const reply = await post(clients.bob, 'a reply', root);
    const fromCarol = await post(clients.carol, 'not on a list');
    const listsOf = async (s: typeof aliceStream, id: string) =>
      ((await s.next(isPost(id))).data as Extract<LiveEvent, { type: 'post.created' }>).lists;
    expect(await listsOf(aliceStream, root)).toEqual([all, quiet]);
    expect(await listsOf(aliceStream, reply)).toEqual([all]);
    expect(await listsOf(aliceStream, fromCarol)).toBeUndefined();
    // Nobody else learns of alice's lists.
    expect(await listsOf(carolStream, root)).toBeUndefined();
    // A reconnect's replay names them too.
    const first = aliceStream.received.find(isPost(root));
    const resumed = await stream(clients.alice, { 'last-event-id': String(first?.id) });
    expect(await listsOf(resumed, reply)).toEqual([all]);
  });

  it('tells everyone of a deletion', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const id = await post(clients.alice, 'Oops');
    const visitor = await stream();
    expect((await clients.alice.delete(`/api/posts/${id}`)).statusCode).toBe(204);
    const { data } = await visitor.next((r) => r.data.type === 'post.deleted');
    expect(data).toEqual({ type: 'post.deleted', id, parentId: null, authorId: String(alice.id) });
  });

  it('tells only the recipient of a notification', async () => {
    const { clients } = await seedTrio(ctx);
    const id = await post(clients.alice, 'Like me');
    const [aliceStream, carolStream] = [await stream(clients.alice), await stream(clients.carol)];
    expect((await clients.bob.put(`/api/posts/${id}/like`)).statusCode).toBe(200);
    const { data } = await aliceStream.next((r) => r.data.type === 'notification');
    expect(data).toEqual({ type: 'notification', notificationType: 'like' });
    await hubIdle();
    expect(carolStream.received.filter((r) => r.data.type === 'notification')).toEqual([]);
  });

  it('tells every stream of a member (their other tabs) that they read their notifications, and nobody else', async () => {
    const { clients } = await seedTrio(ctx);
    const [tabA, tabB, bobStream] = [
      await stream(clients.alice),
      await stream(clients.alice),
      await stream(clients.bob),
    ];
    expect((await clients.alice.post('/api/notifications/read')).statusCode).toBe(204);
    for (const tab of [tabA, tabB]) {
      expect((await tab.next((r) => r.data.type === 'notifications.read')).data).toEqual({
        type: 'notifications.read',
      });
    }
    await hubIdle();
    expect(bobStream.received.filter((r) => r.data.type === 'notifications.read')).toEqual([]);
  });

  it('tells the people of a conversation when a direct post comes in, each of their tabs when one reads it, and nobody else', async () => {
    const { clients } = await seedTrio(ctx);
    const [aliceStream, bobStream, carolStream] = [
      await stream(clients.alice),
      await stream(clients.bob),
      await stream(clients.carol),
    ];
    const res = await clients.alice.post('/api/posts', { text: '@bob just us', visibility: 'direct' });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ id: string }>().id;
    for (const s of [aliceStream, bobStream]) {
      expect((await s.next((r) => r.data.type === 'conversation')).data).toEqual({
        type: 'conversation',
        id,
        change: 'post',
      });
    }
    expect((await clients.bob.post(`/api/conversations/${id}/read`)).statusCode).toBe(204);
    const read = await bobStream.next((r) => r.data.type === 'conversation' && r.data.change === 'read');
    expect(read.data).toEqual({ type: 'conversation', id, change: 'read' });
    await hubIdle();
    expect(carolStream.received.filter((r) => r.data.type === 'conversation')).toEqual([]);
    expect(aliceStream.received.filter((r) => r.data.type === 'conversation')).toHaveLength(1);
  });

  it('resumes from Last-Event-ID: what was missed, once, in order', async () => {
    const { clients } = await seedTrio(ctx);
    const first = await stream();
    const one = await post(clients.alice, 'one');
    const seen = await first.next(isPost(one));
    await first.close();

    const two = await post(clients.alice, 'two');
    const three = await post(clients.bob, 'three');
    await hubIdle();
    const again = await stream(undefined, { 'last-event-id': seen.id as string });
    await again.next(isPost(three));
    const posts = again.received.filter((r) => r.data.type === 'post.created');
    expect(posts.map((r) => (r.data as { post: { id: string } }).post.id)).toEqual([two, three]);
  });

  it('asks to reload when it cannot resume (an id from another process or past the window)', async () => {
    await seedTrio(ctx);
    const s = await stream(undefined, { 'last-event-id': 'deadbeef.12' });
    expect((await s.next()).data).toEqual({ type: 'reset' });
  });

  it('refuses one stream too many for a member with 429 RATE_LIMITED', async () => {
    const { clients } = await seedTrio(ctx);
    for (let i = 0; i < ctx.config.stream.maxPerMember; i++) expect((await stream(clients.bob)).res.status).toBe(200);
    const extra = await stream(clients.bob);
    expect(extra.res.status).toBe(429);
    expect(await extra.res.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Closing one makes room again.
    await open[0]?.close();
    await expect.poll(() => ctx.app.services.stream.size).toBe(ctx.config.stream.maxPerMember - 1);
    expect((await stream(clients.bob)).res.status).toBe(200);
  });

  it('drops a reader that has fallen too far behind instead of buffering for it', async () => {
    const { clients } = await seedTrio(ctx);
    let closed = false;
    const slow: StreamClient = { userId: null, address: 'slow', send: () => false, close: () => (closed = true) };
    const opened = ctx.app.services.stream.open(slow);
    if (!opened.ok) throw new Error('not admitted');
    await post(clients.alice, 'Too much');
    await hubIdle();
    expect(closed).toBe(true);
    opened.close();
  });

  it('ends open streams when the server stops, so the drain does not wait for them', async () => {
    const { clients } = await seedTrio(ctx);
    const s = await stream(clients.alice);
    ctx.app.services.stream.closeAll();
    await s.ended();
    expect(ctx.app.services.stream.size).toBe(0);
  });
});
