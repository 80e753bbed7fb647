/**
 * A quote of a post hidden from the viewer (by a block either way, a mute, a muted word, a
 * suspension) is still its author's post: it stays in every list the viewer reads, and its quote
 * part says unavailable — carrying nothing of the hidden post. A repost of a hidden post stays hidden
 * (it shows nothing else); a repost of such a quote shows, its quote unavailable.
 */
import type { Notification, Post } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, getAll, getPost } from '../helpers/social.ts';

const UNAVAILABLE = { state: 'unavailable' };

describe('quotes of hidden posts', () => {
  const ctx = useTestApp();

  /**
   * Bob writes a post; Carol quotes it (mentioning Alice, with a hashtag, as a reply to Alice's post),
   * and Alice, who follows Carol, bookmarks the quote. Then `hide` hides Bob's post from Alice.
   */
  async function scene(hide: (c: Awaited<ReturnType<typeof seedTrio>>) => Promise<void>) {
    const trio = await seedTrio(ctx);
    const { alice, bob, carol, clients } = trio;
    await follow(clients.alice, carol.id);
    await follow(clients.alice, bob.id);
    const bobs = await createPost(clients.bob, 'secret words of bob #kites');
    const alices = await createPost(clients.alice, 'alice asks');
    const res = await clients.carol.post('/api/posts', {
      text: 'carol quotes @alice #kites',
      quoteOfId: bobs.id,
      parentId: alices.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const quote = res.json<Post>();
    expect((await clients.alice.put(`/api/posts/${quote.id}/bookmark`)).statusCode).toBe(200);
    // Seen (and kept by any cache) while it was shown, by Alice and by others.
    expect((await getPost(clients.alice, quote.id)).quote).toMatchObject({ state: 'shown' });
    expect((await getPost(clients.visitor, quote.id)).quote).toMatchObject({ state: 'shown' });
    await hide(trio);
    return { alice, bob, carol, clients, bobs, alices, quote };
  }

  /** Every list Alice reads that holds the quote, as she reads it. */
  async function everywhere(client: TestClient, s: Awaited<ReturnType<typeof scene>>) {
    const lists = {
      following: '/api/timeline/following',
      everyone: '/api/timeline/everyone',
      profile: `/api/users/${s.carol.id}/posts`,
      replies: `/api/posts/${s.alices.id}/replies`,
      search: '/api/search/posts?q=carol',
      hashtag: '/api/hashtags/kites/posts',
      bookmarks: '/api/bookmarks',
    };
    const found: Record<string, Post | undefined> = {};
    for (const [name, url] of Object.entries(lists))
      found[name] = (await getAll<Post>(client, url, 50)).find((p) => p.id === s.quote.id);
    found.page = await getPost(client, s.quote.id);
    const notes = await getAll<Notification>(client, '/api/notifications', 50);
    found.notification = notes.find((n) => n.post?.id === s.quote.id)?.post ?? undefined;
    return found;
  }

  function expectUnavailableEverywhere(found: Record<string, Post | undefined>) {
    for (const [where, post] of Object.entries(found)) {
      expect(post, where).toBeDefined();
      expect(post?.quote, where).toEqual(UNAVAILABLE);
      // Nothing of Bob's post (the quote is exactly the state above): not its text, nor its author.
      const wire = JSON.stringify(post);
      expect(wire, where).not.toContain('secret words');
      expect(wire, where).not.toContain('"bob"');
    }
  }

  it('the viewer blocked the quoted author: the quote stays everywhere, its quote unavailable; others still see it', async () => {
    const s = await scene(async ({ bob, clients }) => {
      expect((await clients.alice.put(`/api/users/${bob.id}/block`)).statusCode).toBe(200);
    });
    expectUnavailableEverywhere(await everywhere(s.clients.alice, s));
    // Dave, with no rule, and a visitor see the quoted post.
    const dave = await new TestClient(ctx).signInAs((await insertUser(ctx.db, { username: 'dave' })).id);
    for (const client of [dave, s.clients.visitor]) {
      expect((await getPost(client, s.quote.id)).quote).toMatchObject({ state: 'shown', post: { id: s.bobs.id } });
    }
    // Unblocked: shown again, to Alice too.
    expect((await s.clients.alice.delete(`/api/users/${s.bob.id}/block`)).statusCode).toBe(200);
    expect((await getPost(s.clients.alice, s.quote.id)).quote).toMatchObject({ state: 'shown' });
    const following = await getAll<Post>(s.clients.alice, '/api/timeline/following', 50);
    expect(following.find((p) => p.id === s.quote.id)?.quote).toMatchObject({ state: 'shown' });
  });

  it('the quoted author blocked the viewer: the same', async () => {
    const s = await scene(async ({ alice, clients }) => {
      expect((await clients.bob.put(`/api/users/${alice.id}/block`)).statusCode).toBe(200);
    });
    expectUnavailableEverywhere(await everywhere(s.clients.alice, s));
  });

  it('the quoted author is suspended: the quote stays for everyone, visitors included, its quote unavailable', async () => {
    const s = await scene(async ({ bob }) => {
      const mod = await new TestClient(ctx).signInAs(
        (await insertUser(ctx.db, { username: 'mod', role: 'moderator' })).id,
      );
      expect((await mod.put(`/api/moderation/users/${bob.id}/suspension`)).statusCode).toBe(200);
    });
    expectUnavailableEverywhere(await everywhere(s.clients.alice, s));
    const visitorSees = {
      everyone: (await getAll<Post>(s.clients.visitor, '/api/timeline/everyone', 50)).find((p) => p.id === s.quote.id),
      page: await getPost(s.clients.visitor, s.quote.id),
    };
    expectUnavailableEverywhere(visitorSees);
  });

  it('a mute hides the quoted post where mutes apply (timelines), not on a profile or a post page', async () => {
    const s = await scene(async ({ bob, clients }) => {
      expect((await clients.alice.put(`/api/users/${bob.id}/mute`, {})).statusCode).toBe(200);
    });
    const following = await getAll<Post>(s.clients.alice, '/api/timeline/following', 50);
    expect(following.find((p) => p.id === s.quote.id)?.quote).toEqual(UNAVAILABLE);
    // A mute hides nothing on a profile, a post's page or one's bookmarks (visibility.ts, rule 'blocks').
    for (const url of [`/api/users/${s.carol.id}/posts`, '/api/bookmarks']) {
      const list = await getAll<Post>(s.clients.alice, url, 50);
      expect(list.find((p) => p.id === s.quote.id)?.quote, url).toMatchObject({ state: 'shown' });
    }
    expect((await getPost(s.clients.alice, s.quote.id)).quote).toMatchObject({ state: 'shown' });
  });

  it('a muted word in the quoted post hides it from the quote in timelines', async () => {
    const s = await scene(async ({ clients }) => {
      expect((await clients.alice.post('/api/muted-words', { phrase: 'secret' })).statusCode).toBe(201);
    });
    const everyone = await getAll<Post>(s.clients.alice, '/api/timeline/everyone', 50);
    expect(everyone.find((p) => p.id === s.quote.id)?.quote).toEqual(UNAVAILABLE);
  });

  it('a repost of the hidden post stays hidden; a repost of the quote shows, its quote unavailable', async () => {
    const s = await scene(async ({ bob, clients }) => {
      expect((await clients.alice.put(`/api/users/${bob.id}/block`)).statusCode).toBe(200);
    });
    expect((await s.clients.carol.put(`/api/posts/${s.bobs.id}/repost`)).statusCode).toBe(200);
    const dave = await insertUser(ctx.db, { username: 'dave' });
    const daveClient = await new TestClient(ctx).signInAs(dave.id);
    const daves = await daveClient.post('/api/posts', { text: 'dave quotes bob', quoteOfId: s.bobs.id });
    expect(daves.statusCode).toBe(201);
    const davesQuote = daves.json<Post>();
    expect((await s.clients.carol.put(`/api/posts/${davesQuote.id}/repost`)).statusCode).toBe(200);

    const following = await getAll<Post>(s.clients.alice, '/api/timeline/following', 50);
    // Carol's repost of Bob's post: not there. Carol's repost of Dave's quote: there, quote unavailable.
    expect(following.filter((p) => p.id === s.bobs.id)).toEqual([]);
    const repostOfQuote = following.find((p) => p.id === davesQuote.id);
    expect(repostOfQuote?.repostedBy?.username).toBe('carol');
    expect(repostOfQuote?.quote).toEqual(UNAVAILABLE);
    expect(JSON.stringify(following)).not.toContain('secret words');
    // Carol's profile the same way.
    const profile = await getAll<Post>(s.clients.alice, `/api/users/${s.carol.id}/posts`, 50);
    expect(profile.map((p) => p.id)).not.toContain(s.bobs.id);
    expect(profile.find((p) => p.id === davesQuote.id)?.quote).toEqual(UNAVAILABLE);
    // Carol herself sees both, quoted post shown.
    const carols = await getAll<Post>(s.clients.carol, `/api/users/${s.carol.id}/posts`, 50);
    expect(carols.find((p) => p.id === davesQuote.id)?.quote).toMatchObject({ state: 'shown' });
  });
});
