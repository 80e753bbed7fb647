import type { Post, User } from '@pipit/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { seedTrio, useTestApp } from '../helpers/app.ts';
import { createPost, getAll, getPage, getPost } from '../helpers/social.ts';

describe('posts', () => {
  const ctx = useTestApp();

  describe('POST /api/posts', () => {
    it('creates a post and answers it in the wire shape', async () => {
      const { alice, clients } = await seedTrio(ctx);
      const res = await clients.alice.post('/api/posts', { text: '  hello, world  ' });
      expect(res.statusCode).toBe(201);
      const post = res.json() as Post;
      expect(post).toEqual({
        id: expect.stringMatching(/^\d+$/),
        entryId: post.id,
        text: 'hello, world',
        createdAt: expect.any(String),
        author: { id: String(alice.id), name: 'Alice', username: 'alice', profileImage: null, domain: null },
        parentId: null,
        replyTo: null,
        replyCount: 0,
        likeCount: 0,
        repostCount: 0,
        likedByMe: false,
        repostedByMe: false,
        bookmarkedByMe: false,
        media: [],
        visibility: 'public',
        quotePolicy: 'anyone',
        quote: null,
        repostedBy: null,
        spoilerText: '',
        sensitive: false,
        editedAt: null,
        card: null,
        poll: null,
      });
      expect(Number.isNaN(Date.parse(post.createdAt))).toBe(false);
      expect(await getPost(clients.bob, post.id)).toEqual(post);
    });

    it('counts user-perceived characters: 280 flags are fine, 281 are not', async () => {
      const { clients } = await seedTrio(ctx);
      expect((await clients.alice.post('/api/posts', { text: '🇫🇷'.repeat(280) })).statusCode).toBe(201);
      const res = await clients.alice.post('/api/posts', { text: '👍🏽'.repeat(281) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'text' });
    });

    it('keeps newlines and refuses other control characters, blank text and unknown fields', async () => {
      const { clients } = await seedTrio(ctx);
      const multi = await createPost(clients.alice, 'line one\r\nline two\nline three');
      expect(multi.text).toBe('line one\nline two\nline three');
      for (const body of [
        { text: '   \n  ' },
        { text: 'bell\u0007' },
        { text: 'tab\tbed' },
        { text: 'rtl \u202E override' },
        { text: 'hi', authorId: '2' },
        {},
      ]) {
        const res = await clients.alice.post('/api/posts', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().code).toBe('INVALID_INPUT');
      }
    });

    it('refuses visitors with 401 UNAUTHENTICATED and stores nothing', async () => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.visitor.post('/api/posts', { text: 'hello' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect((await getPage(clients.visitor, '/api/timeline/everyone')).items).toEqual([]);
    });

    it('refuses a write without the CSRF header with 403 CSRF_FAILED', async () => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.alice.post('/api/posts', { text: 'hello' }, { headers: { 'x-csrf-token': '' } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'CSRF_FAILED' });
    });

    it("counts the author's posts", async () => {
      const { alice, clients } = await seedTrio(ctx);
      await createPost(clients.alice, 'one');
      await createPost(clients.alice, 'two');
      const [row] = await ctx.db.db.select({ n: users.postsCount }).from(users).where(eq(users.id, alice.id));
      expect(row!.n).toBe(2);
      const [first] = (await getPage<Post>(clients.alice, `/api/users/${alice.id}/posts`)).items;
      expect((await clients.alice.delete(`/api/posts/${first!.id}`)).statusCode).toBe(204);
      const [after] = await ctx.db.db.select({ n: users.postsCount }).from(users).where(eq(users.id, alice.id));
      expect(after!.n).toBe(1);
    });
  });

  describe('replies', () => {
    it('a reply has a parent, bumps its reply count and is listed oldest first', async () => {
      const { clients } = await seedTrio(ctx);
      const parent = await createPost(clients.alice, 'parent');
      const r1 = await createPost(clients.bob, 'first reply', parent.id);
      const r2 = await createPost(clients.carol, 'second reply', parent.id);
      const r3 = await createPost(clients.alice, 'third reply', parent.id);
      expect(r1.parentId).toBe(parent.id);
      expect((await getPost(clients.visitor, parent.id)).replyCount).toBe(3);

      const page1 = await getPage<Post>(clients.visitor, `/api/posts/${parent.id}/replies`, null, 2);
      expect(page1.items.map((p) => p.id)).toEqual([r1.id, r2.id]);
      expect(page1.nextCursor).toEqual(expect.any(String));
      const page2 = await getPage<Post>(clients.visitor, `/api/posts/${parent.id}/replies`, page1.nextCursor, 2);
      expect(page2.items.map((p) => p.id)).toEqual([r3.id]);
      expect(page2.nextCursor).toBeNull();
    });

    it('replying to an unknown post is 404 NOT_FOUND and creates nothing', async () => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.alice.post('/api/posts', { text: 'hello?', parentId: '999999' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await getPage(clients.alice, '/api/timeline/everyone')).items).toEqual([]);
    });

    it('refuses a malformed parentId with 400', async () => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.alice.post('/api/posts', { text: 'hi', parentId: 'abc' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'parentId' });
    });

    it('listing the replies of an unknown post is 404 NOT_FOUND; a post without replies has an empty list', async () => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.visitor.get('/api/posts/424242/replies');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      const lonely = await createPost(clients.alice, 'nobody answers');
      expect(await getPage(clients.visitor, `/api/posts/${lonely.id}/replies`)).toEqual({
        items: [],
        nextCursor: null,
      });
    });
  });

  describe('GET /api/posts/:id', () => {
    it('is open to visitors, with likedByMe false', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPost(clients.alice, 'hello');
      await clients.alice.put(`/api/posts/${post.id}/like`);
      const seen = await getPost(clients.visitor, post.id);
      expect(seen).toMatchObject({ likeCount: 1, likedByMe: false });
      expect((await getPost(clients.alice, post.id)).likedByMe).toBe(true);
    });

    it('answers 404 NOT_FOUND for an unknown post, also beyond the safe integer range', async () => {
      const { clients } = await seedTrio(ctx);
      for (const id of ['1', '999999999999999999']) {
        const res = await clients.visitor.get(`/api/posts/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
    });

    it('answers 404 NOT_FOUND for a malformed id (no post can have it)', async () => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.visitor.get('/api/posts/abc');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('DELETE /api/posts/:id', () => {
    it('deletes your own post: 204, then 404', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPost(clients.alice, 'oops');
      const res = await clients.alice.delete(`/api/posts/${post.id}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const gone = await clients.alice.get(`/api/posts/${post.id}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({ code: 'NOT_FOUND' });
    });

    it("nobody can delete another person's post: 403 FORBIDDEN, and the post stays", async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPost(clients.alice, 'mine');
      for (const client of [clients.bob, clients.carol]) {
        const res = await client.delete(`/api/posts/${post.id}`);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
      expect((await getPost(clients.visitor, post.id)).text).toBe('mine');
    });

    it('visitors get 401 UNAUTHENTICATED; an unknown post is 404 NOT_FOUND', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPost(clients.alice, 'mine');
      const visitor = await clients.visitor.delete(`/api/posts/${post.id}`);
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      const unknown = await clients.alice.delete('/api/posts/987654');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    });

    it("deleting a post keeps its replies readable; deleting a reply lowers its parent's reply count", async () => {
      const { clients } = await seedTrio(ctx);
      const parent = await createPost(clients.alice, 'parent');
      const reply = await createPost(clients.bob, 'reply', parent.id);
      const other = await createPost(clients.carol, 'another reply', parent.id);
      expect((await clients.carol.delete(`/api/posts/${other.id}`)).statusCode).toBe(204);
      expect((await getPost(clients.visitor, parent.id)).replyCount).toBe(1);

      expect((await clients.alice.delete(`/api/posts/${parent.id}`)).statusCode).toBe(204);
      const orphan = await getPost(clients.visitor, reply.id);
      expect(orphan).toMatchObject({ text: 'reply', parentId: null });
    });
  });

  describe('GET /api/users/:id/posts', () => {
    it("lists one person's posts (replies included), newest first, paginated", async () => {
      const { alice, bob, clients } = await seedTrio(ctx);
      const mine: Post[] = [];
      for (let i = 0; i < 7; i++) mine.push(await createPost(clients.alice, `alice ${i}`));
      const bobs = await createPost(clients.bob, 'bob');
      mine.push(await createPost(clients.alice, 'alice replying', bobs.id));

      const all = await getAll<Post>(clients.visitor, `/api/users/${alice.id}/posts`, 3);
      expect(all.map((p) => p.id)).toEqual(mine.map((p) => p.id).reverse());
      const first = await getPage<Post>(clients.visitor, `/api/users/${bob.id}/posts`);
      expect(first).toEqual({ items: [{ ...bobs, replyCount: 1 }], nextCursor: null });
    });

    it('answers 404 NOT_FOUND for an unknown user and an empty page for someone who never posted', async () => {
      const { carol, clients } = await seedTrio(ctx);
      const res = await clients.visitor.get('/api/users/123456/posts');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect(await getPage(clients.visitor, `/api/users/${carol.id}/posts`)).toEqual({ items: [], nextCursor: null });
    });
  });

  it('malformed cursors on replies and user posts are 400 INVALID_INPUT on the field cursor', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'hello');
    for (const url of [`/api/posts/${post.id}/replies`, `/api/users/${alice.id}/posts`]) {
      const res = await clients.visitor.get(`${url}?cursor=${Buffer.from('yesterday_1').toString('base64url')}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'cursor' });
    }
  });

  it('state-changing post calls all require the CSRF token', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'hello');
    const noCsrf = { headers: { 'x-csrf-token': '' } };
    const calls = [
      () => clients.bob.put(`/api/posts/${post.id}/like`, undefined, noCsrf),
      () => clients.bob.delete(`/api/posts/${post.id}/like`, noCsrf),
      () => clients.alice.delete(`/api/posts/${post.id}`, noCsrf),
      () => clients.bob.put(`/api/users/${alice.id}/follow`, undefined, noCsrf),
      () => clients.bob.delete(`/api/users/${alice.id}/follow`, noCsrf),
      () => clients.bob.post('/api/notifications/read', undefined, noCsrf),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'CSRF_FAILED' });
    }
    expect(await getPost(clients.visitor, post.id)).toMatchObject({ likeCount: 0 });
    const profile = (await clients.visitor.get(`/api/users/${alice.id}/followers`)).json() as { items: User[] };
    expect(profile.items).toEqual([]);
  });
});
