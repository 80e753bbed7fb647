/**
 * Mastodon's lists (issue 27, part 5) over the lists service: the List entity, accounts added by
 * `account_ids[]` as a form or JSON, the list timeline paged by max_id with a Link header, and the
 * refusals as Mastodon answers them — someone else's list is 404 as absent, a person one does not
 * follow or a full list 422, a bad replies_policy or title 422 naming the field. Every answer is
 * validated against the OpenAPI description (mastodonCall).
 */
import { LIST_LIMITS, type Post } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authorizeApp, seedTrio, useTestApp } from '../helpers/app.ts';
import { createPost, follow } from '../helpers/social.ts';
import { mastodonCall } from './openapi.ts';

describe('Mastodon lists', () => {
  const ctx = useTestApp();

  async function setup() {
    const trio = await seedTrio(ctx);
    const { token } = await authorizeApp(ctx.app, trio.alice.id, 'read write');
    const { token: carolToken } = await authorizeApp(ctx.app, trio.carol.id, 'read write');
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object | string, as = token) =>
      mastodonCall(ctx.app, {
        method,
        url,
        headers: {
          authorization: `Bearer ${as}`,
          ...(typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(payload !== undefined ? { payload } : {}),
      });
    return { ...trio, call, carolToken };
  }

  it('creates, shows, updates, lists and deletes a list as the List entity', async () => {
    const { call } = await setup();
    const created = await call('POST', '/api/v1/lists', 'title=Birders&replies_policy=none&exclusive=true');
    expect(created.statusCode, created.body).toBe(200);
    const list = created.json();
    expect(list).toEqual({ id: list.id, title: 'Birders', replies_policy: 'none', exclusive: true });
    // Defaults: replies to list members, not exclusive.
    const plain = (await call('POST', '/api/v1/lists', { title: 'Plain' })).json();
    expect(plain).toMatchObject({ replies_policy: 'list', exclusive: false });
    expect((await call('GET', '/api/v1/lists')).json().map((l: { title: string }) => l.title)).toEqual([
      'Birders',
      'Plain',
    ]);
    const updated = await call('PUT', `/api/v1/lists/${list.id}`, { title: 'Wrens', replies_policy: 'followed' });
    expect(updated.json()).toEqual({ id: list.id, title: 'Wrens', replies_policy: 'followed', exclusive: true });
    // A PUT with nothing in it changes nothing.
    expect((await call('PUT', `/api/v1/lists/${list.id}`, {})).json()).toMatchObject({ title: 'Wrens' });
    expect((await call('GET', `/api/v1/lists/${list.id}`)).json()).toMatchObject({ title: 'Wrens' });
    const deleted = await call('DELETE', `/api/v1/lists/${list.id}`);
    expect([deleted.statusCode, deleted.json()]).toEqual([200, {}]);
    expect((await call('GET', `/api/v1/lists/${list.id}`)).statusCode).toBe(404);
  });

  it('refuses a bad title or replies_policy (422 naming it) and the list limit (422)', async () => {
    const { alice, call } = await setup();
    for (const [body, field] of [
      [{}, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(LIST_LIMITS.titleMax + 1) }, 'title'],
      [{ title: 'ok', replies_policy: 'everyone' }, 'replies_policy'],
    ] as const) {
      const res = await call('POST', '/api/v1/lists', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.json().details), JSON.stringify(body)).toEqual([field]);
    }
    const list = (await call('POST', '/api/v1/lists', { title: 'ok' })).json();
    const bad = await call('PUT', `/api/v1/lists/${list.id}`, { replies_policy: 'all' });
    expect(bad.statusCode).toBe(422);
    await ctx.db.db.execute(
      sql`insert into lists (owner_id, title) select ${alice.id}, 'l' || g from generate_series(2, ${LIST_LIMITS.lists}) g`,
    );
    const full = await call('POST', '/api/v1/lists', { title: 'one too many' });
    expect(full.statusCode).toBe(422);
    expect(full.json().error).toMatch(/at most 50 lists/);
  });

  it("answers someone else's list as absent: 404 on every route, never 403", async () => {
    const { bob, call, carolToken, clients } = await setup();
    await follow(clients.alice, bob.id);
    const list = (await call('POST', '/api/v1/lists', { title: 'Mine' })).json();
    const calls: ['GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
      ['GET', `/api/v1/lists/${list.id}`],
      ['PUT', `/api/v1/lists/${list.id}`, { title: 'taken' }],
      ['DELETE', `/api/v1/lists/${list.id}`],
      ['GET', `/api/v1/lists/${list.id}/accounts`],
      ['POST', `/api/v1/lists/${list.id}/accounts`, { account_ids: [String(bob.id)] }],
      ['DELETE', `/api/v1/lists/${list.id}/accounts`, { account_ids: [String(bob.id)] }],
      ['GET', `/api/v1/timelines/list/${list.id}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await call(method, url, body, carolToken);
      expect([method, url, res.statusCode]).toEqual([method, url, 404]);
    }
    expect((await call('GET', `/api/v1/lists/${list.id}`)).json()).toMatchObject({ title: 'Mine' });
  });

  it('adds accounts one follows (form or JSON), refuses others with 422, removes, and pages them', async () => {
    const { bob, call, carol, clients } = await setup();
    const list = (await call('POST', '/api/v1/lists', { title: 'People' })).json();
    const refused = await call('POST', `/api/v1/lists/${list.id}/accounts`, { account_ids: [String(bob.id)] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatch(/only add people you follow/);
    expect(Object.keys(refused.json().details)).toEqual(['account_ids']);
    expect((await call('POST', `/api/v1/lists/${list.id}/accounts`, {})).statusCode).toBe(422);
    expect((await call('POST', `/api/v1/lists/${list.id}/accounts`, { account_ids: ['999999'] })).statusCode).toBe(404);

    await follow(clients.alice, bob.id);
    await follow(clients.alice, carol.id);
    const added = await call(
      'POST',
      `/api/v1/lists/${list.id}/accounts`,
      `account_ids[]=${bob.id}&account_ids[]=${carol.id}`,
    );
    expect([added.statusCode, added.json()]).toEqual([200, {}]);
    // Added in one transaction, so at one time: the list's key (time, then id, newest first) puts the
    // higher id first (seedTrio makes the three at once: on PostgreSQL their ids come in any order).
    const [higher, lower] = bob.id > carol.id ? [bob, carol] : [carol, bob];
    const accounts = await call('GET', `/api/v1/lists/${list.id}/accounts?limit=1`);
    expect(accounts.json().map((a: { username: string }) => a.username)).toEqual([higher.username]);
    const next = /<([^>]+)>; rel="next"/.exec(String(accounts.headers.link))?.[1];
    expect(next).toBeDefined();
    const second = await call('GET', new URL(next as string).pathname + new URL(next as string).search);
    expect(second.json().map((a: { username: string }) => a.username)).toEqual([lower.username]);
    // By an account id as max_id too (Mastodon's own keys), and all at once with limit=0.
    const below = await call('GET', `/api/v1/lists/${list.id}/accounts?max_id=${higher.id}`);
    expect(below.json().map((a: { username: string }) => a.username)).toEqual([lower.username]);
    const all = await call('GET', `/api/v1/lists/${list.id}/accounts?limit=0`);
    expect(all.json()).toHaveLength(2);
    expect(all.headers.link).toBeUndefined();

    const lists = await call('GET', `/api/v1/accounts/${bob.id}/lists`);
    expect(lists.json().map((l: { title: string }) => l.title)).toEqual(['People']);
    // Removing: in the body, or in the query string as some apps send a DELETE's parameters.
    expect(
      (await call('DELETE', `/api/v1/lists/${list.id}/accounts`, { account_ids: [String(bob.id)] })).statusCode,
    ).toBe(200);
    expect((await call('DELETE', `/api/v1/lists/${list.id}/accounts?account_ids[]=${carol.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/lists/${list.id}/accounts`)).json()).toEqual([]);
    expect((await call('GET', `/api/v1/accounts/${bob.id}/lists`)).json()).toEqual([]);
  });

  it('pages the list timeline by max_id with a Link header, as Statuses', async () => {
    const { bob, call, clients } = await setup();
    await follow(clients.alice, bob.id);
    const list = (await call('POST', '/api/v1/lists', { title: 'Bob' })).json();
    await call('POST', `/api/v1/lists/${list.id}/accounts`, { account_ids: [String(bob.id)] });
    const posts: Post[] = [];
    for (let i = 0; i < 5; i++) posts.push(await createPost(clients.bob, `bob ${i}`));
    await createPost(clients.carol, 'not on the list');
    const first = await call('GET', `/api/v1/timelines/list/${list.id}?limit=2`);
    expect(first.json().map((s: { id: string }) => s.id)).toEqual([posts[4]?.id, posts[3]?.id]);
    expect(String(first.headers.link)).toContain(`max_id=${posts[3]?.id}`);
    const older = await call('GET', `/api/v1/timelines/list/${list.id}?limit=2&max_id=${posts[3]?.id}`);
    expect(older.json().map((s: { content: string }) => s.content)).toEqual([
      expect.stringContaining('bob 2'),
      expect.stringContaining('bob 1'),
    ]);
    const newer = await call('GET', `/api/v1/timelines/list/${list.id}?since_id=${posts[2]?.id}`);
    expect(newer.json()).toHaveLength(2);
  });
});
