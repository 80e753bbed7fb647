/**
 * Hashtags (issue 10, part 4): extracted when a post is written by the rule the web links them with
 * (contract HASHTAG_PATTERN), stored NFKC-normalised and lower-cased; GET /api/hashtags/:tag/posts
 * lists a tag's posts newest first for anyone; GET /api/hashtags/trending counts distinct people
 * per tag over the last 24 hours.
 */
import { extractHashtags, hashtagOf, type Post } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seedTrio, useTestApp } from '../helpers/app.ts';
import { createPost, getAll, getPage } from '../helpers/social.ts';

describe('the hashtag rule (contract)', () => {
  it('takes letters, digits, _ and combining marks after #, needs a letter, and not inside a word or a URL', () => {
    expect(
      extractHashtags(
        '#Pipit and #pipit, #café #CAFÉ #Cafe\u0301 #２０２６年 #_x #1 #12 a#b https://x.org/#frag &#38;',
      ),
    ).toEqual(['pipit', 'café', '２０２６年'.normalize('NFKC'), '_x']);
    expect(hashtagOf('Ｐｉｐｉｔ')).toBe('pipit'); // full-width letters: NFKC
    expect(hashtagOf('a'.repeat(100))).toBe('a'.repeat(100));
    expect(hashtagOf('a'.repeat(101))).toBeNull();
    expect(hashtagOf('12')).toBeNull();
    expect(hashtagOf('bad-tag')).toBeNull();
  });
});

describe('hashtags', () => {
  const ctx = useTestApp();

  it("lists a tag's posts newest first, whatever case or form it was written or asked in", async () => {
    const { clients } = await seedTrio(ctx);
    const first = await createPost(clients.alice, 'Morning #Café');
    await createPost(clients.bob, 'no tag here');
    const second = await createPost(clients.bob, 'Evening #CAFE\u0301 and #birds');
    const reply = await createPost(clients.carol, 'me too #café', first.id);
    for (const asked of ['café', 'CAFÉ', 'Cafe\u0301']) {
      const page = await getPage<Post>(clients.visitor, `/api/hashtags/${encodeURIComponent(asked)}/posts`);
      expect(
        page.items.map((p) => p.id),
        asked,
      ).toEqual([reply.id, second.id, first.id]);
    }
    expect((await getPage<Post>(clients.visitor, '/api/hashtags/birds/posts')).items.map((p) => p.id)).toEqual([
      second.id,
    ]);
    // As the viewer sees them.
    await clients.bob.put(`/api/posts/${first.id}/like`);
    const asBob = await getPage<Post>(clients.bob, '/api/hashtags/caf%C3%A9/posts');
    expect(asBob.items.find((p) => p.id === first.id)).toMatchObject({ likedByMe: true, likeCount: 1 });
    // An unknown tag is an empty page, not an error.
    expect(await getPage(clients.visitor, '/api/hashtags/nobodyusesthis/posts')).toEqual({
      items: [],
      nextCursor: null,
    });
  });

  it('pages without skip or repeat, and a deleted post leaves its tags', async () => {
    const { clients } = await seedTrio(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createPost(clients.alice, `${i} #paging`)).id);
    for (const limit of [1, 2, 3, 50]) {
      expect((await getAll<Post>(clients.visitor, '/api/hashtags/paging/posts', limit)).map((p) => p.id)).toEqual(
        [...ids].reverse(),
      );
    }
    expect((await clients.alice.delete(`/api/posts/${ids[3]}`)).statusCode).toBe(204);
    const after = (await getAll<Post>(clients.visitor, '/api/hashtags/paging/posts', 2)).map((p) => p.id);
    expect(after).toEqual([...ids].reverse().filter((id) => id !== ids[3]));
  });

  it('trending: most distinct people in the last 24 hours first, then by name; older posts do not count', async () => {
    const { clients } = await seedTrio(ctx);
    await createPost(clients.alice, '#solo #solo again');
    await createPost(clients.alice, '#solo once more');
    await createPost(clients.alice, '#trio');
    await createPost(clients.bob, '#trio #duo');
    await createPost(clients.carol, '#Trio #duo');
    const old = await createPost(clients.bob, '#yesterday');
    await createPost(clients.carol, '#yesterday');
    await ctx.db.db.execute(
      sql`update post_hashtags set created_at = now() - interval '25 hours' where post_id = ${Number(old.id)}`,
    );
    ctx.app.services.events.resync(); // written straight to the database
    const res = await clients.visitor.get('/api/hashtags/trending');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [
        { tag: 'trio', people: 3 },
        { tag: 'duo', people: 2 },
        { tag: 'solo', people: 1 },
        { tag: 'yesterday', people: 1 },
      ],
    });
  });

  it('trending follows a new tagged post and a delete at once (its reused answer is dropped)', async () => {
    const { clients } = await seedTrio(ctx);
    const trending = async () => (await clients.visitor.get('/api/hashtags/trending')).json().items;
    expect(await trending()).toEqual([]);
    const post = await createPost(clients.alice, 'now #fresh');
    expect(await trending()).toEqual([{ tag: 'fresh', people: 1 }]);
    await clients.alice.delete(`/api/posts/${post.id}`);
    expect(await trending()).toEqual([]);
  });

  it('a tag that is not a hashtag is 400 INVALID_INPUT on the field tag; so are a bad limit and cursor', async () => {
    const { clients } = await seedTrio(ctx);
    for (const [url, field] of [
      ['/api/hashtags/12/posts', 'tag'],
      ['/api/hashtags/bad-tag/posts', 'tag'],
      [`/api/hashtags/${'a'.repeat(101)}/posts`, 'tag'],
      ['/api/hashtags/%3Cscript%3E/posts', 'tag'],
      ['/api/hashtags/ok/posts?limit=0', 'limit'],
      ['/api/hashtags/ok/posts?cursor=nope!', 'cursor'],
    ] as const) {
      const res = await clients.visitor.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'INVALID_INPUT', field });
    }
  });
});
