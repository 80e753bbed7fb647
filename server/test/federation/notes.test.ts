import { Create, Delete, Document, Mention, Note, PUBLIC_COLLECTION, Tombstone, Update } from '@fedify/vocab';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema.ts';
import { authorizeApp, type TestClient } from '../helpers/app.ts';
import { imageUpload } from '../helpers/multipart.ts';
import { photo } from '../media/fixtures.ts';
import { type Delivery, ORIGIN, Peer, useFederatedApp, withCarol } from './peer.ts';

/**
 * Notes both ways (modules/federation: outgoing.ts sendNote, incoming.ts): a member's posts, edits and
 * deletes reach her followers elsewhere, addressed by visibility; a remote person's notes are stored as
 * their posts (text reduced to text, visibility never wider than addressed) and shown where a member's
 * would be. The other server is a Peer (peer.ts) on 127.0.0.1; the queue is run by hand.
 */
/** The public collection, as deliveries spell it (in full, for servers that do not expand JSON-LD). */
const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('notes', () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await Peer.start();
  });
  afterAll(() => peer.close());

  const fed = useFederatedApp();
  const { ctx } = fed;
  const { runQueue, member, carolFollows, followCarol } = withCarol(fed, () => peer);

  /** Posts as `client`, runs the queue, and answers what reached the peer (nothing: an empty list). */
  async function postAndDeliver(client: TestClient, body: Record<string, unknown>) {
    const res = await client.post('/api/posts', body);
    expect(res.statusCode, res.body).toBe(201);
    const before = peer.received.length;
    await runQueue();
    return { post: res.json(), deliveries: peer.received.slice(before) };
  }

  describe("a member's posts, to her followers elsewhere", () => {
    it('public: a signed Create(Note) to the shared inbox, to everyone with followers in cc, CW and tags', async () => {
      const { user: alice, client } = await member('alice');
      await carolFollows(alice.id);
      const { post, deliveries } = await postAndDeliver(client, {
        text: 'Hello #Fediverse world',
        spoilerText: 'greetings',
      });
      expect(deliveries).toHaveLength(1);
      const [create] = deliveries as [Delivery];
      expect(create.url).toBe('/inbox');
      expect(await peer.signerOf(ctx.app, create)).toBe(`${ORIGIN}/users/${alice.id}`);
      const me = `${ORIGIN}/users/${alice.id}`;
      expect(create.json).toMatchObject({
        type: 'Create',
        actor: me,
        to: AS_PUBLIC,
        cc: `${me}/followers`,
        object: {
          type: 'Note',
          id: `${ORIGIN}/posts/${post.id}`,
          attributedTo: me,
          content: '<p>Hello #Fediverse world</p>',
          summary: 'greetings',
          sensitive: true,
          to: AS_PUBLIC,
          cc: `${me}/followers`,
          tag: { type: 'Hashtag', name: '#fediverse', href: `${ORIGIN}/hashtag/fediverse` },
        },
      });
    });

    it('unlisted, followers-only and direct are addressed as Mastodon does; direct reaches only whom it names', async () => {
      const { user: alice, client } = await member('alice');
      await carolFollows(alice.id);
      const me = `${ORIGIN}/users/${alice.id}`;
      const unlisted = (await postAndDeliver(client, { text: 'quiet', visibility: 'unlisted' })).deliveries;
      expect(unlisted[0]?.json).toMatchObject({ to: `${me}/followers`, cc: AS_PUBLIC });
      const followers = (await postAndDeliver(client, { text: 'friends', visibility: 'followers' })).deliveries;
      expect(followers[0]?.json).toMatchObject({ to: `${me}/followers` });
      expect(followers[0]?.json).not.toHaveProperty('cc');
      // A direct post naming nobody elsewhere goes nowhere.
      expect((await postAndDeliver(client, { text: 'note to self', visibility: 'direct' })).deliveries).toEqual([]);
      const direct = (await postAndDeliver(client, { text: `psst @carol@${peer.host}`, visibility: 'direct' }))
        .deliveries;
      expect(direct).toHaveLength(1);
      expect(direct[0]?.json).toMatchObject({
        to: peer.actorId.href,
        object: {
          to: peer.actorId.href,
          tag: { type: 'Mention', href: peer.actorId.href, name: `@carol@${peer.host}` },
        },
      });
      expect(direct[0]?.json).not.toHaveProperty('cc');
    });

    it('a post’s images go with it: each a Document at its address here, its alt text the name', async () => {
      const { user: alice, client } = await member('alice');
      await carolFollows(alice.id);
      const upload = await client.upload(imageUpload(await photo(800, 600), 'Two swifts'));
      expect(upload.statusCode, upload.body).toBe(201);
      const image = upload.json();
      const { deliveries } = await postAndDeliver(client, { text: 'Look', media: [{ id: image.id }] });
      expect(deliveries[0]?.json).toMatchObject({
        type: 'Create',
        object: {
          attachment: [
            {
              type: 'Document',
              mediaType: 'image/jpeg',
              url: `${ORIGIN}${image.url}`,
              name: 'Two swifts',
              width: 800,
              height: 600,
            },
          ],
        },
      });
      // What the note's address answers carries it too.
      const noteId = (deliveries[0]?.json.object as { id?: string } | undefined)?.id ?? '';
      const fetched = await ctx.app.inject({
        url: new URL(noteId).pathname,
        headers: { accept: 'application/activity+json' },
      });
      // (One attachment is compacted to an object there, as JSON-LD allows.)
      expect(fetched.json().attachment).toMatchObject({ url: `${ORIGIN}${image.url}`, name: 'Two swifts' });
      // Served where it says.
      expect((await ctx.app.inject({ url: image.url })).statusCode).toBe(200);
    });

    it('nothing is sent for a post nobody elsewhere may read', async () => {
      const { client } = await member('alice');
      expect((await postAndDeliver(client, { text: 'hello, locals' })).deliveries).toEqual([]);
    });

    it('an edit is an Update(Note), a delete a Delete of its Tombstone', async () => {
      const { user: alice, client } = await member('alice');
      await carolFollows(alice.id);
      const { post } = await postAndDeliver(client, { text: 'first words' });
      expect((await client.patch(`/api/posts/${post.id}`, { text: 'second words' })).statusCode).toBe(200);
      let before = peer.received.length;
      await runQueue();
      expect(peer.received.slice(before).map((d) => d.json)).toEqual([
        expect.objectContaining({
          type: 'Update',
          object: expect.objectContaining({ content: '<p>second words</p>', updated: expect.any(String) }),
        }),
      ]);
      expect((await client.delete(`/api/posts/${post.id}`)).statusCode).toBe(204);
      before = peer.received.length;
      await runQueue();
      expect(peer.received.slice(before).map((d) => d.json)).toEqual([
        expect.objectContaining({
          type: 'Delete',
          object: { type: 'Tombstone', id: `${ORIGIN}/posts/${post.id}` },
        }),
      ]);
    });
  });

  describe("carol's notes, here", () => {
    const noteId = (n: string) => new URL(`/notes/${n}`, peer.origin);
    const createOf = async (note: Note, n: string) =>
      new Create({
        id: new URL(`/activities/create-${n}`, peer.origin),
        actor: peer.actorId,
        object: note,
        tos: note.toIds,
        ccs: note.ccIds,
      }).toJsonLd();
    const publicNote = (n: string, content: string, extra: Partial<ConstructorParameters<typeof Note>[0]> = {}) =>
      new Note({
        id: noteId(n),
        attribution: peer.actorId,
        content,
        to: PUBLIC_COLLECTION,
        ccs: [new URL('/users/carol/followers', peer.origin)],
        ...extra,
      });
    const stored = () =>
      ctx.db.db
        .select()
        .from(posts)
        .where(eq(posts.uri, noteId('1').href));

    it('from someone a member follows: her post, text only, in Home and on the Mastodon API', async () => {
      const { user: alice, client } = await member('alice');
      const carolId = await followCarol(client);
      const note = publicNote('1', '<p>Hi <b>all</b><script>steal()</script> <img src=x onerror=alert(1)></p>', {
        summary: 'long',
        sensitive: true,
      });
      expect((await peer.deliver(ctx.app, ORIGIN, '/inbox', await createOf(note, '1'))).statusCode).toBe(202);
      await runQueue();
      const [row] = await stored();
      expect(row).toMatchObject({
        authorId: carolId,
        text: 'Hi all',
        spoilerText: 'long',
        sensitive: true,
        visibility: 'public',
        uri: noteId('1').href,
      });
      const home = (await client.get('/api/timeline/following')).json();
      // Her byline names her server (the web shows @carol@host).
      expect(home.items[0]).toMatchObject({
        text: 'Hi all',
        author: { id: String(carolId), username: 'carol', domain: peer.host },
      });
      const { token } = await authorizeApp(ctx.app, alice.id);
      const statuses = await ctx.app.inject({
        url: '/api/v1/timelines/home',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(statuses.json()[0]).toMatchObject({
        content: '<p>Hi all</p>',
        spoiler_text: 'long',
        account: { acct: `carol@${peer.host}` },
      });

      // The same Create again (a retry): one post.
      await peer.deliver(ctx.app, ORIGIN, '/inbox', await createOf(note, '1-again'));
      await runQueue();
      expect(await stored()).toHaveLength(1);
    });

    it('replies thread under the member’s post and notify her; mentions notify; Update and Delete follow', async () => {
      const { user: alice, client } = await member('alice');
      await followCarol(client);
      const parent = (await client.post('/api/posts', { text: 'what do you think?' })).json();
      await runQueue();
      const reply = publicNote('1', '<p>I agree</p>', { replyTarget: new URL(`/posts/${parent.id}`, ORIGIN) });
      await peer.deliver(ctx.app, ORIGIN, '/inbox', await createOf(reply, 'r1'));
      await runQueue();
      const replies = (await client.get(`/api/posts/${parent.id}/replies`)).json();
      expect(replies.items.map((p: { text: string }) => p.text)).toEqual(['I agree']);
      const notifications = (await client.get('/api/notifications')).json();
      expect(notifications.items[0]).toMatchObject({ type: 'reply', actor: { username: 'carol' } });

      const update = new Update({
        id: new URL('/activities/update-1', peer.origin),
        actor: peer.actorId,
        object: publicNote('1', '<p>I agree, mostly</p>', { replyTarget: new URL(`/posts/${parent.id}`, ORIGIN) }),
      });
      await peer.deliver(ctx.app, ORIGIN, '/inbox', await update.toJsonLd());
      await runQueue();
      expect((await stored())[0]?.text).toBe('I agree, mostly');

      const del = new Delete({
        id: new URL('/activities/delete-1', peer.origin),
        actor: peer.actorId,
        object: new Tombstone({ id: noteId('1') }),
      });
      await peer.deliver(ctx.app, ORIGIN, '/inbox', await del.toJsonLd());
      await runQueue();
      expect(await stored()).toEqual([]);
      void alice;
    });

    it('from someone nobody follows: dropped, unless it names a member (then direct, hers alone)', async () => {
      const { user: alice, client } = await member('alice');
      const { client: bob } = await member('bob');
      // Carol is known (she followed alice) but followed by nobody here.
      await carolFollows(alice.id);
      await peer.deliver(ctx.app, ORIGIN, '/inbox', await createOf(publicNote('1', '<p>to the world</p>'), 'c1'));
      await runQueue();
      expect(await stored()).toEqual([]);

      const aliceUri = new URL(`/users/${alice.id}`, ORIGIN);
      const direct = new Note({
        id: noteId('1'),
        attribution: peer.actorId,
        content: '<p>@alice just you</p>',
        to: aliceUri,
        tags: [new Mention({ href: aliceUri, name: '@alice@pipit.test' })],
      });
      await peer.deliver(ctx.app, ORIGIN, '/inbox', await createOf(direct, 'c2'));
      await runQueue();
      const [row] = await stored();
      expect(row).toMatchObject({ visibility: 'direct', text: '@alice just you' });
      expect((await client.get(`/api/posts/${row?.id}`)).statusCode).toBe(200);
      expect((await bob.get(`/api/posts/${row?.id}`)).statusCode).toBe(404);
      expect((await client.get('/api/notifications')).json().items[0]).toMatchObject({ type: 'mention' });
    });

    it("followers-only stays with her followers here; a note in someone else's name, or unsigned, is refused", async () => {
      const { client } = await member('alice');
      const { client: bob } = await member('bob');
      await followCarol(client);
      const followersOnly = new Note({
        id: noteId('1'),
        attribution: peer.actorId,
        content: '<p>friends only</p>',
        to: new URL('/users/carol/followers', peer.origin),
      });
      await peer.deliver(ctx.app, ORIGIN, '/inbox', await createOf(followersOnly, 'f1'));
      await runQueue();
      const [row] = await stored();
      expect(row?.visibility).toBe('followers');
      expect((await client.get(`/api/posts/${row?.id}`)).statusCode).toBe(200);
      expect((await bob.get(`/api/posts/${row?.id}`)).statusCode).toBe(404);

      // attributedTo someone other than the signer: refused, nothing stored.
      const forged = publicNote('2', '<p>words put in dave’s mouth</p>', {
        attribution: new URL('/users/dave', peer.origin),
      });
      await peer.deliver(ctx.app, ORIGIN, '/inbox', await createOf(forged, 'f2'));
      await runQueue();
      expect(
        await ctx.db.db
          .select()
          .from(posts)
          .where(eq(posts.uri, noteId('2').href)),
      ).toEqual([]);

      // Unsigned: 401 before anything is queued.
      const unsigned = await peer.deliver(ctx.app, ORIGIN, '/inbox', await createOf(publicNote('3', 'x'), 'f3'), {
        unsigned: true,
      });
      expect(unsigned.statusCode).toBe(401);
      expect(await runQueue()).toBe(0);

      // A body past the inbox limit (1 MiB): 413, nothing queued.
      const huge = await peer.deliver(
        ctx.app,
        ORIGIN,
        '/inbox',
        await createOf(publicNote('4', `<p>${'a'.repeat(1_100_000)}</p>`), 'f4'),
      );
      expect(huge.statusCode).toBe(413);
      expect(await runQueue()).toBe(0);
    });
  });

  describe('pictures', () => {
    it('a note’s images are fetched through the media pipeline with their descriptions; a picture-only note is kept', async () => {
      const { client } = await member('alice');
      const carolId = await followCarol(client);
      peer.files.set('/media/heron.jpg', { type: 'image/jpeg', body: await photo(1200, 800) });
      peer.files.set('/media/marsh.png', { type: 'image/png', body: await photo(400, 300, 'png') });
      peer.files.set('/media/fake.jpg', { type: 'image/jpeg', body: Buffer.from('not a picture at all') });
      const media = (path: string, mediaType: string, name: string) =>
        new Document({ url: new URL(path, peer.origin), mediaType, name });
      const note = new Note({
        id: new URL('/notes/pictures', peer.origin),
        attribution: peer.actorId,
        content: '',
        to: PUBLIC_COLLECTION,
        attachments: [
          media('/media/heron.jpg', 'image/jpeg', 'A heron at dusk'),
          media('/media/missing.jpg', 'image/jpeg', 'Gone'),
          media('/media/fake.jpg', 'image/jpeg', 'Not an image'),
          media('/media/clip.mp4', 'video/mp4', 'A video'),
          media('/media/marsh.png', 'image/png', 'The marsh'),
        ],
      });
      const create = new Create({
        id: new URL('/activities/pictures', peer.origin),
        actor: peer.actorId,
        object: note,
      });
      expect((await peer.deliver(ctx.app, ORIGIN, '/inbox', await create.toJsonLd())).statusCode).toBe(202);
      await runQueue();
      const home = (await client.get('/api/timeline/following')).json().items;
      expect(home).toHaveLength(1);
      // The first four attachments are looked at: the heron kept; the missing, fake and video ones left out.
      expect(home[0]).toMatchObject({ text: '', author: { id: String(carolId) } });
      expect(home[0].media.map((m: { alt: string }) => m.alt)).toEqual(['A heron at dusk']);
      expect(home[0].media[0]).toMatchObject({ width: 1200, height: 800 });
      expect(peer.fetched.get('/media/clip.mp4')).toBeUndefined();
      expect(peer.fetched.get('/media/marsh.png')).toBeUndefined();
      // Served from here (re-encoded, no metadata), not from her server.
      const served = await ctx.app.inject({ url: new URL(home[0].media[0].url, ORIGIN).pathname });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toMatch(/^image\//);
    });
  });
});
