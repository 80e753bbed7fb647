/**
 * Post visibility (issue 27, part 1) through the web API: each visibility reaches exactly its audience
 * (audience.property.test.ts checks that under random sequences); these are the rules of writing and
 * their refusals: the member's default, a reply's default and its limit, reposts of public and unlisted
 * posts only, quotes by the quoted post's policy, mentions and notifications within the audience, and
 * what an unfollow takes away at once.
 */
import type { Notification, Post, Visibility } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { follow, getPage, notificationsOf } from '../helpers/social.ts';
import { fingerprint } from '../security/support.ts';

async function write(client: TestClient, body: Record<string, unknown>): Promise<Post> {
  const res = await client.post('/api/posts', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Post>();
}

describe('post visibility', () => {
  const ctx = useTestApp();

  it('starts from the member default (Settings), which the profile edit changes and the current user carries', async () => {
    const { clients } = await seedTrio(ctx);
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ defaultVisibility: 'public' });
    expect((await write(clients.alice, { text: 'open' })).visibility).toBe('public');
    const edited = await clients.alice.patch('/api/edit', { defaultVisibility: 'followers' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ defaultVisibility: 'followers' });
    const post = await write(clients.alice, { text: 'for my followers' });
    expect(post).toMatchObject({ visibility: 'followers', quotePolicy: 'followers' });
    // Asking for another visibility wins over the default.
    expect((await write(clients.alice, { text: 'open again', visibility: 'public' })).visibility).toBe('public');
    const bad = await clients.alice.patch('/api/edit', { defaultVisibility: 'everyone' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'defaultVisibility' });
  });

  it('refuses an unknown visibility or quote policy, and a quote policy wider than the visibility allows, writing nothing', async () => {
    const { clients } = await seedTrio(ctx);
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    const refused: [Record<string, unknown>, string][] = [
      [{ text: 'x', visibility: 'friends' }, 'visibility'],
      [{ text: 'x', visibility: 3 }, 'visibility'],
      [{ text: 'x', quotePolicy: 'everyone' }, 'quotePolicy'],
      [{ text: 'x', visibility: 'followers', quotePolicy: 'anyone' }, 'quotePolicy'],
      [{ text: 'x', visibility: 'direct', quotePolicy: 'followers' }, 'quotePolicy'],
      [{ text: 'x @bob', visibility: 'direct', quotePolicy: 'anyone' }, 'quotePolicy'],
    ];
    for (const [body, field] of refused) {
      const res = await clients.alice.post('/api/posts', body);
      expect([JSON.stringify(body), res.statusCode]).toEqual([JSON.stringify(body), 400]);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
  });

  it('gives a reply its parent visibility by default, narrower on request, and refuses a wider one', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await follow(clients.bob, alice.id);
    const parent = await write(clients.alice, { text: 'for followers', visibility: 'followers' });
    const reply = await write(clients.bob, { text: 'a reply', parentId: parent.id });
    expect(reply.visibility).toBe('followers');
    expect(
      (await write(clients.bob, { text: 'just to you', parentId: parent.id, visibility: 'direct' })).visibility,
    ).toBe('direct');
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    for (const visibility of ['public', 'unlisted'] satisfies Visibility[]) {
      const res = await clients.bob.post('/api/posts', { text: 'louder', parentId: parent.id, visibility });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'visibility' });
      expect(res.json().message).toContain('followers');
    }
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
    // The reply's author reaches Alice, whom it answers, even with a direct reply that mentions nobody.
    const direct = await write(clients.bob, { text: 'only us', parentId: parent.id, visibility: 'direct' });
    expect((await clients.alice.get(`/api/posts/${direct.id}`)).statusCode).toBe(200);
    expect((await clients.carol.get(`/api/posts/${direct.id}`)).statusCode).toBe(404);
  });

  it('reposts public and unlisted posts only; a repost keeps the post visibility', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await follow(clients.bob, alice.id);
    const unlisted = await write(clients.alice, { text: 'quiet', visibility: 'unlisted' });
    const res = await clients.bob.put(`/api/posts/${unlisted.id}/repost`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Post>().visibility).toBe('unlisted');
    for (const visibility of ['followers', 'direct'] as const) {
      const post = await write(clients.alice, { text: `${visibility} @bob`, visibility });
      const before = await fingerprint(ctx.db, ctx.config.mediaDir);
      const refused = await clients.bob.put(`/api/posts/${post.id}/repost`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Only public and unlisted posts can be reposted.',
      });
      expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
      // Not even by its author.
      expect((await clients.alice.put(`/api/posts/${post.id}/repost`)).statusCode).toBe(403);
    }
  });

  it('lets a quote through only as the quoted post policy allows (its author always)', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await follow(clients.bob, alice.id);
    const closed = await write(clients.alice, { text: 'no quotes', quotePolicy: 'nobody' });
    const followersOnly = await write(clients.alice, { text: 'followers may quote', quotePolicy: 'followers' });
    const nobody = await clients.bob.post('/api/posts', { text: 'q', quoteOfId: closed.id });
    expect(nobody.statusCode).toBe(403);
    expect(nobody.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'The author does not allow quotes of this post.',
    });
    expect((await clients.alice.post('/api/posts', { text: 'me', quoteOfId: closed.id })).statusCode).toBe(201);
    expect((await clients.bob.post('/api/posts', { text: 'q', quoteOfId: followersOnly.id })).statusCode).toBe(201);
    const carol = await clients.carol.post('/api/posts', { text: 'q', quoteOfId: followersOnly.id });
    expect(carol.statusCode).toBe(403);
    expect(carol.json().message).toBe("Only the author's followers may quote this post.");
    // A post one may not see answers as absent, whatever its policy.
    const hidden = await write(clients.alice, { text: 'secret', visibility: 'followers', quotePolicy: 'followers' });
    expect((await clients.carol.post('/api/posts', { text: 'q', quoteOfId: hidden.id })).statusCode).toBe(404);
  });

  it('answers a post one may not see as absent, for every action on it', async () => {
    const { clients } = await seedTrio(ctx);
    const hidden = await write(clients.alice, { text: 'for my followers', visibility: 'followers' });
    const carol = clients.carol;
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    for (const res of [
      await carol.get(`/api/posts/${hidden.id}`),
      await carol.get(`/api/posts/${hidden.id}/replies`),
      await carol.get(`/api/posts/${hidden.id}/ancestors`),
      await carol.put(`/api/posts/${hidden.id}/like`),
      await carol.put(`/api/posts/${hidden.id}/repost`),
      await carol.put(`/api/posts/${hidden.id}/bookmark`),
      await carol.post('/api/posts', { text: 'reply', parentId: hidden.id }),
      await carol.delete(`/api/posts/${hidden.id}`),
      await carol.post(`/api/posts/${hidden.id}/report`, { category: 'spam' }),
    ]) {
      expect([res.statusCode, res.json().code]).toEqual([404, 'NOT_FOUND']);
    }
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
  });

  it('tells the people mentioned in a followers-only post, and nobody it does not reach', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await follow(clients.bob, alice.id);
    const quoted = await write(clients.carol, { text: 'quotable' });
    // Carol does not follow Alice: quoted in a followers-only post, she is not told (she could not open it).
    await write(clients.alice, { text: 'look', quoteOfId: quoted.id, visibility: 'followers' });
    expect((await notificationsOf(clients.carol)).map((n: Notification) => n.type)).toEqual([]);
    // Mentioned, she is in its audience: told, and she can open it.
    const mention = await write(clients.alice, { text: 'hey @carol', visibility: 'followers' });
    const notes = await notificationsOf(clients.carol);
    expect(notes.map((n) => [n.type, n.post?.id])).toEqual([['mention', mention.id]]);
    expect((await clients.carol.get(`/api/posts/${mention.id}`)).statusCode).toBe(200);
  });

  it('takes a followers-only post away from Home and the profile at the next answer after an unfollow', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await follow(clients.bob, alice.id);
    const post = await write(clients.alice, { text: 'inner circle', visibility: 'followers' });
    const homeIds = async () => (await getPage<Post>(clients.bob, '/api/timeline/following')).items.map((p) => p.id);
    const profileIds = async () =>
      (await getPage<Post>(clients.bob, `/api/users/${alice.id}/posts`)).items.map((p) => p.id);
    expect(await homeIds()).toEqual([post.id]);
    expect(await profileIds()).toEqual([post.id]);
    expect((await clients.bob.delete(`/api/users/${alice.id}/follow`)).statusCode).toBe(200);
    expect(await homeIds()).toEqual([]);
    expect(await profileIds()).toEqual([]);
    expect((await clients.bob.get(`/api/posts/${post.id}`)).statusCode).toBe(404);
  });
});
