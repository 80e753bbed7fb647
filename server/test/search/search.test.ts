/**
 * Search (issue 10, part 5): posts by words (PostgreSQL full text with the 'simple' configuration,
 * websearch syntax, newest first, the same on PGlite and PostgreSQL), people by name or username
 * prefix, hashtags by prefix. Any text is a valid search: the worst it does is find nothing.
 */
import type { Post, User } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPostMatches } from '../../src/modules/search/search.repository.ts';
import { matchPathOf, SearchService } from '../../src/modules/search/search.service.ts';
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

describe('search: the way to the matches', () => {
  const ctx = useTestApp();

  it('reads a frequent word from the newest posts and a rare one from the index, with the same answers either way', async () => {
    const { clients } = await seedTrio(ctx);
    const posts: Post[] = [];
    // Zebra in one post of 121 (under 1 %): rare; coffee in all but one.
    for (let i = 0; i < 120; i++) {
      posts.push(await createPost(clients.alice, `coffee number ${i}${i === 7 ? ' with zebra' : ''}`));
    }
    await createPost(clients.bob, 'tea only');
    // Before ANALYZE the statistics know no word: every search takes the index.
    expect(await ctx.app.services.search.matchPath('coffee')).toBe('rare');
    await ctx.db.db.execute(sql`analyze posts`);
    // The service reads the statistics at most every 10 minutes: a new service reads them now.
    const search = new SearchService(ctx.db.db);
    expect(await search.matchPath('coffee')).toBe('common');
    expect(await search.matchPath('zebra')).toBe('rare');
    expect(await search.matchPath('coffee zebra')).toBe('rare');
    expect(await search.matchPath('coffee -zebra')).toBe('common');

    // Both ways answer the same pages, for common, rare and mixed queries, paged by cursor.
    for (const query of ['coffee', 'zebra', 'coffee zebra', 'coffee -zebra', 'number or tea', '"with zebra"']) {
      const pages = await Promise.all(
        (['common', 'rare'] as const).map(async (path) => {
          const ids: number[] = [];
          let cursor = null;
          for (;;) {
            const rows = await findPostMatches(ctx.db.db, null, query, cursor, 7, 0, path);
            const shown = rows.slice(0, 7);
            ids.push(...shown.map((r) => r.id));
            const last = shown[shown.length - 1];
            if (rows.length <= 7 || !last) break;
            cursor = { t: last.cursorTime, id: last.id };
          }
          return ids;
        }),
      );
      expect(pages[1], query).toEqual(pages[0]);
      expect(pages[0]?.length, query).toBeGreaterThan(0);
    }
    // And through HTTP, newest first.
    const zebra = (await getAll<Post>(clients.visitor, `/api/search/posts?q=${q('zebra')}`, 50)).map((p) => p.id);
    expect(zebra).toEqual([posts[7]?.id]);
  });

  it('counts a word as frequent from 1 % of the posts up, and ignores what after `-` is excluded', () => {
    const frequent = new Map([
      ['coffee', 0.16],
      ['tea', 0.02],
      ['zebra', 0.001],
    ]);
    expect(matchPathOf('Coffee', frequent)).toBe('common');
    expect(matchPathOf('coffee tea', frequent)).toBe('common');
    expect(matchPathOf('coffee zebra', frequent)).toBe('rare');
    expect(matchPathOf('coffee -zebra', frequent)).toBe('common');
    expect(matchPathOf('unknown', frequent)).toBe('rare');
    expect(matchPathOf('zebra or coffee', frequent)).toBe('common');
    expect(matchPathOf('"coffee, tea"', frequent)).toBe('common');
    expect(matchPathOf('!!!', frequent)).toBe('common');
  });
});
