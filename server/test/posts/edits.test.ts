/**
 * Content warnings and edits with history (issue 28): a post's warning (`spoilerText`) and sensitive
 * mark; PATCH /api/posts/:id (the author only: 404 when they cannot see it, 403 when they can but it
 * is not theirs, as delete refuses), every version in GET /api/posts/:id/history, and what an edit
 * keeps true — hashtags, search, mentions (an edit widens its audience to whom it mentions), pictures
 * (removed ones collected), `update` notifications to whoever reposted or quoted it, muted words
 * matching warnings, the kept views. Runs on PGlite and on PostgreSQL + Redis (home feeds).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LIMITS, type Notification, type Post, type PostHistory } from '@pipit/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/multipart.ts';
import { createPost, follow, getPage, getPost, notificationsOf } from '../helpers/social.ts';
import { photo } from '../media/fixtures.ts';

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'pipit-edits-'));
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

async function edit(client: TestClient, id: string, body: object): Promise<Post> {
  const res = await client.patch(`/api/posts/${id}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Post>();
}

async function history(client: TestClient, id: string): Promise<PostHistory> {
  const res = await client.get(`/api/posts/${id}/history`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PostHistory>();
}

/** Each upload a picture of its own (its own file: content-addressed storage shares equal bytes). */
let uploads = 0;
async function upload(client: TestClient, alt = ''): Promise<string> {
  const res = await client.upload(
    multipart([...(alt ? [{ name: 'alt', value: alt }] : []), { name: 'file', file: await photo(40 + ++uploads, 30) }]),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** Refused with `status` and `code` (and the field when given), the post left as it was. */
async function refused(
  client: TestClient,
  id: string,
  body: unknown,
  status: number,
  code: string,
  field?: string,
  owner?: TestClient,
) {
  const before = owner ? await getPost(owner, id) : null;
  const res = await client.patch(`/api/posts/${id}`, body);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ code, ...(field ? { field } : {}) });
  if (owner && before) expect(await getPost(owner, id)).toEqual(before);
  return res;
}

describe('content warnings', () => {
  const ctx = useTestApp({ mediaDir });

  it('a post carries its warning (trimmed) and is sensitive with it; pictures may be sensitive alone', async () => {
    const { clients } = await seedTrio(ctx);
    const res = await clients.alice.post('/api/posts', { text: 'The ending', spoilerText: '  Film spoilers  ' });
    expect(res.statusCode, res.body).toBe(201);
    const written = res.json<Post>();
    expect(written).toMatchObject({ spoilerText: 'Film spoilers', sensitive: true, editedAt: null });
    expect(await getPost(clients.bob, written.id)).toMatchObject({ spoilerText: 'Film spoilers', sensitive: true });
    // The one-statement path (a top-level post, no mentions) and the transaction's (a reply) alike.
    const reply = await clients.bob.post('/api/posts', { text: 'No!', parentId: written.id, spoilerText: 'Same' });
    expect(reply.json()).toMatchObject({ spoilerText: 'Same', sensitive: true });
    const picture = await upload(clients.alice);
    const sensitive = await clients.alice.post('/api/posts', { text: '', media: [{ id: picture }], sensitive: true });
    expect(sensitive.json()).toMatchObject({ spoilerText: '', sensitive: true });
    const plain = await createPost(clients.alice, 'plain');
    expect(plain).toMatchObject({ spoilerText: '', sensitive: false, editedAt: null });
  });

  it(`refuses a warning over ${LIMITS.spoilerTextMax} characters, on two lines, or of invisible characters`, async () => {
    const { clients } = await seedTrio(ctx);
    for (const spoilerText of ['x'.repeat(LIMITS.spoilerTextMax + 1), 'two\nlines', '\u200b\u200b']) {
      const res = await clients.alice.post('/api/posts', { text: 'hidden', spoilerText });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'spoilerText' });
    }
    // Exactly the limit, counted in user-perceived characters (an emoji counts once).
    const res = await clients.alice.post('/api/posts', { text: 'ok', spoilerText: '🐦'.repeat(LIMITS.spoilerTextMax) });
    expect(res.statusCode, res.body).toBe(201);
    expect(
      (await getPage<Post>(clients.alice, `/api/users/${(await clients.alice.get('/api/current')).json().id}/posts`))
        .items,
    ).toHaveLength(1);
  });

  it('muted words match the warning too (never one’s own)', async () => {
    const { alice, clients } = await seedTrio(ctx);
    expect((await clients.carol.post('/api/muted-words', { phrase: 'finale' })).statusCode).toBe(201);
    const warned = (
      await clients.alice.post('/api/posts', { text: 'They all die', spoilerText: 'Finale talk' })
    ).json<Post>();
    const later = await createPost(clients.alice, 'nothing to hide');
    const everyone = async (client: TestClient) =>
      (await getPage<Post>(client, '/api/timeline/everyone')).items.map((p) => p.id);
    expect(await everyone(clients.carol)).toEqual([later.id]);
    expect(await everyone(clients.bob)).toEqual([later.id, warned.id]);
    // And an edit that adds a muted word in a warning hides the post from then on.
    await edit(clients.alice, later.id, { spoilerText: 'The finale' });
    expect(await everyone(clients.carol)).toEqual([]);
    // Her Home hides both too, though she follows alice.
    await follow(clients.carol, alice.id);
    expect((await clients.carol.get(`/api/timeline/following`)).json<{ items: Post[] }>().items).toEqual([]);
  });
});

describe('editing a post', () => {
  const ctx = useTestApp({ mediaDir });

  it('changes its text and warning, marks it edited, and keeps every version with what changed', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'First words');
    expect((await history(clients.bob, post.id)).items).toMatchObject([{ text: 'First words', changes: null }]);

    const edited = await edit(clients.alice, post.id, { text: 'Better words', spoilerText: 'Mild' });
    expect(edited).toMatchObject({ id: post.id, text: 'Better words', spoilerText: 'Mild', sensitive: true });
    expect(edited.editedAt).not.toBeNull();
    expect(Date.parse(edited.editedAt!)).toBeGreaterThanOrEqual(Date.parse(post.createdAt));
    expect(await getPost(clients.bob, post.id)).toMatchObject({ text: 'Better words', editedAt: edited.editedAt });

    await edit(clients.alice, post.id, { spoilerText: '' });
    const versions = (await history(clients.visitor, post.id)).items;
    expect(versions.map((v) => [v.text, v.spoilerText, v.sensitive])).toEqual([
      ['First words', '', false],
      ['Better words', 'Mild', true],
      ['Better words', '', false],
    ]);
    expect(versions[0]).toMatchObject({ createdAt: post.createdAt, changes: null });
    expect(versions[1]?.changes).toMatchObject({ text: true, spoilerText: 'added', sensitive: 'marked' });
    // The mark that came with the warning goes with it (one set on its own stays: below).
    expect(versions[2]?.changes).toMatchObject({ text: false, spoilerText: 'removed', sensitive: 'unmarked' });
    const picture = await upload(clients.alice);
    const marked = (
      await clients.alice.post('/api/posts', { text: 'A heron', media: [{ id: picture }], sensitive: true })
    ).json<Post>();
    expect(await edit(clients.alice, marked.id, { text: 'A heron, healing' })).toMatchObject({ sensitive: true });
    // One column holds the mark, as on Mastodon: once a warning came and went, the post is unmarked.
    expect(await edit(clients.alice, marked.id, { spoilerText: 'Birds' })).toMatchObject({ sensitive: true });
    expect(await edit(clients.alice, marked.id, { spoilerText: '' })).toMatchObject({ sensitive: false });
    expect(await edit(clients.alice, marked.id, { sensitive: true })).toMatchObject({ sensitive: true });
  });

  it('accepts an edit that changes nothing without a new version (as Mastodon does)', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'Same');
    expect(await edit(clients.alice, post.id, { text: 'Same' })).toMatchObject({ editedAt: null });
    expect(await edit(clients.alice, post.id, {})).toMatchObject({ editedAt: null });
    expect((await history(clients.alice, post.id)).items).toHaveLength(1);
    const once = await edit(clients.alice, post.id, { text: 'Changed' });
    expect(await edit(clients.alice, post.id, { text: '  Changed  ' })).toMatchObject({ editedAt: once.editedAt });
    expect((await history(clients.alice, post.id)).items).toHaveLength(2);
  });

  it('adds, removes and describes pictures; a removed picture’s file is collected, its place stays in the history', async () => {
    const { clients } = await seedTrio(ctx);
    const [a, b] = [await upload(clients.alice, 'A'), await upload(clients.alice, 'B')];
    const post = (await clients.alice.post('/api/posts', { text: 'Two', media: [{ id: a }, { id: b }] })).json<Post>();
    const fileOf = (url: string) =>
      path.join(mediaDir, url.slice('/media/'.length, '/media/'.length + 2), url.slice('/media/'.length));
    const removedUrl = post.media[0]!.url;
    const c = await upload(clients.alice);
    const edited = await edit(clients.alice, post.id, {
      media: [
        { id: b, alt: 'B, better' },
        { id: c, alt: 'C' },
      ],
    });
    expect(edited.media.map((m) => [m.id, m.alt])).toEqual([
      [b, 'B, better'],
      [c, 'C'],
    ]);
    await ctx.app.services.jobs.drain();
    // Collected like a deleted post's pictures; the kept ones stay.
    expect(existsSync(fileOf(removedUrl))).toBe(false);
    for (const m of edited.media) expect(existsSync(fileOf(m.url))).toBe(true);
    const [first, second] = (await history(clients.alice, post.id)).items;
    expect(first?.media.map((m) => [m.id, m.url === null, m.alt])).toEqual([
      [a, true, 'A'],
      [b, false, 'B'],
    ]);
    expect(second?.changes).toMatchObject({ text: false, mediaAdded: 1, mediaRemoved: 1, altChanged: 1 });
    // A picture row that was removed cannot be attached again, to this post or another.
    await refused(clients.alice, post.id, { media: [{ id: a }] }, 400, 'INVALID_INPUT', 'media', clients.alice);
    // Removing every picture of a post without text leaves it empty: refused.
    const bare = (
      await clients.alice.post('/api/posts', { text: '', media: [{ id: await upload(clients.alice) }] })
    ).json<Post>();
    await refused(clients.alice, bare.id, { media: [] }, 400, 'INVALID_INPUT', 'text', clients.alice);
  });

  it('refuses what create refuses: too many pictures, someone else’s, a too long warning, bad types, other fields', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'Steady');
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => upload(clients.alice)));
    await refused(
      clients.alice,
      post.id,
      { media: five.map((id) => ({ id })) },
      400,
      'INVALID_INPUT',
      'media',
      clients.alice,
    );
    const bobs = await upload(clients.bob);
    await refused(clients.alice, post.id, { media: [{ id: bobs }] }, 400, 'INVALID_INPUT', 'media', clients.alice);
    await refused(
      clients.alice,
      post.id,
      { spoilerText: 'x'.repeat(101) },
      400,
      'INVALID_INPUT',
      'spoilerText',
      clients.alice,
    );
    await refused(clients.alice, post.id, { text: 'x'.repeat(281) }, 400, 'INVALID_INPUT', 'text', clients.alice);
    await refused(clients.alice, post.id, { text: 5 }, 400, 'INVALID_INPUT', 'text', clients.alice);
    await refused(clients.alice, post.id, { sensitive: 'yes' }, 400, 'INVALID_INPUT', 'sensitive', clients.alice);
    // Not its visibility, parent or quote.
    await refused(clients.alice, post.id, { visibility: 'direct' }, 400, 'INVALID_INPUT', undefined, clients.alice);
    await refused(clients.alice, post.id, { quoteOfId: post.id }, 400, 'INVALID_INPUT', undefined, clients.alice);
    await refused(clients.alice, post.id, { text: '' }, 400, 'INVALID_INPUT', 'text', clients.alice);
    // bob's upload is still his, waiting for a post.
    expect((await clients.bob.post('/api/posts', { text: 'mine', media: [{ id: bobs }] })).statusCode).toBe(201);
  });

  it('only the author edits: 401 for a visitor, 403 for a member who sees it, 404 for one who does not, 404 once deleted', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'Mine');
    await refused(clients.visitor, post.id, { text: 'x' }, 401, 'UNAUTHENTICATED', undefined, clients.alice);
    await refused(clients.bob, post.id, { text: 'x' }, 403, 'FORBIDDEN', undefined, clients.alice);
    const forFollowers = (
      await clients.alice.post('/api/posts', { text: 'Close friends', visibility: 'followers' })
    ).json<Post>();
    await refused(clients.bob, forFollowers.id, { text: 'x' }, 404, 'NOT_FOUND', undefined, clients.alice);
    await follow(clients.bob, alice.id);
    await refused(clients.bob, forFollowers.id, { text: 'x' }, 403, 'FORBIDDEN', undefined, clients.alice);
    // A repost's entry stands for the post: bob's repost id edits alice's post only for alice.
    const repost = await clients.bob.put(`/api/posts/${post.id}/repost`);
    expect(repost.statusCode).toBe(200);
    await refused(clients.bob, post.id, { text: 'x' }, 403, 'FORBIDDEN');
    await refused(clients.bob, '999999999', { text: 'x' }, 404, 'NOT_FOUND');
    expect((await clients.alice.delete(`/api/posts/${post.id}`)).statusCode).toBe(204);
    await refused(clients.alice, post.id, { text: 'x' }, 404, 'NOT_FOUND');
    expect((await clients.alice.get(`/api/posts/${post.id}/history`)).json()).toMatchObject({ code: 'NOT_FOUND' });
    // Without the CSRF header a write is refused before anything.
    const noCsrf = new TestClient(ctx);
    const res = await noCsrf.patch(`/api/posts/${forFollowers.id}`, { text: 'x' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_FAILED' });
  });

  it('the history answers 404 to whoever cannot see the post', async () => {
    const { clients } = await seedTrio(ctx);
    const post = (await clients.alice.post('/api/posts', { text: 'Secret', visibility: 'followers' })).json<Post>();
    await edit(clients.alice, post.id, { text: 'Still secret' });
    for (const client of [clients.visitor, clients.bob]) {
      const res = await client.get(`/api/posts/${post.id}/history`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await history(clients.alice, post.id)).items).toHaveLength(2);
    expect((await clients.alice.get('/api/posts/abc/history')).statusCode).toBe(404);
  });

  it('hashtag pages and search follow the new text', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'Spotted #kestrel hovering');
    const tagged = async (tag: string) =>
      (await getPage<Post>(clients.visitor, `/api/hashtags/${tag}/posts`)).items.map((p) => p.id);
    const found = async (q: string) =>
      (await getPage<Post>(clients.bob, `/api/search/posts?q=${encodeURIComponent(q)}`)).items.map((p) => p.id);
    expect(await tagged('kestrel')).toEqual([post.id]);
    expect(await found('hovering')).toEqual([post.id]);
    await edit(clients.alice, post.id, { text: 'Spotted #merlin diving' });
    expect(await tagged('kestrel')).toEqual([]);
    expect(await tagged('merlin')).toEqual([post.id]);
    expect(await found('hovering')).toEqual([]);
    expect(await found('diving')).toEqual([post.id]);
    // A post that is not public joins no hashtag page, edited or not.
    const quiet = (await clients.alice.post('/api/posts', { text: 'quiet', visibility: 'unlisted' })).json<Post>();
    await edit(clients.alice, quiet.id, { text: 'quiet #merlin' });
    expect(await tagged('merlin')).toEqual([post.id]);
  });

  it('someone newly mentioned is reached (a followers-only post widens to them) and told', async () => {
    const { clients } = await seedTrio(ctx);
    const post = (
      await clients.alice.post('/api/posts', { text: 'For followers', visibility: 'followers' })
    ).json<Post>();
    expect((await clients.carol.get(`/api/posts/${post.id}`)).statusCode).toBe(404);
    await edit(clients.alice, post.id, { text: 'For followers and @carol' });
    expect(await getPost(clients.carol, post.id)).toMatchObject({ text: 'For followers and @carol' });
    const told = (await notificationsOf(clients.carol)).filter((n) => n.type === 'mention');
    expect(told.map((n) => n.post?.id)).toEqual([post.id]);
    // Taking the mention out again narrows nothing (she has read it), and tells nobody twice.
    await edit(clients.alice, post.id, { text: 'For followers' });
    await edit(clients.alice, post.id, { text: 'For followers, @carol' });
    expect((await notificationsOf(clients.carol)).filter((n) => n.type === 'mention')).toHaveLength(1);
    expect((await clients.bob.get(`/api/posts/${post.id}`)).statusCode).toBe(404);
  });

  it('tells whoever reposted or quoted it, once per edit, with the warning in place of the text', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'Worth sharing');
    expect((await clients.bob.put(`/api/posts/${post.id}/repost`)).statusCode).toBe(200);
    expect((await clients.carol.post('/api/posts', { text: 'Look', quoteOfId: post.id })).statusCode).toBe(201);
    await edit(clients.alice, post.id, { text: 'Worth sharing, edited', spoilerText: 'Birds' });
    await edit(clients.alice, post.id, { text: 'Worth sharing, edited twice' });
    for (const client of [clients.bob, clients.carol]) {
      const updates = (await notificationsOf(client)).filter((n: Notification) => n.type === 'update');
      expect(updates).toHaveLength(1);
      expect(updates[0]).toMatchObject({
        read: false,
        actor: { id: String(alice.id) },
        post: { id: post.id, text: 'Worth sharing, edited twice', spoilerText: 'Birds' },
      });
    }
    // The author is never told of their own edit.
    expect((await notificationsOf(clients.alice)).filter((n) => n.type === 'update')).toEqual([]);
  });

  it('the kept views show the new text: the visitors’ Everyone page, a quote of it, a follower’s Home', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await follow(clients.bob, alice.id);
    const post = await createPost(clients.alice, 'Old words');
    const quote = (await clients.carol.post('/api/posts', { text: 'Quoting', quoteOfId: post.id })).json<Post>();
    const texts = async (client: TestClient, url: string) =>
      (await getPage<Post>(client, url)).items.map((p) =>
        p.quote?.state === 'shown' ? `> ${p.quote.post.text}` : p.text,
      );
    // Read once so each cache holds them.
    expect(await texts(clients.visitor, '/api/timeline/everyone')).toEqual(['> Old words', 'Old words']);
    expect(await texts(clients.bob, '/api/timeline/following')).toEqual(['Old words']);
    expect((await getPost(clients.visitor, quote.id)).quote).toMatchObject({ post: { text: 'Old words' } });
    await edit(clients.alice, post.id, { text: 'New words', spoilerText: 'cw' });
    expect(await texts(clients.visitor, '/api/timeline/everyone')).toEqual(['> New words', 'New words']);
    expect(await texts(clients.bob, '/api/timeline/following')).toEqual(['New words']);
    expect((await getPost(clients.visitor, quote.id)).quote).toMatchObject({
      post: { spoilerText: 'cw', sensitive: true },
    });
  });
});
