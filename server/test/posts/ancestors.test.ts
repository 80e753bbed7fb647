import { MAX_ANCESTORS, type Post } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema.ts';
import { seedTrio, useTestApp } from '../helpers/app.ts';
import { createPost, getPage, getPost, like } from '../helpers/social.ts';

/** GET /api/posts/:id/ancestors and the `replyTo` of a reply. */
describe('a conversation', () => {
  const ctx = useTestApp();

  const ancestors = async (
    client: { get(url: string): Promise<{ statusCode: number; body: string; json(): unknown }> },
    id: string,
  ) => {
    const res = await client.get(`/api/posts/${id}/ancestors`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: Post[] }).items;
  };

  it('lists the posts above a reply, root first, as the viewer sees them', async () => {
    const { clients } = await seedTrio(ctx);
    const root = await createPost(clients.alice, 'root');
    const middle = await createPost(clients.bob, 'middle', root.id);
    const leaf = await createPost(clients.carol, 'leaf', middle.id);
    await like(clients.carol, root.id);

    const seenByCarol = await ancestors(clients.carol, leaf.id);
    expect(seenByCarol.map((p) => p.text)).toEqual(['root', 'middle']);
    expect(seenByCarol[0]).toMatchObject({ id: root.id, likedByMe: true, likeCount: 1, replyCount: 1, replyTo: null });
    expect(seenByCarol[1]).toEqual(await getPost(clients.carol, middle.id));
    // Visitors read conversations too.
    expect((await ancestors(clients.visitor, leaf.id)).map((p) => [p.text, p.likedByMe])).toEqual([
      ['root', false],
      ['middle', false],
    ]);
    expect(await ancestors(clients.visitor, root.id)).toEqual([]);
  });

  it('says who a reply answers, in its answer, on its page and in lists', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const root = await createPost(clients.alice, 'root');
    expect(root.replyTo).toBeNull();
    const reply = await createPost(clients.bob, 'reply', root.id);
    expect(reply.replyTo).toEqual({ id: String(alice.id), username: 'alice', domain: null });
    expect(await getPost(clients.visitor, reply.id)).toEqual(reply);
    const replies = await getPage<Post>(clients.visitor, `/api/posts/${root.id}/replies`);
    expect(replies.items[0]?.replyTo).toEqual({ id: String(alice.id), username: 'alice', domain: null });
    const byBob = await getPage<Post>(clients.visitor, `/api/users/${bob.id}/posts`);
    expect(byBob.items[0]?.replyTo).toEqual({ id: String(alice.id), username: 'alice', domain: null });
    const everyone = await getPage<Post>(clients.visitor, '/api/timeline/everyone');
    expect(everyone.items.find((p) => p.id === reply.id)?.replyTo?.username).toBe('alice');
  });

  it('starts where a parent was deleted: the reply stands alone', async () => {
    const { clients } = await seedTrio(ctx);
    const root = await createPost(clients.alice, 'root');
    const middle = await createPost(clients.bob, 'middle', root.id);
    const leaf = await createPost(clients.carol, 'leaf', middle.id);
    expect((await clients.bob.delete(`/api/posts/${middle.id}`)).statusCode).toBe(204);
    expect(await ancestors(clients.visitor, leaf.id)).toEqual([]);
    expect(await getPost(clients.visitor, leaf.id)).toMatchObject({ parentId: null, replyTo: null });
  });

  it(`answers at most the nearest ${MAX_ANCESTORS} posts of a longer conversation`, async () => {
    const { alice, clients } = await seedTrio(ctx);
    // A chain longer than the cap, inserted directly: posting it one by one would be slow.
    let parentId: number | null = null;
    const ids: number[] = [];
    for (let i = 0; i < MAX_ANCESTORS + 5; i++) {
      const rows: { id: number }[] = await ctx.db.db
        .insert(posts)
        .values({ authorId: alice.id, parentId, text: `post ${i}` })
        .returning({ id: posts.id });
      parentId = rows[0]!.id;
      ids.push(parentId);
    }
    const items = await ancestors(clients.visitor, String(ids.at(-1)));
    expect(items).toHaveLength(MAX_ANCESTORS);
    expect(items[0]?.text).toBe('post 4');
    expect(items.at(-1)?.text).toBe(`post ${MAX_ANCESTORS + 3}`);
  });

  it('answers 404 NOT_FOUND for an unknown post and 400 INVALID_INPUT for a malformed id', async () => {
    const { clients } = await seedTrio(ctx);
    const missing = await clients.visitor.get('/api/posts/424242/ancestors');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    const malformed = await clients.visitor.get('/api/posts/abc/ancestors');
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
