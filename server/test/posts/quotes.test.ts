/**
 * Quotes (issue 10, part 2): a post may quote another, which shows embedded under it one level deep
 * (a quote of a quote shows the quote, not what it quoted). The quoted author is notified. When the
 * quoted post is deleted the quote stays and says so (`quote.state` 'unavailable': "This post is
 * unavailable"), wherever it is shown, cached pages included.
 */
import type { Post, QuotedPost } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { imageUpload } from '../helpers/multipart.ts';
import { createPost, follow, getPage, getPost, notificationsOf } from '../helpers/social.ts';
import { photo } from '../media/fixtures.ts';
import { fingerprint } from '../security/support.ts';

/** The quoted post a post shows, if it shows one. */
function shownOf(post: Post | undefined): QuotedPost | undefined {
  return post?.quote?.state === 'shown' ? post.quote.post : undefined;
}

async function quote(client: TestClient, text: string, quoteOfId: string): Promise<Post> {
  const res = await client.post('/api/posts', { text, quoteOfId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Post>();
}

describe('quotes', () => {
  const ctx = useTestApp();

  it('embeds the quoted post, shows it everywhere and notifies its author', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const original = await createPost(clients.alice, 'An original thought #ideas');
    const made = await quote(clients.bob, 'Worth reading:', original.id);
    expect(made.quote).toEqual({
      state: 'shown',
      post: {
        id: original.id,
        text: 'An original thought #ideas',
        createdAt: original.createdAt,
        author: { id: String(alice.id), name: 'Alice', username: 'alice', profileImage: null, domain: null },
        media: [],
        spoilerText: '',
        sensitive: false,
      },
    });
    expect(await getPost(clients.carol, made.id)).toEqual({ ...made });
    const everyone = await getPage<Post>(clients.carol, '/api/timeline/everyone');
    expect(everyone.items.find((p) => p.id === made.id)?.quote).toEqual(made.quote);
    // Other posts are no quotes.
    expect(original.quote).toBeNull();
    expect((await getPost(clients.carol, original.id)).quote).toBeNull();

    const [notification] = await notificationsOf(clients.alice);
    expect(notification).toMatchObject({ type: 'quote', actor: { username: 'bob' }, post: { id: made.id } });
  });

  it('a quote of a quote embeds one level; quoting oneself notifies nobody', async () => {
    const { clients } = await seedTrio(ctx);
    const original = await createPost(clients.alice, 'first');
    const bobs = await quote(clients.bob, 'second', original.id);
    const carols = await quote(clients.carol, 'third', bobs.id);
    expect(shownOf(carols)).toMatchObject({ id: bobs.id, text: 'second' });
    expect(shownOf(carols)).not.toHaveProperty('quote');
    const own = await quote(clients.alice, 'me again', original.id);
    expect(shownOf(own)?.id).toBe(original.id);
    expect((await notificationsOf(clients.alice)).map((n) => n.type)).toEqual(['quote']);
  });

  it('a quoted post that is deleted leaves "unavailable" in every view of the quote', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    await follow(clients.carol, bob.id);
    await follow(clients.carol, alice.id);
    const original = await createPost(clients.alice, 'soon gone');
    const made = await quote(clients.bob, 'quoting it', original.id);
    // Seen (and kept by the caches) before the delete.
    expect(shownOf(await getPost(clients.carol, made.id))?.text).toBe('soon gone');
    const before = await getPage<Post>(clients.carol, '/api/timeline/following');
    expect(shownOf(before.items.find((p) => p.id === made.id))?.text).toBe('soon gone');
    expect(
      shownOf((await getPage<Post>(clients.visitor, '/api/timeline/everyone')).items.find((p) => p.id === made.id)),
    ).toBeDefined();

    expect((await clients.alice.delete(`/api/posts/${original.id}`)).statusCode).toBe(204);
    const gone = { state: 'unavailable' };
    expect((await getPost(clients.carol, made.id)).quote).toEqual(gone);
    const following = await getPage<Post>(clients.carol, '/api/timeline/following');
    expect(following.items.find((p) => p.id === made.id)?.quote).toEqual(gone);
    const everyone = await getPage<Post>(clients.visitor, '/api/timeline/everyone');
    expect(everyone.items.find((p) => p.id === made.id)?.quote).toEqual(gone);
    expect((await getPage<Post>(clients.carol, `/api/users/${bob.id}/posts`)).items[0]?.quote).toEqual(gone);
  });

  it('refuses to quote an unknown post (404) or a malformed id (400), writing nothing', async () => {
    const { clients } = await seedTrio(ctx);
    const before = await fingerprint(ctx.db);
    const unknown = await clients.bob.post('/api/posts', { text: 'quoting nothing', quoteOfId: '999999' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');
    for (const quoteOfId of ['abc', '0', '-1', 12, null, { id: '1' }]) {
      const res = await clients.bob.post('/api/posts', { text: 'bad', quoteOfId });
      expect(res.statusCode, JSON.stringify(quoteOfId)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'quoteOfId' });
    }
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it("embeds the quoted post's images", async () => {
    const { clients } = await seedTrio(ctx);
    const upload = await clients.alice.upload(imageUpload(await photo(60, 40), 'a small sun'));
    expect(upload.statusCode, upload.body).toBe(201);
    const res = await clients.alice.post('/api/posts', { text: '', media: [{ id: upload.json().id }] });
    const original = res.json<Post>();
    const made = await quote(clients.bob, 'look at this', original.id);
    expect(shownOf(made)?.media).toEqual(original.media);
    expect(shownOf(made)?.media[0]?.alt).toBe('a small sun');
  });
});
