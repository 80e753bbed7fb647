import { verifyRequest } from '@fedify/fedify';
import {
  Announce,
  Block,
  Collection,
  Create,
  Delete,
  Flag,
  Image,
  Like,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Question,
  Undo,
  Update,
} from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { follows, likes, posts, users } from '../../src/db/schema.ts';
import { insertUser, TestClient } from '../helpers/app.ts';
import { photo } from '../media/fixtures.ts';
import { type Delivery, ORIGIN, Peer, useFederatedApp, withCarol } from './peer.ts';

/**
 * What people do to each other's posts and to each other across servers, both ways (modules/federation:
 * outgoing.ts, incoming.ts): likes, reposts (Announce), blocks, each with its Undo; a profile's Update; an
 * account's Delete. Carol is on another server (a Peer on 127.0.0.1); the queue is run by hand.
 */
describe('likes, reposts, blocks, profiles and deleted accounts, across servers', () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await Peer.start();
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.gone = false;
  });

  const fed = useFederatedApp();
  const { ctx } = fed;
  const { runQueue, member, carolFollows, followCarol } = withCarol(fed, () => peer);

  let n = 0;
  /** A fresh activity id on carol's server. */
  const carolsId = (kind: string) => new URL(`/activities/${kind}-${++n}`, peer.origin);
  /** Delivers an activity of carol's, signed, to the shared inbox, and runs the queue (where it is handled). */
  async function fromCarol(activity: { toJsonLd(): Promise<unknown> }) {
    const res = await peer.deliver(ctx.app, ORIGIN, '/inbox', await activity.toJsonLd());
    expect(res.statusCode, res.body).toBe(202);
    await runQueue();
  }
  /** Runs the queue and answers what reached carol's server meanwhile. */
  async function sent(): Promise<Delivery[]> {
    const before = peer.received.length;
    await runQueue();
    return peer.received.slice(before);
  }
  const postUrl = (id: string | number) => new URL(`/posts/${id}`, ORIGIN);
  const memberUrl = (id: number) => new URL(`/users/${id}`, ORIGIN);

  async function write(client: Awaited<ReturnType<typeof member>>['client'], body: Record<string, unknown>) {
    const res = await client.post('/api/posts', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  }

  /** A note of carol's, kept here because alice follows her. Answers its id here and its id on her server. */
  async function carolsNote(text: string) {
    const uri = carolsId('note');
    const note = new Note({
      id: uri,
      attribution: peer.actorId,
      content: `<p>${text}</p>`,
      to: PUBLIC_COLLECTION,
      ccs: [new URL('/users/carol/followers', peer.origin)],
    });
    await fromCarol(new Create({ id: carolsId('create'), actor: peer.actorId, object: note, to: PUBLIC_COLLECTION }));
    const [row] = await ctx.db.db.select({ id: posts.id }).from(posts).where(eq(posts.uri, uri.href));
    expect(row).toBeDefined();
    return { id: String(row?.id), uri };
  }

  /** A public note of carol's that her server serves and Pipit has never seen. */
  async function noteOnPeer(text: string, inReplyTo: URL | null = null) {
    const note = new Note({
      id: carolsId('note'),
      attribution: peer.actorId,
      content: `<p>${text}</p>`,
      to: PUBLIC_COLLECTION,
      ccs: [new URL('/users/carol/followers', peer.origin)],
      replyTarget: inReplyTo,
    });
    await peer.serve(note);
    return note;
  }

  describe('threads', () => {
    it('a reply to notes Pipit does not have: its missing parents are fetched and kept, at most five', async () => {
      const { client } = await member('alice');
      await followCarol(client);
      // A chain of seven notes on her server; Pipit has none of them. The newest arrives.
      const chain: Note[] = [];
      for (let i = 0; i < 7; i++) chain.push(await noteOnPeer(`Note ${i}`, chain.at(-1)?.id ?? null));
      const newest = chain.at(-1) as Note;
      const create = new Create({ id: carolsId('create'), actor: peer.actorId, object: newest, to: PUBLIC_COLLECTION });
      await fromCarol(create);
      // The newest and five ancestors are kept, each under its parent; the oldest was never asked for.
      const kept = await ctx.db.db.select({ id: posts.id, uri: posts.uri, parentId: posts.parentId }).from(posts);
      const byUri = new Map(kept.map((row) => [row.uri, row]));
      expect(kept).toHaveLength(6);
      for (let i = 2; i < 7; i++) {
        expect(byUri.get(chain[i]?.id?.href ?? '')?.parentId).toBe(byUri.get(chain[i - 1]?.id?.href ?? '')?.id);
      }
      expect(byUri.get(chain[1]?.id?.href ?? '')?.parentId).toBeNull();
      expect(peer.fetched.get(chain[0]?.id?.pathname ?? '')).toBeUndefined();
      // The thread reads from the first kept ancestor down.
      const newestHere = byUri.get(newest.id?.href ?? '')?.id;
      const ancestors = (await client.get(`/api/posts/${newestHere}/ancestors`)).json().items;
      expect(ancestors.map((p: { text: string }) => p.text)).toEqual([
        'Note 1',
        'Note 2',
        'Note 3',
        'Note 4',
        'Note 5',
      ]);
      // The same Create again: nothing more is fetched or kept.
      const before = [...peer.fetched.values()].reduce((a, b) => a + b, 0);
      await fromCarol(
        new Create({ id: carolsId('create'), actor: peer.actorId, object: newest, to: PUBLIC_COLLECTION }),
      );
      expect([...peer.fetched.values()].reduce((a, b) => a + b, 0)).toBe(before);
      expect(await ctx.db.db.select({ id: posts.id }).from(posts)).toHaveLength(6);
    });
  });

  describe('polls', () => {
    const pollPost = async (client: Awaited<ReturnType<typeof member>>['client'], multiple: boolean) => {
      const res = await client.post('/api/posts', {
        text: 'Which bird?',
        poll: { options: ['Heron', 'Swift', 'Wren'], expiresIn: 3600, multiple },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string }>().id;
    };
    const voteNote = (postId: string, name: string) =>
      new Create({
        id: carolsId('vote-create'),
        actor: peer.actorId,
        object: new Note({
          id: carolsId('vote'),
          attribution: peer.actorId,
          name,
          replyTarget: postUrl(postId),
          to: new URL(`/users/1`, ORIGIN),
        }),
      });
    const countsOf = async (client: Awaited<ReturnType<typeof member>>['client'], postId: string) =>
      (await client.get(`/api/posts/${postId}`)).json().poll;

    it("a member's poll goes out as a Question; carol's vote counts, once; its end sends the final counts", async () => {
      const { user: alice, client } = await member('alice');
      await carolFollows(alice.id);
      const postId = await pollPost(client, false);
      const [create] = await sent();
      expect(create?.json).toMatchObject({
        type: 'Create',
        object: {
          type: 'Question',
          content: '<p>Which bird?</p>',
          oneOf: [
            { type: 'Note', name: 'Heron', replies: { type: 'Collection', totalItems: 0 } },
            { type: 'Note', name: 'Swift' },
            { type: 'Note', name: 'Wren' },
          ],
          endTime: expect.any(String),
          votersCount: 0,
        },
      });
      await fromCarol(voteNote(postId, 'Swift'));
      expect(await countsOf(client, postId)).toMatchObject({
        votersCount: 1,
        options: [{ votesCount: 0 }, { votesCount: 1 }, { votesCount: 0 }],
      });
      // A second vote in a single-choice poll, and a vote for no option: nothing changes.
      await fromCarol(voteNote(postId, 'Heron'));
      await fromCarol(voteNote(postId, 'Eagle'));
      expect(await countsOf(client, postId)).toMatchObject({ votersCount: 1, votesCount: 1 });

      // It ends: the Question again, closed, with its counts.
      await ctx.db.db.execute(sql`update polls set expires_at = now() - interval '1 second' where post_id = ${postId}`);
      await ctx.db.db.execute(sql`update timed_jobs set run_at = now() - interval '1 second' where key = ${postId}`);
      await ctx.app.services.timedJobs.runDue();
      const [update] = await sent();
      expect(update?.json).toMatchObject({
        type: 'Update',
        object: {
          type: 'Question',
          closed: expect.any(String),
          votersCount: 1,
          oneOf: [{ name: 'Heron' }, { name: 'Swift', replies: { totalItems: 1 } }, { name: 'Wren' }],
        },
      });
      // Ended: a vote that comes now is refused.
      const { client: bobClient } = await member('bob');
      expect((await bobClient.post(`/api/posts/${postId}/poll/votes`, { choices: [0] })).json()).toMatchObject({
        code: 'POLL_ENDED',
      });
    });

    it('a poll of several choices: anyOf; each of carol’s choices arrives on its own and adds to her one vote', async () => {
      const { user: alice, client } = await member('alice');
      await carolFollows(alice.id);
      const postId = await pollPost(client, true);
      const [create] = await sent();
      expect(create?.json).toMatchObject({ object: { type: 'Question', anyOf: [{ name: 'Heron' }, {}, {}] } });
      await fromCarol(voteNote(postId, 'Heron'));
      await fromCarol(voteNote(postId, 'Wren'));
      await fromCarol(voteNote(postId, 'Wren'));
      expect(await countsOf(client, postId)).toMatchObject({
        votersCount: 1,
        votesCount: 2,
        options: [{ votesCount: 1 }, { votesCount: 0 }, { votesCount: 1 }],
      });
    });
  });

  describe('polls from elsewhere', () => {
    /** A time as Fedify's vocabulary takes one (the polyfill's Temporal.Instant, typed as the standard's). */
    const instant = (ms: number) =>
      Temporal.Instant.fromEpochMilliseconds(ms) as unknown as NonNullable<
        ConstructorParameters<typeof Question>[0]['endTime']
      >;
    const question = (id: URL, counts: number[], extra: Partial<ConstructorParameters<typeof Question>[0]> = {}) =>
      new Question({
        id,
        attribution: peer.actorId,
        content: '<p>Tea or coffee?</p>',
        to: PUBLIC_COLLECTION,
        exclusiveOptions: ['Tea', 'Coffee'].map(
          (name, i) => new Note({ name, replies: new Collection({ totalItems: counts[i] ?? 0 }) }),
        ),
        endTime: instant(Date.now() + 3_600_000),
        voters: counts.reduce((a, b) => a + b, 0),
        ...extra,
      });

    it("carol's poll is kept with its counts; a member's vote goes to her server; her Update brings the new counts", async () => {
      const { user: alice, client } = await member('alice');
      await followCarol(client);
      const id = carolsId('question');
      await fromCarol(new Create({ id: carolsId('create'), actor: peer.actorId, object: question(id, [3, 1]) }));
      const [row] = await ctx.db.db.select({ id: posts.id }).from(posts).where(eq(posts.uri, id.href));
      const postId = String(row?.id);
      expect((await client.get(`/api/posts/${postId}`)).json()).toMatchObject({
        text: 'Tea or coffee?',
        poll: {
          multiple: false,
          votersCount: 4,
          options: [
            { title: 'Tea', votesCount: 3 },
            { title: 'Coffee', votesCount: 1 },
          ],
        },
      });
      // Alice votes: her vote goes to carol's server as Mastodon sends one.
      expect((await client.post(`/api/posts/${postId}/poll/votes`, { choices: [1] })).statusCode).toBe(200);
      const [vote] = await sent();
      expect(vote?.url).toBe('/users/carol/inbox');
      expect(vote?.json).toMatchObject({
        type: 'Create',
        actor: memberUrl(alice.id).href,
        object: { type: 'Note', name: 'Coffee', inReplyTo: id.href, attributedTo: memberUrl(alice.id).href },
      });
      expect(await peer.signerOf(ctx.app, vote as Delivery)).toBe(memberUrl(alice.id).href);
      // Her server counted it: its Update is what Pipit shows.
      await fromCarol(new Update({ id: carolsId('update'), actor: peer.actorId, object: question(id, [3, 2]) }));
      expect((await client.get(`/api/posts/${postId}`)).json().poll).toMatchObject({
        votersCount: 5,
        options: [{ votesCount: 3 }, { votesCount: 2 }],
      });
    });

    it('a poll that has closed takes no vote', async () => {
      const { client } = await member('alice');
      await followCarol(client);
      const id = carolsId('question');
      const ended = instant(Date.now() - 3_600_000);
      const closed = question(id, [1, 1], { endTime: ended, closed: ended });
      await fromCarol(new Create({ id: carolsId('create'), actor: peer.actorId, object: closed }));
      const [row] = await ctx.db.db.select({ id: posts.id }).from(posts).where(eq(posts.uri, id.href));
      const res = await client.post(`/api/posts/${row?.id}/poll/votes`, { choices: [0] });
      expect(res.json()).toMatchObject({ code: 'POLL_ENDED' });
      expect(await sent()).toEqual([]);
    });
  });

  describe('quotes', () => {
    it("a member's quote names the quoted note (quote, quoteUrl) with the RE: fallback for servers that show no quotes", async () => {
      const { user: alice, client } = await member('alice');
      await carolFollows(alice.id);
      const { client: bobClient } = await member('bob');
      const bobs = await write(bobClient, { text: 'Worth quoting' });
      const quote = await client.post('/api/posts', { text: 'So true', quoteOfId: bobs });
      expect(quote.statusCode, quote.body).toBe(201);
      const [create] = await sent();
      const quoted = postUrl(bobs).href;
      expect(create?.json).toMatchObject({
        type: 'Create',
        object: { quote: quoted, quoteUrl: quoted, _misskey_quote: quoted, quoteUri: quoted },
      });
      const content = (create?.json.object as { content?: string } | undefined)?.content;
      expect(content).toBe(`<p>So true</p><p class="quote-inline">RE: <a href="${quoted}">${quoted}</a></p>`);
    });

    it("carol's quote of a member's post is a quote here, notified; one its quote policy refuses keeps the link", async () => {
      const { client } = await member('alice');
      await followCarol(client);
      const open = await write(client, { text: 'Quote me' });
      const closed = await write(client, { text: 'Do not quote me', quotePolicy: 'nobody' });
      const quoting = (target: string, words: string) =>
        new Note({
          id: carolsId('note'),
          attribution: peer.actorId,
          content: `<p>${words}</p><p class="quote-inline">RE: <a href="${postUrl(target).href}">${postUrl(target).href}</a></p>`,
          to: PUBLIC_COLLECTION,
          quote: postUrl(target),
          quoteUrl: postUrl(target),
        });
      const first = quoting(open, 'Agreed');
      await fromCarol(
        new Create({ id: carolsId('create'), actor: peer.actorId, object: first, to: PUBLIC_COLLECTION }),
      );
      const [row] = await ctx.db.db
        .select()
        .from(posts)
        .where(eq(posts.uri, first.id?.href ?? ''));
      expect(row).toMatchObject({ text: 'Agreed', quoteOfId: Number(open) });
      expect((await client.get('/api/notifications')).json().items[0]).toMatchObject({
        type: 'quote',
        actor: { username: 'carol' },
      });
      const second = quoting(closed, 'Ha');
      await fromCarol(
        new Create({ id: carolsId('create'), actor: peer.actorId, object: second, to: PUBLIC_COLLECTION }),
      );
      const [kept] = await ctx.db.db
        .select()
        .from(posts)
        .where(eq(posts.uri, second.id?.href ?? ''));
      expect(kept).toMatchObject({ text: `Ha\n\nRE: ${postUrl(closed).href}`, quoteOfId: null });
    });

    it("carol's quote of a note Pipit does not have fetches it from her server", async () => {
      const { client } = await member('alice');
      await followCarol(client);
      const old = await noteOnPeer('The original');
      const quotingNote = new Note({
        id: carolsId('note'),
        attribution: peer.actorId,
        content: '<p>Still true</p>',
        to: PUBLIC_COLLECTION,
        quoteUrl: old.id,
      });
      await fromCarol(
        new Create({ id: carolsId('create'), actor: peer.actorId, object: quotingNote, to: PUBLIC_COLLECTION }),
      );
      const [original] = await ctx.db.db
        .select()
        .from(posts)
        .where(eq(posts.uri, old.id?.href ?? ''));
      const [quoting] = await ctx.db.db
        .select()
        .from(posts)
        .where(eq(posts.uri, quotingNote.id?.href ?? ''));
      expect(original).toMatchObject({ text: 'The original' });
      expect(quoting).toMatchObject({ text: 'Still true', quoteOfId: original?.id });
    });
  });

  describe('likes', () => {
    it("carol's like of a member's post counts and notifies; her Undo takes it back", async () => {
      const { client } = await member('alice');
      const postId = await write(client, { text: 'Swifts are back' });
      const like = new Like({ id: carolsId('like'), actor: peer.actorId, object: postUrl(postId) });
      await fromCarol(like);
      expect((await client.get(`/api/posts/${postId}`)).json()).toMatchObject({ likeCount: 1 });
      const notes = (await client.get('/api/notifications')).json().items;
      expect(notes).toMatchObject([{ type: 'like', actor: { username: 'carol' }, post: { id: postId } }]);
      // The same Like again (a retry, or twice): one like.
      await fromCarol(new Like({ id: carolsId('like'), actor: peer.actorId, object: postUrl(postId) }));
      expect((await client.get(`/api/posts/${postId}`)).json().likeCount).toBe(1);

      await fromCarol(new Undo({ id: carolsId('undo'), actor: peer.actorId, object: like }));
      expect((await client.get(`/api/posts/${postId}`)).json().likeCount).toBe(0);
      expect((await client.get('/api/notifications')).json().items).toEqual([]);
      expect(
        await ctx.db.db
          .select()
          .from(likes)
          .where(eq(likes.postId, Number(postId))),
      ).toEqual([]);
    });

    it("a like of a post carol may not see is refused; an Undo of someone else's like changes nothing", async () => {
      const { client } = await member('alice');
      const { client: bobClient } = await member('bob');
      const hidden = await write(client, { text: 'For my followers', visibility: 'followers' });
      await fromCarol(new Like({ id: carolsId('like'), actor: peer.actorId, object: postUrl(hidden) }));
      expect(await ctx.db.db.select().from(likes)).toEqual([]);

      const open = await write(client, { text: 'For all' });
      expect((await bobClient.put(`/api/posts/${open}/like`)).statusCode).toBe(200);
      // Carol's Undo of a Like that names bob as its actor: not hers, refused.
      const bobs = new Like({ id: carolsId('like'), actor: memberUrl(2), object: postUrl(open) });
      await fromCarol(new Undo({ id: carolsId('undo'), actor: peer.actorId, object: bobs }));
      expect((await client.get(`/api/posts/${open}`)).json().likeCount).toBe(1);
    });

    it("a member's like of carol's note: a signed Like to her inbox; unliking: an Undo of that Like", async () => {
      const { user: alice, client } = await member('alice');
      await followCarol(client);
      const note = await carolsNote('Dusk over the marsh');
      expect((await client.put(`/api/posts/${note.id}/like`)).statusCode).toBe(200);
      const [like] = await sent();
      expect(like?.url).toBe('/users/carol/inbox');
      expect(like?.json).toMatchObject({ type: 'Like', actor: memberUrl(alice.id).href, object: note.uri.href });
      expect(await peer.signerOf(ctx.app, like as Delivery)).toBe(memberUrl(alice.id).href);

      expect((await client.delete(`/api/posts/${note.id}/like`)).statusCode).toBe(200);
      const [undo] = await sent();
      expect(undo?.json).toMatchObject({
        type: 'Undo',
        actor: memberUrl(alice.id).href,
        object: { type: 'Like', id: like?.json.id, object: note.uri.href },
      });
      // A like of a member's post stays here: nothing is sent.
      const own = await write(client, { text: 'Mine' });
      await client.put(`/api/posts/${own}/like`);
      expect(await sent()).toEqual([]);
    });
  });

  describe('reposts', () => {
    it("carol's Announce of a member's post is her repost, counted and notified; her Undo takes it back", async () => {
      const { client } = await member('alice');
      const postId = await write(client, { text: 'Worth sharing' });
      const announce = new Announce({
        id: carolsId('announce'),
        actor: peer.actorId,
        object: postUrl(postId),
        to: PUBLIC_COLLECTION,
      });
      await fromCarol(announce);
      expect((await client.get(`/api/posts/${postId}`)).json().repostCount).toBe(1);
      expect((await client.get('/api/notifications')).json().items).toMatchObject([
        { type: 'repost', actor: { username: 'carol' } },
      ]);
      await fromCarol(new Undo({ id: carolsId('undo'), actor: peer.actorId, object: announce }));
      expect((await client.get(`/api/posts/${postId}`)).json().repostCount).toBe(0);
      expect((await client.get('/api/notifications')).json().items).toEqual([]);
    });

    it("carol's repost of a note kept here reaches her followers' Home; of one unknown here, or by someone nobody follows, nothing", async () => {
      const { client: aliceClient } = await member('alice');
      const { client: bobClient } = await member('bob');
      const bobsPost = await write(bobClient, { text: 'Bob on herons' });
      // Her repost of a note Pipit does not have, while nobody here follows her: not even asked for.
      const old = await noteOnPeer('An old note');
      await fromCarol(
        new Announce({ id: carolsId('announce'), actor: peer.actorId, object: old.id, to: PUBLIC_COLLECTION }),
      );
      expect(peer.fetched.get((old.id as URL).pathname)).toBeUndefined();
      // Nobody here follows carol yet: her repost of bob's post is still bob's to hear of (a member's post).
      await fromCarol(
        new Announce({
          id: carolsId('announce'),
          actor: peer.actorId,
          object: postUrl(bobsPost),
          to: PUBLIC_COLLECTION,
        }),
      );
      expect((await bobClient.get(`/api/posts/${bobsPost}`)).json().repostCount).toBe(1);

      await followCarol(aliceClient);
      const note = await carolsNote('A heron, again');
      // A repost of her own note: alice's Home shows it (once: the note and the repost are one entry).
      await fromCarol(
        new Announce({ id: carolsId('announce'), actor: peer.actorId, object: note.uri, to: PUBLIC_COLLECTION }),
      );
      expect((await aliceClient.get(`/api/posts/${note.id}`)).json().repostCount).toBe(1);
      // Once she is followed, her repost of a note not kept here fetches it from her server: kept, reposted.
      await fromCarol(
        new Announce({ id: carolsId('announce'), actor: peer.actorId, object: old.id, to: PUBLIC_COLLECTION }),
      );
      const [kept] = await ctx.db.db
        .select()
        .from(posts)
        .where(eq(posts.uri, (old.id as URL).href));
      expect(kept).toMatchObject({ text: 'An old note', repostCount: 1, visibility: 'public' });
      // A note nobody here has, that her server does not serve either: asked for (a signed fetch, knocked twice
      // when refused: two signature forms), nothing kept.
      const unknown = new URL('/notes/unknown', peer.origin);
      await fromCarol(
        new Announce({ id: carolsId('announce'), actor: peer.actorId, object: unknown, to: PUBLIC_COLLECTION }),
      );
      expect(peer.fetched.get('/notes/unknown')).toBeGreaterThanOrEqual(1);
      expect(await ctx.db.db.select().from(posts).where(eq(posts.uri, unknown.href))).toEqual([]);
    });

    it("a member's repost: an Announce to her followers elsewhere and the author elsewhere; unreposting: its Undo", async () => {
      const { user: alice, client } = await member('alice');
      await followCarol(client);
      const note = await carolsNote('Share me');
      expect((await client.put(`/api/posts/${note.id}/repost`)).statusCode).toBe(200);
      const [announce] = await sent();
      expect(announce?.json).toMatchObject({
        type: 'Announce',
        actor: memberUrl(alice.id).href,
        object: note.uri.href,
        to: 'https://www.w3.org/ns/activitystreams#Public',
      });
      expect(await peer.signerOf(ctx.app, announce as Delivery)).toBe(memberUrl(alice.id).href);
      expect((await client.delete(`/api/posts/${note.id}/repost`)).statusCode).toBe(200);
      const [undo] = await sent();
      expect(undo?.json).toMatchObject({ type: 'Undo', object: { type: 'Announce', id: announce?.json.id } });

      // Her repost of her own post reaches carol as her follower, naming the post by its URL here.
      await carolFollows(alice.id);
      const own = await write(client, { text: 'My own' });
      await sent();
      await client.put(`/api/posts/${own}/repost`);
      const [mine] = await sent();
      expect(mine?.json).toMatchObject({ type: 'Announce', object: postUrl(own).href });
    });
  });

  describe('blocks', () => {
    it("carol's Block of a member ends the follows both ways; her Undo lifts it (no follow comes back)", async () => {
      const { user: alice, client } = await member('alice');
      const carolId = await followCarol(client);
      await carolFollows(alice.id);
      const block = new Block({ id: carolsId('block'), actor: peer.actorId, object: memberUrl(alice.id) });
      await fromCarol(block);
      expect(await ctx.db.db.select().from(follows)).toEqual([]);
      const [row] = await ctx.db.db.select().from(users).where(eq(users.id, alice.id));
      expect(row).toMatchObject({ followersCount: 0, followingCount: 0 });
      // Across the block alice cannot follow her again (as a member's block would do); nothing is sent.
      expect((await client.put(`/api/users/${carolId}/follow`)).json()).toMatchObject({ code: 'FORBIDDEN' });
      expect(await sent()).toEqual([]);

      await fromCarol(new Undo({ id: carolsId('undo'), actor: peer.actorId, object: block }));
      expect((await client.get(`/api/users/${carolId}`)).json()).toMatchObject({ isFollowing: false });
      // Lifted: she may follow again (a Follow goes to carol's server).
      expect((await client.put(`/api/users/${carolId}/follow`)).statusCode).toBe(200);
      expect((await sent()).map((d) => d.json.type)).toEqual(['Follow']);
    });

    it("a member's block of carol: a Block to her inbox; unblocking: an Undo of it", async () => {
      const { user: alice, client } = await member('alice');
      const carolId = await followCarol(client);
      expect((await client.put(`/api/users/${carolId}/block`)).statusCode).toBe(200);
      const [block] = await sent();
      expect(block?.json).toMatchObject({
        type: 'Block',
        actor: memberUrl(alice.id).href,
        object: peer.actorId.href,
      });
      expect(await peer.signerOf(ctx.app, block as Delivery)).toBe(memberUrl(alice.id).href);
      expect((await client.delete(`/api/users/${carolId}/block`)).statusCode).toBe(200);
      const [undo] = await sent();
      expect(undo?.json).toMatchObject({ type: 'Undo', object: { type: 'Block', id: block?.json.id } });
    });
  });

  describe('profiles', () => {
    it("a member's profile edit: an Update of her actor to her followers elsewhere", async () => {
      const { user: alice, client } = await member('alice');
      await carolFollows(alice.id);
      expect((await client.patch('/api/edit', { name: 'Alice Heron', bio: 'Birds <3' })).statusCode).toBe(200);
      const [update] = await sent();
      expect(update?.url).toBe('/inbox');
      expect(update?.json).toMatchObject({
        type: 'Update',
        actor: memberUrl(alice.id).href,
        object: { type: 'Person', id: memberUrl(alice.id).href, name: 'Alice Heron', summary: '<p>Birds &lt;3</p>' },
      });
      expect(await peer.signerOf(ctx.app, update as Delivery)).toBe(memberUrl(alice.id).href);
    });

    it("carol's Update of herself refreshes her here; an Update of someone else's actor changes nothing", async () => {
      const { client } = await member('alice');
      const carolId = await followCarol(client);
      const before = (await client.get(`/api/users/${carolId}`)).json().profileImage;
      expect(before).toMatch(/^\/media\//);
      peer.files.set('/avatars/carol-2.png', { type: 'image/png', body: await photo(300, 300, 'png') });
      const renamed = new Person({
        id: peer.actorId,
        preferredUsername: 'carol',
        name: 'Carol Marsh',
        icon: new Image({ url: new URL('/avatars/carol-2.png', peer.origin) }),
        summary: '<p>Now <i>on</i> the marsh</p>',
        inbox: new URL('/users/carol/inbox', peer.origin),
        manuallyApprovesFollowers: true,
      });
      await fromCarol(new Update({ id: carolsId('update'), actor: peer.actorId, object: renamed }));
      const refreshed = (await client.get(`/api/users/${carolId}`)).json();
      expect(refreshed).toMatchObject({ name: 'Carol Marsh', bio: 'Now on the marsh', locked: true });
      // A new avatar: a new copy, the old one's file collected.
      expect(refreshed.profileImage).toMatch(/^\/media\//);
      expect(refreshed.profileImage).not.toBe(before);
      expect((await ctx.app.inject({ url: before })).statusCode).toBe(404);
      // Her server speaking for an actor that is not hers: refused.
      const { user: bob } = await member('bob');
      const impostor = new Person({
        id: memberUrl(bob.id),
        preferredUsername: 'bob',
        name: 'Not Bob',
        inbox: new URL('/users/carol/inbox', peer.origin),
      });
      await fromCarol(new Update({ id: carolsId('update'), actor: peer.actorId, object: impostor }));
      expect((await client.get(`/api/users/${bob.id}`)).json().name).toBe('Bob');
    });
  });

  describe('reports', () => {
    it("a member's report of carol's note, forwarded: a Flag from this server to hers, naming her and the note, never the reporter", async () => {
      const { user: alice, client } = await member('alice');
      await followCarol(client);
      const note = await carolsNote('Buy followers here');
      const res = await client.post(`/api/posts/${note.id}/report`, {
        category: 'spam',
        comment: 'Selling followers',
        forward: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ forwarded: true, status: 'open' });
      const [flag] = await sent();
      expect(flag?.json).toMatchObject({
        type: 'Flag',
        actor: new URL('/users/instance', ORIGIN).href,
        object: [peer.actorId.href, note.uri.href],
        content: 'Selling followers',
      });
      expect(flag?.body).not.toContain(`/users/${alice.id}`);
      expect(await peer.signerOf(ctx.app, flag as Delivery)).toBe(new URL('/users/instance', ORIGIN).href);
      // Not asked: nothing is sent (the report stays here).
      const other = await carolsNote('Another');
      expect((await client.post(`/api/posts/${other.id}/report`, { category: 'spam' })).json().forwarded).toBe(false);
      expect(await sent()).toEqual([]);
      // A member's post has no other server: forwarding it is refused, and nothing is filed.
      const { client: bobClient } = await member('bob');
      const bobs = await write(bobClient, { text: 'Hi' });
      const refused = await client.post(`/api/posts/${bobs}/report`, { category: 'spam', forward: true });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'forward' });
      expect((await client.get('/api/reports')).json().items).toHaveLength(2);
    });

    it("a Flag from carol's server: a report of the member's post, by her, for moderators to read", async () => {
      const { user: alice, client } = await member('alice');
      const postId = await write(client, { text: 'Reported elsewhere' });
      await fromCarol(
        new Flag({
          id: carolsId('flag'),
          actor: peer.actorId,
          objects: [memberUrl(alice.id), postUrl(postId)],
          content: 'Forwarded from carol’s server',
        }),
      );
      const mod = await insertUser(ctx.db, { username: 'mo', role: 'moderator' });
      const queue = (await (await new TestClient(ctx).signInAs(mod.id)).get('/api/moderation/reports')).json().items;
      expect(queue).toMatchObject([
        {
          category: 'other',
          comment: 'Forwarded from carol’s server',
          reporter: { username: 'carol' },
          subject: { user: { id: String(alice.id) }, postId },
        },
      ]);
    });
  });

  describe('deleted accounts', () => {
    it("a member's account deletion: a Delete of her actor, signed with her key, reaches her followers elsewhere", async () => {
      const { user: alice, client } = await member('alice');
      await carolFollows(alice.id);
      // Her key as carol's server knew it before she went (her actor answers 404 after).
      const actorDoc = (
        await ctx.app.inject({ url: `/users/${alice.id}`, headers: { accept: 'application/activity+json' } })
      ).json();
      expect((await client.delete('/api/account', { payload: { password: 'correct horse battery' } })).statusCode).toBe(
        204,
      );
      const [del] = await sent();
      expect(del?.json).toMatchObject({
        type: 'Delete',
        actor: memberUrl(alice.id).href,
        object: memberUrl(alice.id).href,
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(del?.headers ?? {})) {
        if (typeof value === 'string') headers.set(name, value);
      }
      const key = await verifyRequest(
        new Request(`${peer.origin}${del?.url}`, { method: 'POST', headers, body: del?.body ?? '' }),
        { documentLoader: async (url) => ({ contextUrl: null, documentUrl: url, document: actorDoc }) },
      );
      expect(key?.ownerId?.href).toBe(memberUrl(alice.id).href);
    });

    it("carol's Delete of herself: her posts, likes, reposts and follows here go, with the counts", async () => {
      const { user: alice, client } = await member('alice');
      const carolId = await followCarol(client);
      await carolFollows(alice.id);
      const mine = await write(client, { text: 'Liked and shared' });
      await fromCarol(new Like({ id: carolsId('like'), actor: peer.actorId, object: postUrl(mine) }));
      await fromCarol(
        new Announce({ id: carolsId('announce'), actor: peer.actorId, object: postUrl(mine), to: PUBLIC_COLLECTION }),
      );
      await carolsNote('Going away');
      await fromCarol(
        new Delete({ id: carolsId('delete'), actor: peer.actorId, object: peer.actorId, to: PUBLIC_COLLECTION }),
      );
      expect(await ctx.db.db.select().from(users).where(eq(users.id, carolId))).toEqual([]);
      expect(await ctx.db.db.select().from(posts).where(eq(posts.authorId, carolId))).toEqual([]);
      expect((await client.get(`/api/posts/${mine}`)).json()).toMatchObject({ likeCount: 0, repostCount: 0 });
      const [row] = await ctx.db.db.select().from(users).where(eq(users.id, alice.id));
      expect(row).toMatchObject({ followersCount: 0, followingCount: 0 });
      expect((await client.get('/api/timeline/following')).json().items.map((p: { text: string }) => p.text)).toEqual([
        'Liked and shared',
      ]);
    });

    it('an unverifiable Delete of her: she is forgotten only when her server says she is gone', async () => {
      const { client } = await member('alice');
      const carolId = await followCarol(client);
      const del = await new Delete({
        id: carolsId('delete'),
        actor: peer.actorId,
        object: peer.actorId,
        to: PUBLIC_COLLECTION,
      }).toJsonLd();
      // Unsigned while her actor is still served: refused, nothing goes.
      const refused = await peer.deliver(ctx.app, ORIGIN, '/inbox', del, { unsigned: true });
      expect(refused.statusCode).toBe(401);
      expect(await ctx.db.db.select().from(users).where(eq(users.id, carolId))).toHaveLength(1);
      // Her account gone (her actor 410, her key with it): the Delete cannot be verified (its key, never seen
      // here, cannot be fetched), her server confirms she is gone.
      peer.gone = true;
      const keyId = new URL('/users/carol#key-2', peer.origin);
      const accepted = await peer.deliver(ctx.app, ORIGIN, '/inbox', del, { keyId });
      expect(accepted.statusCode).toBe(202);
      expect(await ctx.db.db.select().from(users).where(eq(users.id, carolId))).toEqual([]);
    });
  });
});
