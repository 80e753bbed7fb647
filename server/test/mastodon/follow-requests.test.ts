/**
 * Locked accounts through the Mastodon API: `locked` on Account and in update_credentials, a follow
 * answering requested, the follow_requests list (paged, Link header), authorize and reject answering
 * a Relationship, relationships.requested / requested_by, follow_request notifications (v1 and
 * grouped v2). Every answer is checked against the OpenAPI description (mastodonCall).
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { authorizeApp, insertUser, seedTrio, useTestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/multipart.ts';
import { mastodonCall } from './openapi.ts';

interface Relationship {
  id: string;
  following: boolean;
  requested: boolean;
  requested_by: boolean;
  followed_by: boolean;
}

describe('Mastodon follow requests', () => {
  const ctx = useTestApp();

  async function world() {
    const trio = await seedTrio(ctx);
    const scopes = 'read write follow';
    const tokens = {
      alice: (await authorizeApp(ctx.app, trio.alice.id, scopes)).token,
      bob: (await authorizeApp(ctx.app, trio.bob.id, scopes)).token,
      carol: (await authorizeApp(ctx.app, trio.carol.id, scopes)).token,
    };
    const call = (who: keyof typeof tokens, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      mastodonCall(ctx.app, {
        method,
        url,
        headers: { authorization: `Bearer ${tokens[who]}` },
        ...(payload ? { payload } : {}),
      });
    const ok = (res: LightMyRequestResponse) => {
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    return { ...trio, tokens, call, ok };
  }

  it('update_credentials takes locked (JSON, form words, multipart); the account and verify_credentials say it', async () => {
    const { bob, call, ok, tokens } = await world();
    expect(ok(await call('bob', 'PATCH', '/api/v1/accounts/update_credentials', { locked: true })).locked).toBe(true);
    expect(ok(await call('alice', 'GET', `/api/v1/accounts/${bob.id}`)).locked).toBe(true);
    expect(ok(await call('bob', 'GET', '/api/v1/accounts/verify_credentials')).locked).toBe(true);
    // Apps send forms: Rails' words for false.
    const form = await mastodonCall(ctx.app, {
      method: 'PATCH',
      url: '/api/v1/accounts/update_credentials',
      headers: { authorization: `Bearer ${tokens.bob}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'locked=0',
    });
    expect(ok(form).locked).toBe(false);
    const parts = multipart([{ name: 'locked', value: 'true' }]);
    const multi = await mastodonCall(ctx.app, {
      method: 'PATCH',
      url: '/api/v1/accounts/update_credentials',
      headers: { authorization: `Bearer ${tokens.bob}`, ...parts.headers },
      payload: parts.payload,
    });
    expect(ok(multi).locked).toBe(true);
    // Anything else is refused, naming the field.
    const refused = await call('bob', 'PATCH', '/api/v1/accounts/update_credentials', { locked: 'maybe' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatch(/locked/);
    expect(ok(await call('bob', 'GET', '/api/v1/accounts/verify_credentials')).locked).toBe(true);
  });

  it('follow answers requested; the owner lists, counts and authorizes; the Relationships follow', async () => {
    const { alice, bob, call, ok } = await world();
    ok(await call('bob', 'PATCH', '/api/v1/accounts/update_credentials', { locked: true }));
    const asked = ok(await call('alice', 'POST', `/api/v1/accounts/${bob.id}/follow`)) as Relationship;
    expect(asked).toMatchObject({ id: String(bob.id), following: false, requested: true, requested_by: false });
    const [mine] = ok(await call('alice', 'GET', `/api/v1/accounts/relationships?id[]=${bob.id}`)) as Relationship[];
    expect(mine).toMatchObject({ following: false, requested: true });
    const [theirs] = ok(await call('bob', 'GET', `/api/v1/accounts/relationships?id[]=${alice.id}`)) as Relationship[];
    expect(theirs).toMatchObject({ followed_by: false, requested_by: true, requested: false });

    const listed = ok(await call('bob', 'GET', '/api/v1/follow_requests')) as { id: string; acct: string }[];
    expect(listed.map((a) => a.acct)).toEqual(['alice']);
    const me = ok(await call('bob', 'GET', '/api/v1/accounts/verify_credentials'));
    expect(me.source.follow_requests_count).toBe(1);

    const authorized = ok(await call('bob', 'POST', `/api/v1/follow_requests/${alice.id}/authorize`)) as Relationship;
    expect(authorized).toMatchObject({ id: String(alice.id), followed_by: true, requested_by: false });
    const [now] = ok(await call('alice', 'GET', `/api/v1/accounts/relationships?id[]=${bob.id}`)) as Relationship[];
    expect(now).toMatchObject({ following: true, requested: false });
    expect(ok(await call('bob', 'GET', '/api/v1/follow_requests'))).toEqual([]);
    expect(ok(await call('bob', 'GET', '/api/v1/accounts/verify_credentials')).source.follow_requests_count).toBe(0);
    expect(ok(await call('bob', 'GET', `/api/v1/accounts/${bob.id}`)).followers_count).toBe(1);
  });

  it('reject answers the Relationship without a follow; no request waiting answers 404', async () => {
    const { alice, bob, carol, call, ok } = await world();
    ok(await call('bob', 'PATCH', '/api/v1/accounts/update_credentials', { locked: true }));
    ok(await call('alice', 'POST', `/api/v1/accounts/${bob.id}/follow`));
    const rejected = ok(await call('bob', 'POST', `/api/v1/follow_requests/${alice.id}/reject`)) as Relationship;
    expect(rejected).toMatchObject({ id: String(alice.id), followed_by: false, requested_by: false });
    const [mine] = ok(await call('alice', 'GET', `/api/v1/accounts/relationships?id[]=${bob.id}`)) as Relationship[];
    expect(mine).toMatchObject({ following: false, requested: false });
    for (const url of [
      `/api/v1/follow_requests/${alice.id}/authorize`,
      `/api/v1/follow_requests/${alice.id}/reject`,
      `/api/v1/follow_requests/${carol.id}/authorize`,
      '/api/v1/follow_requests/99999999/reject',
    ]) {
      const res = await call('bob', 'POST', url);
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('following an unlocked account follows at once (requested false); one refused across a block', async () => {
    const { bob, carol, call, ok } = await world();
    expect(ok(await call('alice', 'POST', `/api/v1/accounts/${bob.id}/follow`))).toMatchObject({
      following: true,
      requested: false,
    });
    ok(await call('carol', 'PATCH', '/api/v1/accounts/update_credentials', { locked: true }));
    ok(await call('carol', 'POST', `/api/v1/accounts/${bob.id}/block`));
    const refused = await call('bob', 'POST', `/api/v1/accounts/${carol.id}/follow`);
    expect(refused.statusCode).toBe(403);
    expect(ok(await call('carol', 'GET', '/api/v1/follow_requests'))).toEqual([]);
  });

  it('pages the requests with max_id in the Link header, newest first', async () => {
    const { bob, call, ok, tokens } = await world();
    ok(await call('bob', 'PATCH', '/api/v1/accounts/update_credentials', { locked: true }));
    for (const username of ['r1', 'r2', 'r3']) {
      const row = await insertUser(ctx.db, { username });
      const { token } = await authorizeApp(ctx.app, row.id, 'read write follow');
      const res = await mastodonCall(ctx.app, {
        method: 'POST',
        url: `/api/v1/accounts/${bob.id}/follow`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.json()).toMatchObject({ requested: true });
    }
    const first = await call('bob', 'GET', '/api/v1/follow_requests?limit=2');
    expect((ok(first) as { acct: string }[]).map((a) => a.acct)).toEqual(['r3', 'r2']);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link ?? ''))?.[1];
    expect(next).toBeDefined();
    const url = new URL(next as string);
    const second = await mastodonCall(ctx.app, {
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { authorization: `Bearer ${tokens.bob}` },
    });
    expect((ok(second) as { acct: string }[]).map((a) => a.acct)).toEqual(['r1']);
  });

  it('the owner gets a follow_request notification (v1, and ungrouped in v2); withdrawing takes it back', async () => {
    const { bob, call, ok } = await world();
    ok(await call('bob', 'PATCH', '/api/v1/accounts/update_credentials', { locked: true }));
    ok(await call('carol', 'POST', '/api/v1/statuses', { status: 'hello @bob' }));
    ok(await call('alice', 'POST', `/api/v1/accounts/${bob.id}/follow`));
    const [n] = ok(await call('bob', 'GET', '/api/v1/notifications')) as {
      id: string;
      type: string;
      group_key: string;
      account: { acct: string };
    }[];
    expect(n).toMatchObject({ type: 'follow_request', account: { acct: 'alice' }, group_key: `ungrouped-${n?.id}` });
    const grouped = ok(await call('bob', 'GET', '/api/v2/notifications')) as {
      notification_groups: { type: string; group_key: string }[];
    };
    expect(grouped.notification_groups.map((g) => g.type)).toEqual(['follow_request', 'mention']);
    const filtered = ok(await call('bob', 'GET', '/api/v2/notifications?types[]=follow_request'));
    expect(filtered.notification_groups.map((g: { type: string }) => g.type)).toEqual(['follow_request']);
    const excluded = ok(await call('bob', 'GET', '/api/v2/notifications?exclude_types[]=follow_request'));
    expect(excluded.notification_groups.map((g: { type: string }) => g.type)).toEqual(['mention']);

    const withdrawn = ok(await call('alice', 'POST', `/api/v1/accounts/${bob.id}/unfollow`)) as Relationship;
    expect(withdrawn).toMatchObject({ following: false, requested: false });
    const left = ok(await call('bob', 'GET', '/api/v1/notifications')) as { type: string }[];
    expect(left.map((x) => x.type)).toEqual(['mention']);
  });
});
