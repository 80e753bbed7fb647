/**
 * Mastodon's grouped notifications (API v2, Mastodon 4.3): likes of one post, reposts of one post
 * and follows grouped within a 12-hour window, the rest alone; filters, pages by group, a group by
 * its key and its people, dismissal, unread counts, who sees what, scopes and refusals. Every
 * answer is checked against the Mastodon OpenAPI description.
 */
import type { Post } from '@pipit/contract';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../src/db/schema.ts';
import { authorizeApp, insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { createPost, follow, like } from '../helpers/social.ts';
import { mastodonCall } from './openapi.ts';

interface Group {
  group_key: string;
  notifications_count: number;
  type: string;
  most_recent_notification_id: number;
  page_min_id?: string;
  page_max_id?: string;
  latest_page_notification_at?: string;
  sample_account_ids: string[];
  status_id?: string;
}
interface Results {
  accounts: { id: string }[];
  partial_accounts?: { id: string }[];
  statuses: { id: string }[];
  notification_groups: Group[];
}

describe('Mastodon grouped notifications', () => {
  const ctx = useTestApp();

  /** A request with a token, its answer (whatever its status) checked against the description. */
  const call = (token: string | null, method: 'GET' | 'POST', url: string) =>
    mastodonCall(ctx.app, { method, url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const ok = <T = Results>(res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  /** The Link header's URL for `rel`, as a query. */
  const linked = (res: LightMyRequestResponse, rel: string) => {
    const match = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(String(res.headers.link ?? ''));
    return match ? new URL(match[1] as string).searchParams : null;
  };

  /** alice, who is told things, and five others with signed-in clients; alice's token (read write). */
  async function world() {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    const more = await Promise.all(['dave', 'erin', 'finn'].map((u) => insertUser(ctx.db, { username: u })));
    const [dave, erin, finn] = await Promise.all(more.map((u) => new TestClient(ctx).signInAs(u.id)));
    const { token } = await authorizeApp(ctx.app, alice.id, 'read write');
    const ids = {
      alice: String(alice.id),
      bob: String(bob.id),
      carol: String(carol.id),
      dave: String(more[0]!.id),
      erin: String(more[1]!.id),
      finn: String(more[2]!.id),
    };
    return {
      token,
      ids,
      alice: clients.alice,
      bob: clients.bob,
      carol: clients.carol,
      dave: dave!,
      erin: erin!,
      finn: finn!,
    };
  }

  it('groups likes of one post, reposts of one post and follows; mentions and replies stand alone', async () => {
    const w = await world();
    const first = await createPost(w.alice, 'first');
    const second = await createPost(w.alice, 'second');
    for (const who of [w.bob, w.carol, w.dave]) await like(who, first.id);
    await like(w.carol, second.id);
    for (const who of [w.bob, w.erin]) expect((await who.put(`/api/posts/${second.id}/repost`)).statusCode).toBe(200);
    await follow(w.bob, w.ids.alice);
    await follow(w.carol, w.ids.alice);
    const mention1 = await createPost(w.erin, 'hi @alice');
    const mention2 = await createPost(w.erin, 'again @alice');
    const reply = await createPost(w.finn, 'a reply', first.id);

    const page = ok(await call(w.token, 'GET', '/api/v2/notifications'));
    const groups = page.notification_groups;
    const window = groups[groups.length - 1]?.group_key.split('-').pop();
    expect(Number(window) % 12).toBe(0);
    expect(groups.map((g) => [g.group_key, g.type, g.notifications_count])).toEqual([
      [`ungrouped-${groups[0]!.most_recent_notification_id}`, 'mention', 1],
      [`ungrouped-${groups[1]!.most_recent_notification_id}`, 'mention', 1],
      [`ungrouped-${groups[2]!.most_recent_notification_id}`, 'mention', 1],
      [`follow-${window}`, 'follow', 2],
      [`reblog-${second.id}-${window}`, 'reblog', 2],
      [`favourite-${second.id}-${window}`, 'favourite', 1],
      [`favourite-${first.id}-${window}`, 'favourite', 3],
    ]);
    const byKey = new Map(groups.map((g) => [g.group_key, g]));
    // Samples newest first; the statuses each group is about.
    expect(byKey.get(`favourite-${first.id}-${window}`)?.sample_account_ids).toEqual([
      w.ids.dave,
      w.ids.carol,
      w.ids.bob,
    ]);
    expect(byKey.get(`follow-${window}`)?.sample_account_ids).toEqual([w.ids.carol, w.ids.bob]);
    expect(byKey.get(`follow-${window}`)?.status_id).toBeUndefined();
    expect(groups.map((g) => g.status_id)).toEqual([
      reply.id,
      mention2.id,
      mention1.id,
      undefined,
      second.id,
      second.id,
      first.id,
    ]);
    // Each account and status once.
    expect(page.accounts.map((a) => a.id).sort()).toEqual(
      [w.ids.bob, w.ids.carol, w.ids.dave, w.ids.erin, w.ids.finn].sort(),
    );
    expect(page.statuses.map((s) => s.id).sort()).toEqual(
      [first.id, second.id, mention1.id, mention2.id, reply.id].sort(),
    );
    expect(page.partial_accounts).toBeUndefined();

    // v1's group_key is the group's: an app merges a notification into its group by it.
    const v1 = ok<{ id: string; group_key: string }[]>(await call(w.token, 'GET', '/api/v1/notifications'));
    expect(v1).toHaveLength(11);
    const members = (key: string) => v1.filter((n) => n.group_key === key).map((n) => n.id);
    for (const g of groups) {
      const ids = members(g.group_key);
      expect(ids).toHaveLength(g.notifications_count);
      expect(ids[0]).toBe(String(g.most_recent_notification_id));
      expect([g.page_max_id, g.page_min_id]).toEqual([ids[0], ids[ids.length - 1]]);
    }

    // Only favourites group when asked so: follows and reposts each stand alone.
    const likesOnly = ok(await call(w.token, 'GET', '/api/v2/notifications?grouped_types[]=favourite'));
    expect(likesOnly.notification_groups.map((g) => g.group_key.split('-')[0])).toEqual([
      ...Array(7).fill('ungrouped'),
      'favourite',
      'favourite',
    ]);

    // partial_avatars: each group's newest person whole, the others as avatars.
    const partial = ok(await call(w.token, 'GET', '/api/v2/notifications?expand_accounts=partial_avatars'));
    expect(partial.accounts.map((a) => a.id).sort()).toEqual([w.ids.carol, w.ids.dave, w.ids.erin, w.ids.finn].sort());
    expect(partial.partial_accounts?.map((a) => a.id)).toEqual([w.ids.bob]);
  });

  it('one group by its key, its people page by page, and its dismissal', async () => {
    const w = await world();
    const post = await createPost(w.alice, 'liked a lot');
    const likers = [w.bob, w.carol, w.dave, w.erin, w.finn];
    for (const who of likers) await like(who, post.id);
    await follow(w.bob, w.ids.alice);
    const page = ok(await call(w.token, 'GET', '/api/v2/notifications'));
    const liked = page.notification_groups.find((g) => g.type === 'favourite')!;

    const one = ok(await call(w.token, 'GET', `/api/v2/notifications/${liked.group_key}`));
    expect(one.notification_groups).toEqual([
      {
        group_key: liked.group_key,
        notifications_count: 5,
        type: 'favourite',
        most_recent_notification_id: liked.most_recent_notification_id,
        sample_account_ids: [w.ids.finn, w.ids.erin, w.ids.dave, w.ids.carol, w.ids.bob],
        status_id: post.id,
      },
    ]);
    expect(one.statuses.map((s) => s.id)).toEqual([post.id]);

    const firstTwo = await call(w.token, 'GET', `/api/v2/notifications/${liked.group_key}/accounts?limit=2`);
    expect(ok<{ id: string }[]>(firstTwo).map((a) => a.id)).toEqual([w.ids.finn, w.ids.erin]);
    const next = linked(firstTwo, 'next');
    expect(next?.get('limit')).toBe('2');
    const rest = await call(
      w.token,
      'GET',
      `/api/v2/notifications/${liked.group_key}/accounts?limit=2&max_id=${next?.get('max_id')}`,
    );
    expect(ok<{ id: string }[]>(rest).map((a) => a.id)).toEqual([w.ids.dave, w.ids.carol]);

    // Dismissed: the whole group is gone, the follow stays.
    expect(ok<object>(await call(w.token, 'POST', `/api/v2/notifications/${liked.group_key}/dismiss`))).toEqual({});
    const after = ok(await call(w.token, 'GET', '/api/v2/notifications'));
    expect(after.notification_groups.map((g) => g.type)).toEqual(['follow']);
    expect(ok<unknown[]>(await call(w.token, 'GET', '/api/v1/notifications'))).toHaveLength(1);
    expect((await call(w.token, 'GET', `/api/v2/notifications/${liked.group_key}`)).statusCode).toBe(404);
    expect((await call(w.token, 'POST', `/api/v2/notifications/${liked.group_key}/dismiss`)).statusCode).toBe(404);
    // An ungrouped one by its key.
    const alone = after.notification_groups[0]!;
    const byId = `ungrouped-${alone.most_recent_notification_id}`;
    expect(ok(await call(w.token, 'GET', `/api/v2/notifications/${byId}`)).notification_groups[0]?.type).toBe('follow');
    expect(ok<object>(await call(w.token, 'POST', `/api/v2/notifications/${byId}/dismiss`))).toEqual({});
    expect(ok(await call(w.token, 'GET', '/api/v2/notifications')).notification_groups).toEqual([]);
  });

  it('keeps a window of 12 hours: likes of one post half a day apart are two groups', async () => {
    const w = await world();
    const post = await createPost(w.alice, 'slow burner');
    const hour = 3_600_000;
    const start = Math.floor(Date.now() / (12 * hour)) * 12 * hour - 24 * hour; // a window's first hour, a day ago
    const at = (hours: number) => new Date(start + hours * hour);
    await ctx.db.db.insert(notifications).values([
      {
        userId: Number(w.ids.alice),
        actorId: Number(w.ids.bob),
        type: 'like',
        postId: Number(post.id),
        createdAt: at(1),
      },
      {
        userId: Number(w.ids.alice),
        actorId: Number(w.ids.carol),
        type: 'like',
        postId: Number(post.id),
        createdAt: at(11.5),
      },
      {
        userId: Number(w.ids.alice),
        actorId: Number(w.ids.dave),
        type: 'like',
        postId: Number(post.id),
        createdAt: at(12.5),
      },
    ]);
    const groups = ok(await call(w.token, 'GET', '/api/v2/notifications')).notification_groups;
    const firstHour = start / hour;
    expect(groups.map((g) => [g.group_key, g.notifications_count])).toEqual([
      [`favourite-${post.id}-${firstHour + 12}`, 1],
      [`favourite-${post.id}-${firstHour}`, 2],
    ]);
    expect(groups[1]?.latest_page_notification_at).toBe(at(11.5).toISOString());
  });

  it('filters by types, exclude_types and account_id; kinds it does not know are left out', async () => {
    const w = await world();
    const post = await createPost(w.alice, 'filtered');
    await like(w.bob, post.id);
    await like(w.carol, post.id);
    await follow(w.bob, w.ids.alice);
    await createPost(w.carol, 'hey @alice');
    const types = async (query: string) =>
      ok(await call(w.token, 'GET', `/api/v2/notifications?${query}`)).notification_groups.map((g) => [
        g.type,
        g.notifications_count,
      ]);
    expect(await types('types[]=follow&types[]=mention')).toEqual([
      ['mention', 1],
      ['follow', 1],
    ]);
    expect(await types('exclude_types[]=favourite&exclude_types[]=mention')).toEqual([['follow', 1]]);
    expect(await types(`account_id=${w.ids.bob}`)).toEqual([
      ['follow', 1],
      ['favourite', 1],
    ]);
    // Kinds Mastodon has and Pipit does not (and names nobody has) take nothing, and exclude nothing.
    expect(await types('types[]=severed_relationships&types[]=no_such_kind')).toEqual([]);
    expect(await types('exclude_types[]=admin.sign_up&exclude_types[]=pleroma:emoji_reaction')).toHaveLength(3);
  });

  it('pages over groups with max_id, since_id and min_id, and names the pages in Link', async () => {
    const w = await world();
    const posts: Post[] = [];
    for (let i = 1; i <= 6; i++) posts.push(await createPost(w.alice, `post ${i}`));
    // Six groups: the likes of post 1 (carol's older, bob's newer), then one like each of posts 2–6.
    await like(w.carol, posts[0]!.id);
    for (const post of posts.slice(1)) await like(w.bob, post.id);
    await like(w.bob, posts[0]!.id);
    const key = (i: number) => `favourite-${posts[i - 1]!.id}-`;
    const keysOf = (r: Results) => r.notification_groups.map((g) => g.group_key.replace(/\d+$/, ''));

    const top = await call(w.token, 'GET', '/api/v2/notifications?limit=2&types[]=favourite');
    const first = ok(top);
    expect(keysOf(first)).toEqual([key(1), key(6)]);
    // The group of post 1 reaches down to carol's like, below this page: its page_min_id is this page's own.
    expect(first.notification_groups[0]?.notifications_count).toBe(2);
    expect(first.notification_groups[0]?.page_min_id).toBe(first.notification_groups[0]?.page_max_id);
    const next = linked(top, 'next');
    expect(next?.getAll('types[]')).toEqual(['favourite']);
    expect(next?.get('max_id')).toBe(first.notification_groups[1]?.page_max_id);

    const second = await call(w.token, 'GET', `/api/v2/notifications?limit=2&max_id=${next?.get('max_id')}`);
    expect(keysOf(ok(second))).toEqual([key(5), key(4)]);
    const third = await call(
      w.token,
      'GET',
      `/api/v2/notifications?limit=2&max_id=${linked(second, 'next')?.get('max_id')}`,
    );
    expect(keysOf(ok(third))).toEqual([key(3), key(2)]);
    const last = await call(
      w.token,
      'GET',
      `/api/v2/notifications?limit=2&max_id=${linked(third, 'next')?.get('max_id')}`,
    );
    // carol's like of post 1, met again below: the same group, as the app merges it.
    const bottom = ok(last);
    expect(keysOf(bottom)).toEqual([key(1)]);
    expect(bottom.notification_groups[0]?.sample_account_ids).toEqual([w.ids.carol]);
    expect(linked(last, 'next')).toBeNull();

    // since_id: the newest groups above a notification; min_id: the ones just above it.
    const post2 = ok(third).notification_groups[1]!.page_max_id!;
    expect(keysOf(ok(await call(w.token, 'GET', `/api/v2/notifications?limit=2&since_id=${post2}`)))).toEqual([
      key(1),
      key(6),
    ]);
    const gap = await call(w.token, 'GET', `/api/v2/notifications?limit=2&min_id=${post2}`);
    expect(keysOf(ok(gap))).toEqual([key(4), key(3)]);
    expect(linked(gap, 'prev')?.get('min_id')).toBe(ok(gap).notification_groups[0]?.page_max_id);
    expect(linked(gap, 'next')?.get('max_id')).toBe(ok(gap).notification_groups[1]?.page_max_id);
    // Nothing above the newest; nothing below the oldest.
    const newest = String(first.notification_groups[0]?.most_recent_notification_id);
    expect(ok(await call(w.token, 'GET', `/api/v2/notifications?min_id=${newest}`)).notification_groups).toEqual([]);
    const oldest = bottom.notification_groups[0]!.page_min_id!;
    expect(ok(await call(w.token, 'GET', `/api/v2/notifications?max_id=${oldest}`)).notification_groups).toEqual([]);
  });

  it('counts unread notifications (v1) and groups (v2) with the read state the web and the marker share', async () => {
    const w = await world();
    const post = await createPost(w.alice, 'counted');
    for (const who of [w.bob, w.carol, w.dave]) await like(who, post.id);
    await follow(w.bob, w.ids.alice);
    await createPost(w.erin, 'hi @alice');
    const count = async (url: string) => ok<{ count: number }>(await call(w.token, 'GET', url)).count;
    expect(await count('/api/v1/notifications/unread_count')).toBe(5);
    expect(await count('/api/v2/notifications/unread_count')).toBe(3);
    expect(await count('/api/v2/notifications/unread_count?grouped_types[]=follow')).toBe(5);
    expect(await count('/api/v1/notifications/unread_count?types[]=favourite')).toBe(3);
    expect(await count('/api/v1/notifications/unread_count?limit=2')).toBe(2);
    expect(await count(`/api/v2/notifications/unread_count?account_id=${w.ids.bob}`)).toBe(2);

    // The marker read up to the likes: the follow and the mention are left.
    const likes = ok(await call(w.token, 'GET', '/api/v2/notifications?types[]=favourite')).notification_groups[0]!;
    const marked = await mastodonCall(ctx.app, {
      method: 'POST',
      url: '/api/v1/markers',
      headers: { authorization: `Bearer ${w.token}` },
      payload: { notifications: { last_read_id: String(likes.most_recent_notification_id) } },
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(await count('/api/v1/notifications/unread_count')).toBe(2);
    expect(await count('/api/v2/notifications/unread_count')).toBe(2);
    // Read on the web: none.
    expect((await w.alice.post('/api/notifications/read')).statusCode).toBe(204);
    expect(await count('/api/v2/notifications/unread_count')).toBe(0);
  });

  it("leaves out a blocked or muted person's notifications, as v1 does, from pages, groups and counts", async () => {
    const w = await world();
    const post = await createPost(w.alice, 'seen by some');
    for (const who of [w.bob, w.carol, w.dave]) await like(who, post.id);
    await follow(w.dave, w.ids.alice);
    expect((await w.alice.put(`/api/users/${w.ids.carol}/block`)).statusCode).toBe(200);
    expect((await w.alice.put(`/api/users/${w.ids.dave}/mute`, {})).statusCode).toBe(200);
    const page = ok(await call(w.token, 'GET', '/api/v2/notifications'));
    expect(page.notification_groups.map((g) => [g.type, g.notifications_count, g.sample_account_ids])).toEqual([
      ['favourite', 1, [w.ids.bob]],
    ]);
    expect(page.accounts.map((a) => a.id)).toEqual([w.ids.bob]);
    const v1 = ok<{ account: { id: string } }[]>(await call(w.token, 'GET', '/api/v1/notifications'));
    expect(v1.map((n) => n.account.id)).toEqual([w.ids.bob]);
    const key = page.notification_groups[0]!.group_key;
    expect(
      ok(await call(w.token, 'GET', `/api/v2/notifications/${key}`)).notification_groups[0]?.notifications_count,
    ).toBe(1);
    expect(
      ok<{ id: string }[]>(await call(w.token, 'GET', `/api/v2/notifications/${key}/accounts`)).map((a) => a.id),
    ).toEqual([w.ids.bob]);
    // The muted person's follow is kept (a mute can end) but shown nowhere, by its key either.
    const window = key.split('-').pop();
    expect((await call(w.token, 'GET', `/api/v2/notifications/follow-${window}`)).statusCode).toBe(404);
    const unread = await call(w.token, 'GET', '/api/v1/notifications/unread_count');
    expect(ok<{ count: number }>(unread).count).toBe(1); // bob's: a mute marked what dave caused read
  });

  it('needs a token (401) with read:notifications, or write:notifications to dismiss (403)', async () => {
    const w = await world();
    const post = await createPost(w.alice, 'scoped');
    await like(w.bob, post.id);
    const key = ok(await call(w.token, 'GET', '/api/v2/notifications')).notification_groups[0]!.group_key;
    const { token: statusesOnly } = await authorizeApp(ctx.app, Number(w.ids.alice), 'read:statuses');
    const { token: readOnly } = await authorizeApp(ctx.app, Number(w.ids.alice), 'read');
    const reads = [
      '/api/v2/notifications',
      '/api/v2/notifications/unread_count',
      '/api/v1/notifications/unread_count',
      `/api/v2/notifications/${key}`,
      `/api/v2/notifications/${key}/accounts`,
    ];
    for (const url of reads) {
      expect([url, (await call(null, 'GET', url)).statusCode]).toEqual([url, 401]);
      expect([url, (await call(statusesOnly, 'GET', url)).statusCode]).toEqual([url, 403]);
      expect([url, (await call(readOnly, 'GET', url)).statusCode]).toEqual([url, 200]);
    }
    const dismiss = `/api/v2/notifications/${key}/dismiss`;
    expect((await call(null, 'POST', dismiss)).statusCode).toBe(401);
    expect((await call(readOnly, 'POST', dismiss)).statusCode).toBe(403);
    expect(ok(await call(w.token, 'GET', '/api/v2/notifications')).notification_groups).toHaveLength(1);
  });

  it('refuses what it cannot take: 422 for a bad account_id or expand_accounts, 404 for keys that name no group', async () => {
    const w = await world();
    const post = await createPost(w.alice, 'refusals');
    await like(w.bob, post.id);
    const cases: ['GET' | 'POST', string, number][] = [
      ['GET', '/api/v2/notifications?account_id=bob', 422],
      ['GET', '/api/v2/notifications?expand_accounts=everything', 422],
      ['GET', '/api/v2/notifications/unread_count?account_id=-1', 422],
      ['GET', '/api/v1/notifications/unread_count?account_id=1.5', 422],
      ['GET', '/api/v2/notifications/nonsense', 404],
      ['GET', '/api/v2/notifications/ungrouped-abc', 404],
      ['GET', '/api/v2/notifications/ungrouped-999999', 404],
      ['GET', `/api/v2/notifications/favourite-${post.id}-7`, 404], // not a window's first hour
      ['GET', `/api/v2/notifications/favourite-${post.id}-0`, 404],
      // A window past the year 9999 (no date the database takes), and the last one before it.
      ['GET', `/api/v2/notifications/favourite-${post.id}-999999996`, 404],
      ['GET', `/api/v2/notifications/follow-70389504/accounts`, 404],
      ['POST', `/api/v2/notifications/reblog-${post.id}-70389516/dismiss`, 404],
      ['GET', '/api/v2/notifications/follow-12/accounts', 404],
      ['GET', '/api/v2/notifications/mention-1-12/accounts', 404],
      ['POST', '/api/v2/notifications/reblog-1-12/dismiss', 404],
      ['POST', '/api/v2/notifications/ungrouped-0/dismiss', 404],
      // Page keys that are not ids are ignored, as on v1.
      ['GET', '/api/v2/notifications?max_id=abc&limit=zero', 200],
    ];
    for (const [method, url, status] of cases) {
      const res = await call(w.token, method, url);
      expect([url, res.statusCode], res.body).toEqual([url, status]);
      if (status >= 400) expect(typeof res.json().error, url).toBe('string');
    }
    // Nothing was dismissed.
    expect(ok(await call(w.token, 'GET', '/api/v2/notifications')).notification_groups).toHaveLength(1);
  });

  it('costs the same few statements for a page of 5 groups and of 40', async () => {
    const w = await world();
    const crowd: { id: number }[] = [];
    for (let i = 0; i < 40; i++) crowd.push(await insertUser(ctx.db, { username: `crowd${i}` }));
    const posts: Post[] = [];
    for (let i = 0; i < 40; i++) posts.push(await createPost(w.alice, `post ${i}`));
    // Forty groups of likes, two people each.
    await ctx.db.db.insert(notifications).values(
      posts.flatMap((p, i) => [
        { userId: Number(w.ids.alice), actorId: crowd[i]!.id, type: 'like', postId: Number(p.id) },
        { userId: Number(w.ids.alice), actorId: crowd[(i + 1) % 40]!.id, type: 'like', postId: Number(p.id) },
      ]),
    );
    ok(await call(w.token, 'GET', '/api/v2/notifications?limit=1')); // the token, cached from then on
    const statements = async (url: string, groups: number) => {
      const before = ctx.db.queries.count;
      const page = ok(await call(w.token, 'GET', url));
      expect(page.notification_groups).toHaveLength(groups);
      return ctx.db.queries.count - before;
    };
    const small = await statements('/api/v2/notifications?limit=5', 5);
    expect(await statements('/api/v2/notifications?limit=40', 40)).toBe(small);
    // The walk, the groups' data, the posts, their authors, the people; one more for each page key.
    expect(small).toBe(5);
    const paged = await statements(`/api/v2/notifications?limit=5&max_id=999999999`, 5);
    expect(paged).toBe(6);
  });
});
