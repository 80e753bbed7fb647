/**
 * Item 2: who may do what. Every state-changing call × {visitor, another member, the owner}:
 * visitors get 401 and nothing changes; another member gets 403/404 on someone else's resource, and
 * on calls that act on the caller's own rows touches only their own rows; the owner succeeds. The
 * members-only reads answer 401 to visitors, and no answer anywhere carries a password hash or
 * another member's email. Mass assignment: fields outside the contract are refused (400, nothing
 * written) or, on calls that take no body, ignored.
 */
import { endpoints } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/client.ts';
import { useTestApp } from '../helpers/app.ts';
import {
  expectCodedClientError,
  fillParams,
  fingerprint,
  isProductWrite,
  listRoutes,
  queryRows,
  routeKey,
  seedWorld,
  sendCall,
  type World,
  WRITE_CALLS,
  type WriteCall,
} from './support.ts';

const rows = queryRows;

/** The rows that belong to alice and bob (what carol must not be able to change), as text. */
async function othersRows(db: DbHandle, w: World): Promise<string> {
  const [a, b] = [w.ids.alice, w.ids.bob];
  const parts = await Promise.all([
    rows(
      db,
      `SELECT id, email, username, name, bio, password_hash, profile_image, cover_image FROM users WHERE id IN (${a}, ${b}) ORDER BY id`,
    ),
    rows(db, `SELECT id, author_id, text, parent_id FROM posts WHERE author_id IN (${a}, ${b}) ORDER BY id`),
    rows(db, `SELECT user_id, post_id FROM likes WHERE user_id IN (${a}, ${b}) ORDER BY 1, 2`),
    rows(db, `SELECT follower_id, followee_id FROM follows WHERE follower_id IN (${a}, ${b}) ORDER BY 1, 2`),
    rows(db, `SELECT user_id, tag FROM followed_tags WHERE user_id IN (${a}, ${b}) ORDER BY 1, 2`),
    // New notifications for them (carol liked or followed) are expected; their existing ones must not move.
    rows(
      db,
      `SELECT id, read_at FROM notifications WHERE user_id IN (${a}, ${b}) AND actor_id <> ${w.ids.carol} ORDER BY id`,
    ),
    rows(db, `SELECT id, user_id FROM sessions WHERE user_id IN (${a}, ${b}) ORDER BY id`),
  ]);
  return JSON.stringify(parts);
}

describe('who may do what', () => {
  const ctx = useTestApp();

  it('the matrix covers every state-changing /api route', () => {
    const registered = listRoutes(ctx.app).filter(isProductWrite).map(routeKey).sort();
    expect(registered).toEqual(WRITE_CALLS.map(routeKey).sort());
  });

  for (const call of WRITE_CALLS) {
    const key = routeKey(call);

    if (call.owner !== 'visitor') {
      it(`${key} — visitor: 401 UNAUTHENTICATED, nothing written`, async () => {
        const w = await seedWorld(ctx);
        const before = await fingerprint(ctx.db, ctx.config.mediaDir);
        const res = await sendCall(w.visitor, call, w);
        expect(res.statusCode, res.body).toBe(401);
        expect(expectCodedClientError(res, key)).toBe('UNAUTHENTICATED');
        expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
      });
    }

    it(`${key} — another member: ${call.scope === 'resource' ? '403/404, nothing written' : 'touches only their own rows'}`, async () => {
      const w = await seedWorld(ctx);
      const before = await fingerprint(ctx.db, ctx.config.mediaDir);
      const others = await othersRows(ctx.db, w);
      const res = await sendCall(w.carol, call, w);
      if (call.scope === 'resource') {
        expect([403, 404], res.body).toContain(res.statusCode);
        expectCodedClientError(res, key);
        expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
      } else {
        expect(res.statusCode, res.body).toBeLessThan(300);
        expect(await othersRows(ctx.db, w), `${key} by carol changed alice's or bob's rows`).toBe(others);
      }
    });

    it(`${key} — owner (${call.owner}): succeeds`, async () => {
      const w = await seedWorld(ctx);
      const before = await fingerprint(ctx.db, ctx.config.mediaDir);
      const res = await sendCall(w[call.owner], call, w);
      expect(res.statusCode, res.body).toBeLessThan(300);
      // What a call leaves to the background (a password-reset email and its token) is done by now.
      await ctx.app.services.jobs.drain();
      expect(await fingerprint(ctx.db, ctx.config.mediaDir), `${key} by its owner changed nothing`).not.toEqual(before);
    });
  }

  it("the person blocked: sees none of the blocker's posts, cannot follow, reply, quote, like or repost them", async () => {
    const w = await seedWorld(ctx);
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    const refused = [
      [await w.frank.put(`/api/users/${w.ids.alice}/follow`), 403],
      [await w.frank.post('/api/posts', { text: 'a reply', parentId: w.alicePost }), 404],
      [await w.frank.post('/api/posts', { text: 'a quote', quoteOfId: w.alicePost }), 404],
      [await w.frank.put(`/api/posts/${w.alicePost}/like`), 404],
      [await w.frank.put(`/api/posts/${w.alicePost}/repost`), 404],
      [await w.frank.put(`/api/posts/${w.alicePost}/bookmark`), 404],
      [await w.frank.get(`/api/posts/${w.alicePost}`), 404],
    ] as const;
    for (const [res, status] of refused) {
      expect(res.statusCode, res.body).toBe(status);
      expectCodedClientError(res);
    }
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
    expect((await w.frank.get(`/api/users/${w.ids.alice}/posts`)).json().items).toEqual([]);
    const everyone = (await w.frank.get('/api/timeline/everyone')).json().items as { author: { id: string } }[];
    expect(everyone.length).toBeGreaterThan(0);
    expect(everyone.filter((p) => p.author.id === w.ids.alice)).toEqual([]);
    // What the blocker's profile says to them never tells who blocked whom.
    expect((await w.frank.get(`/api/users/${w.ids.alice}`)).json()).toMatchObject({
      isBlocking: false,
      isMuting: false,
    });
  });

  it('moderators and admins: members get 403 on every moderation call, moderators all but naming moderators, admins all', async () => {
    const w = await seedWorld(ctx);
    const reads = [
      '/api/moderation/reports',
      '/api/moderation/accounts?filter=team',
      '/api/moderation/log',
      '/api/moderation/domains',
    ];
    for (const url of reads) {
      expect((await w.visitor.get(url)).statusCode, url).toBe(401);
      for (const member of [w.alice, w.carol, w.frank]) {
        const res = await member.get(url);
        expect([res.statusCode, expectCodedClientError(res, url)]).toEqual([403, 'FORBIDDEN']);
      }
      for (const staff of [w.mo, w.ada]) expect((await staff.get(url)).statusCode, url).toBe(200);
    }
    // Members: every moderation write refused, nothing written.
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    for (const call of WRITE_CALLS.filter((c) => c.route.startsWith('/api/moderation/'))) {
      for (const member of [w.alice, w.bob, w.frank]) {
        const res = await sendCall(member, call, w);
        expect([res.statusCode, expectCodedClientError(res, routeKey(call))], routeKey(call)).toEqual([
          403,
          'FORBIDDEN',
        ]);
      }
    }
    // A moderator cannot name moderators, suspend an admin, or block or unblock a server; nothing written either.
    const byMo = [
      await w.mo.put(`/api/moderation/users/${w.ids.bob}/role`, { role: 'moderator' }),
      await w.mo.put(`/api/moderation/users/${w.ids2.ada}/suspension`),
      await w.mo.post('/api/moderation/domains', { domain: 'spam.example' }),
      await w.mo.delete('/api/moderation/domains/blocked.example'),
    ];
    for (const res of byMo) expect([res.statusCode, expectCodedClientError(res)]).toEqual([403, 'FORBIDDEN']);
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
    // The admin does what a moderator does.
    expect(
      (await w.ada.post(`/api/moderation/reports/${w.bobPostReport}/resolve`, { action: 'dismiss' })).statusCode,
    ).toBe(200);
    expect((await w.ada.delete(`/api/moderation/users/${w.gusId}/suspension`)).statusCode).toBe(200);
    // The person blocked cannot report a post of the blocker's they cannot see; the blocker can report theirs.
    const hidden = await w.frank.post(`/api/posts/${w.alicePost}/report`, { category: 'spam' });
    expect([hidden.statusCode, expectCodedClientError(hidden)]).toEqual([404, 'NOT_FOUND']);
    const franks = (await w.frank.post('/api/posts', { text: 'frank writes' })).json() as { id: string };
    expect((await w.alice.post(`/api/posts/${franks.id}/report`, { category: 'harassment' })).statusCode).toBe(201);
  });

  it('members-only reads answer 401 to visitors; each member sees only their own notifications and bookmarks', async () => {
    const w = await seedWorld(ctx);
    // Every read the endpoint table says a visitor is refused (UNAUTHENTICATED), with a valid query.
    const membersOnly = Object.values(endpoints).filter(
      (e) => e.method === 'GET' && (e.errors as readonly string[]).includes('UNAUTHENTICATED'),
    );
    expect(membersOnly.map((e) => e.path)).toContain('/api/oauth/apps');
    // Path parameters filled with an id (a visitor asking for list 1 is refused before anything is looked up).
    for (const url of membersOnly.map((e) =>
      e.path === '/api/moderation/accounts'
        ? `${e.path}?filter=team`
        : // Searching people is for everyone; asking another server for someone (resolve) is for members.
          e.path === '/api/search/people'
          ? `${e.path}?q=${encodeURIComponent('@carol@elsewhere.test')}&resolve=true`
          : fillParams(e.path.replace(':tag', 'birds'), '1'),
    )) {
      const res = await w.visitor.get(url);
      expect(res.statusCode, url).toBe(401);
      expect(expectCodedClientError(res, url)).toBe('UNAUTHENTICATED');
    }
    const mine = (await w.alice.get('/api/notifications')).json().items as { actor: { id: string } }[];
    expect(mine.length).toBeGreaterThan(0);
    expect((await w.carol.get('/api/notifications')).json().items).toEqual([]);
    expect((await w.alice.get('/api/current')).json().id).toBe(w.ids.alice);
    // Alice's bookmark is hers alone: in her list and on her view of the post, nowhere for Bob or Carol.
    expect((await w.alice.get('/api/bookmarks')).json().items.map((p: { id: string }) => p.id)).toEqual([w.bobPost]);
    expect((await w.alice.get(`/api/posts/${w.bobPost}`)).json().bookmarkedByMe).toBe(true);
    for (const other of [w.bob, w.carol]) {
      expect((await other.get('/api/bookmarks')).json().items).toEqual([]);
      expect((await other.get(`/api/posts/${w.bobPost}`)).json().bookmarkedByMe).toBe(false);
    }
    expect((await w.visitor.get(`/api/posts/${w.bobPost}`)).json().bookmarkedByMe).toBe(false);
  });

  it("no answer carries a password hash, a session token or another member's email", async () => {
    const w = await seedWorld(ctx);
    const secrets = await rows(ctx.db, 'SELECT password_hash, email FROM users');
    const sessionHashes = await rows(ctx.db, 'SELECT token_hash FROM sessions');
    const forbidden = [
      ...secrets.map((r) => String(r.password_hash)),
      ...sessionHashes.map((r) => String(r.token_hash)),
      'password_hash',
      'passwordHash',
      'alice@example.com',
      'bob@example.com',
    ];
    const gets = listRoutes(ctx.app).filter((r) => r.method === 'GET' && r.url.startsWith('/api/'));
    for (const route of gets) {
      const url = route.url
        .replace(':provider', 'credentials')
        .replace(':id', route.url.includes('/posts/') ? w.alicePost : w.ids.alice);
      for (const client of [w.carol, w.visitor]) {
        const res = await client.get(url);
        for (const secret of forbidden) {
          expect(res.body.includes(secret), `${url} leaks ${secret.slice(0, 20)}…`).toBe(false);
        }
      }
    }
    // The signed-in person does see their own email, in /api/current and the session.
    expect((await w.carol.get('/api/current')).json().email).toBe('carol@example.com');
  });
});

describe('mass assignment', () => {
  const ctx = useTestApp();

  /** Fields a client might try to set; none is in any request schema. */
  const smuggled = (w: World): Record<string, unknown> => ({
    id: w.ids.bob,
    userId: w.ids.bob,
    authorId: w.ids.bob,
    email: 'evil@example.com',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$AAAA$BBBB',
    password_hash: 'x',
    isAdmin: true,
    role: 'admin',
    followersCount: 1_000_000,
    likeCount: 1_000_000,
    postsCount: -5,
    hasNotification: false,
    createdAt: '2000-01-01T00:00:00.000Z',
  });

  it('a body with fields outside the contract is refused with 400 and nothing is written', async () => {
    const w = await seedWorld(ctx);
    const withBody = WRITE_CALLS.filter((c) => c.body);
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    for (const call of withBody) {
      const own = Object.keys(call.body!(w) as object);
      for (const [field, value] of Object.entries(smuggled(w)).filter(([f]) => !own.includes(f))) {
        const res = await w[call.owner].request(call.method, call.url(w), {
          ...(call.body!(w) as object),
          [field]: value,
        });
        expect(res.statusCode, `${routeKey(call)} + ${field}: ${res.body}`).toBe(400);
        expect(res.json().code).toBe('INVALID_INPUT');
      }
    }
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
  });

  it("calls that take no body ignore one: the write is the caller's, with nothing smuggled in", async () => {
    const w = await seedWorld(ctx);
    const bodyless = WRITE_CALLS.filter((c: WriteCall) => !c.body && c.owner !== 'visitor');
    for (const call of bodyless) {
      const res = await w.carol.request(call.method, call.url(w), smuggled(w));
      expect(res.statusCode, `${routeKey(call)}: ${res.body}`).toBeLessThan(500);
    }
    // carol's like and follow are carol's; nobody's counters or identity moved to the smuggled values.
    const users = await rows(
      ctx.db,
      'SELECT id::text AS id, email, followers_count, posts_count FROM users ORDER BY id',
    );
    for (const u of users) {
      expect(u.email).not.toBe('evil@example.com');
      expect(Number(u.followers_count)).toBeLessThan(10);
      expect(Number(u.posts_count)).toBeGreaterThanOrEqual(0);
    }
    const likes = await rows(ctx.db, 'SELECT user_id::text AS u FROM likes');
    const follows = await rows(ctx.db, 'SELECT follower_id::text AS f FROM follows');
    // bob liked nothing and alice follows nobody in the seeded world; carol's writes did not become theirs.
    expect(likes.filter((l) => l.u === w.ids.bob)).toEqual([]);
    expect(follows.filter((f) => f.f === w.ids.alice)).toEqual([]);
    const posts = await rows(ctx.db, 'SELECT like_count FROM posts');
    for (const p of posts) expect(Number(p.like_count)).toBeLessThan(10);
  });

  it('an edit writes only the fields it names', async () => {
    const w = await seedWorld(ctx);
    const [before] = await rows(ctx.db, `SELECT * FROM users WHERE id = ${w.ids.alice}`);
    const res = await w.alice.patch('/api/edit', { bio: 'only the bio' });
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await rows(ctx.db, `SELECT * FROM users WHERE id = ${w.ids.alice}`);
    const changed = Object.keys(after!).filter((k) => JSON.stringify(after![k]) !== JSON.stringify(before![k]));
    expect(changed.sort()).toEqual(['bio', 'updated_at']);
  });
});
