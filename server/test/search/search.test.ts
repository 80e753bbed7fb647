/**
 * Search (issue 10, part 5): posts by words (PostgreSQL full text with the 'simple' configuration,
 * websearch syntax, newest first, the same on PGlite and PostgreSQL), people by name or username
 * prefix, hashtags by prefix. Any text is a valid search: the worst it does is find nothing.
 */
import type { Post, User } from '@pipit/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insertUser, seedTrio, useTestApp } from '../helpers/app.ts';
import { createPost, follow, getAll, getPage } from '../helpers/social.ts';

const q = (text: string) => encodeURIComponent(text);

describe('search', () => {
  const ctx = useTestApp();

  it('finds posts by words, newest first, any case, with websearch syntax (phrases, OR, -word)', async () => {
    const { clients } = await seedTrio(ctx);
    const a = await createPost(clients.alice, 'Coffee with friends this morning');
    const b = await createPost(clients.bob, 'No COFFEE today, only tea');
    const c = await createPost(clients.carol, 'Tea and a good book');
    await createPost(clients.alice, 'Nothing to see here');
    const texts = async (query: string) =>
      (await getAll<Post>(clients.visitor, `/api/search/posts?q=${q(query)}`, 50)).map((p) => p.id);
    expect(await texts('coffee')).toEqual([b.id, a.id]);
    expect(await texts('Tea')).toEqual([c.id, b.id]);
    expect(await texts('coffee -tea')).toEqual([a.id]);
    expect(await texts('coffee or book')).toEqual([c.id, b.id, a.id]);
    expect(await texts('"good book"')).toEqual([c.id]);
    expect(await texts('"book good"')).toEqual([]);
    // Words as written, no stemming in a language nobody chose: "friend" is not "friends".
    expect(await texts('friend')).toEqual([]);
    expect(await texts('friends')).toEqual([a.id]);
  });

  it('pages post results without skip or repeat, as the viewer sees the posts', async () => {
    const { clients } = await seedTrio(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createPost(clients.alice, `needle number ${i}`)).id);
    for (const limit of [1, 3, 50]) {
      expect((await getAll<Post>(clients.bob, '/api/search/posts?q=needle', limit)).map((p) => p.id)).toEqual(
        [...ids].reverse(),
      );
    }
    await clients.bob.put(`/api/posts/${ids[0]}/like`);
    const page = await getPage<Post>(clients.bob, '/api/search/posts?q=needle&limit=50');
    expect(page.items.find((p) => p.id === ids[0])).toMatchObject({ likedByMe: true, likeCount: 1 });
  });

  it('finds people by name or username prefix (an @ is ignored), exact username first, then most followed', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await insertUser(ctx.db, { username: 'al', name: 'Someone Else' });
    const alba = await insertUser(ctx.db, { username: 'zed', name: 'Alba Rossi' });
    await follow(clients.bob, alba.id);
    await follow(clients.carol, alba.id);
    await follow(clients.bob, alice.id);
    const names = async (query: string, client = clients.visitor) =>
      ((await client.get(`/api/search/people?q=${q(query)}`)).json().items as User[]).map((u) => u.username);
    expect(await names('al')).toEqual(['al', 'zed', 'alice']);
    expect(await names('@AL')).toEqual(['al', 'zed', 'alice']);
    expect(await names('alb')).toEqual(['zed']);
    expect(await names('nobody')).toEqual([]);
    // As the viewer sees them: Bob follows Alba.
    const asBob = (await clients.bob.get('/api/search/people?q=alb')).json().items as User[];
    expect(asBob[0]).toMatchObject({ id: String(alba.id), isFollowing: true, followersCount: 2 });
    // LIKE's own characters are taken literally.
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    expect((await clients.visitor.get('/api/search/people?q=a&limit=2')).json().items).toHaveLength(2);
  });

  it('finds hashtags by prefix (a # is ignored), most used first', async () => {
    const { clients } = await seedTrio(ctx);
    await createPost(clients.alice, '#birds #birdsong');
    await createPost(clients.bob, '#Birds again');
    await createPost(clients.carol, '#birdwatch and #cats');
    const res = await clients.visitor.get(`/api/search/hashtags?q=${q('#Bird')}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [
        { tag: 'birds', posts: 2 },
        { tag: 'birdsong', posts: 1 },
        { tag: 'birdwatch', posts: 1 },
      ],
    });
    expect((await clients.visitor.get('/api/search/hashtags?q=%23')).json()).toEqual({ items: [] });
  });

  it('never fails on any text: hostile, odd or operator-only searches answer 200 (or 400 when empty or too long)', async () => {
    const { clients } = await seedTrio(ctx);
    await createPost(clients.alice, 'something to find');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), async (text) => {
        for (const url of ['/api/search/posts', '/api/search/people', '/api/search/hashtags']) {
          const res = await clients.visitor.get(`${url}?q=${q(text)}`);
          const blank = text.trim().length === 0;
          expect(res.statusCode, `${url} ${JSON.stringify(text)} → ${res.body}`).toBe(blank ? 400 : 200);
        }
      }),
      { numRuns: 60 },
    );
    for (const text of ['!!!', '"', '-', 'or', '&|!():*', "'; drop table posts; --", '\\', '%_%']) {
      const res = await clients.visitor.get(`/api/search/posts?q=${q(text)}`);
      expect(res.statusCode, text).toBe(200);
    }
  });

  it('an empty, blank or over-long search is 400 INVALID_INPUT on the field q; so is a bad limit', async () => {
    const { clients } = await seedTrio(ctx);
    for (const [url, field] of [
      ['/api/search/posts', 'q'],
      ['/api/search/posts?q=', 'q'],
      ['/api/search/posts?q=%20%20', 'q'],
      [`/api/search/posts?q=${'a'.repeat(201)}`, 'q'],
      ['/api/search/people?q=', 'q'],
      ['/api/search/hashtags', 'q'],
      ['/api/search/people?q=a&limit=21', 'limit'],
      ['/api/search/hashtags?q=a&limit=0', 'limit'],
      ['/api/search/posts?q=a&cursor=nope!', 'cursor'],
    ] as const) {
      const res = await clients.visitor.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'INVALID_INPUT', field });
    }
  });
});
