/**
 * Answers a real app relies on: a status is never published wider, sooner or different than asked
 * (what Pipit cannot honour is refused by name); search pages by offset; who liked or reposted a post
 * leaves out whom the viewer blocked or muted; every profile's featured tags; every answer under
 * /api/v1 and /api/v2 readable by another origin, 404s included. Answers are checked against the
 * OpenAPI description.
 */
import { describe, expect, it } from 'vitest';
import { authorizeApp, inject, insertUser, seedTrio, useTestApp } from '../helpers/app.ts';
import { createPost } from '../helpers/social.ts';
import { fingerprint } from '../security/support.ts';
import { expectValid, templateOf } from './openapi.ts';

describe('answers apps can trust', () => {
  const ctx = useTestApp();

  async function as(userId: number, scopes = 'read write follow') {
    const { token } = await authorizeApp(ctx.app, userId, scopes);
    return Object.assign(
      async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
        const res = await inject(ctx.app, {
          method,
          url,
          headers: { authorization: `Bearer ${token}` },
          ...(payload ? { payload } : {}),
        });
        const body = res.body === '' ? null : res.json();
        expectValid(method, templateOf(url.split('?')[0] ?? url), res.statusCode, body);
        return { status: res.statusCode, body, headers: res.headers };
      },
      { token },
    );
  }

  it('refuses, by name, a status it cannot publish as asked, and writes nothing', async () => {
    const { alice } = await seedTrio(ctx);
    const call = await as(alice.id);
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    const refused: [object, string][] = [
      [{ status: 'for my circle', visibility: 'limited' }, 'visibility'],
      [{ status: 'for nobody', visibility: 'secret' }, 'visibility'],
      // Names every object has are not words of the mapping.
      [{ status: 'for the prototype', visibility: 'constructor' }, 'visibility'],
      [{ status: 'quoted by strings', quote_approval_policy: 'toString' }, 'quote_approval_policy'],
      // Sooner than Mastodon's 5 minutes, in the past, or no time at all.
      [{ status: 'soon', scheduled_at: new Date(Date.now() + 60_000).toISOString() }, 'scheduled_at'],
      [{ status: 'yesterday', scheduled_at: new Date(Date.now() - 86_400_000).toISOString() }, 'scheduled_at'],
      [{ status: 'whenever', scheduled_at: 'soonish' }, 'scheduled_at'],
      // A warning Pipit keeps is at most 100 characters (contract LIMITS.spoilerTextMax).
      [{ status: 'behind a long warning', spoiler_text: 'x'.repeat(101) }, 'spoiler_text'],
      [{ status: 'quotes by my friends', quote_approval_policy: 'following' }, 'quote_approval_policy'],
      // A followers-only post can be quoted by followers at most: anyone is more than it can honour.
      [{ status: 'quote me', visibility: 'private', quote_approval_policy: 'public' }, 'quote_approval_policy'],
    ];
    for (const [body, field] of refused) {
      const res = await call('POST', '/api/v1/statuses', body);
      expect([field, res.status]).toEqual([field, 422]);
      expect((res.body as { error: string }).error).toContain(field);
    }
    // As a form, the way many apps send it.
    const form = await inject(ctx.app, {
      method: 'POST',
      url: '/api/v1/statuses',
      headers: {
        authorization: `Bearer ${call.token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'status=hello&visibility=limited',
    });
    expect(form.statusCode).toBe(422);
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);

    // What it can honour is published: public, no warning, no poll; empty fields apps send are fine.
    const ok = await call('POST', '/api/v1/statuses', {
      status: 'in the open',
      visibility: 'public',
      spoiler_text: '',
      sensitive: false,
      language: 'en',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ visibility: 'public', spoiler_text: '', sensitive: false, poll: null });
  });

  it('publishes each Mastodon visibility as asked, to exactly its audience, and says so in the status', async () => {
    const { alice, bob, carol } = await seedTrio(ctx);
    const asAlice = await as(alice.id);
    const asBob = await as(bob.id);
    const asCarol = await as(carol.id);
    // Bob follows Alice; Carol does not.
    expect((await asBob('POST', `/api/v1/accounts/${alice.id}/follow`)).status).toBe(200);
    const made: Record<string, string> = {};
    for (const [visibility, quotePolicy] of [
      ['public', 'public'],
      ['unlisted', 'followers'],
      ['private', 'followers'],
      ['direct', 'nobody'],
    ] as const) {
      const res = await asAlice('POST', '/api/v1/statuses', {
        status: `${visibility} note for @${carol.username === 'carol' ? 'nobody' : 'x'}`,
        visibility,
        quote_approval_policy: quotePolicy,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ visibility, quote_approval: { manual: [] } });
      made[visibility] = (res.body as { id: string }).id;
    }
    const dm = await asAlice('POST', '/api/v1/statuses', {
      status: `just for @${carol.username}`,
      visibility: 'direct',
    });
    expect(dm.body).toMatchObject({ visibility: 'direct', quote_approval: { automatic: [], current_user: 'denied' } });
    const ids = (res: { body: unknown }) => (res.body as { id: string }[]).map((s) => s.id);
    // The public timeline lists the public one only; Bob's home has all but the direct one he is not in.
    expect(ids(await asCarol('GET', '/api/v1/timelines/public'))).toEqual([made.public]);
    expect(ids(await asBob('GET', '/api/v1/timelines/home'))).toEqual([made.private, made.unlisted, made.public]);
    // A status outside one's audience answers as absent; one's mention lets one in.
    expect((await asCarol('GET', `/api/v1/statuses/${made.private}`)).status).toBe(404);
    expect((await asBob('GET', `/api/v1/statuses/${made.direct}`)).status).toBe(404);
    expect((await asCarol('GET', `/api/v1/statuses/${(dm.body as { id: string }).id}`)).status).toBe(200);
    // Alice's profile shows Carol what she may see: not the followers-only or direct posts.
    expect(ids(await asCarol('GET', `/api/v1/accounts/${alice.id}/statuses`))).toEqual([made.unlisted, made.public]);
    // Only public and unlisted statuses can be reblogged.
    expect((await asBob('POST', `/api/v1/statuses/${made.private}/reblog`)).status).toBe(403);
    expect((await asBob('POST', `/api/v1/statuses/${made.unlisted}/reblog`)).status).toBe(200);
  });

  it('keeps the posting privacy of update_credentials as the default visibility of new statuses', async () => {
    const { alice } = await seedTrio(ctx);
    const call = await as(alice.id);
    expect((await call('GET', '/api/v1/accounts/verify_credentials')).body).toMatchObject({
      source: { privacy: 'public' },
    });
    const updated = await call('PATCH', '/api/v1/accounts/update_credentials', { source: { privacy: 'private' } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ source: { privacy: 'private' } });
    expect((await call('POST', '/api/v1/statuses', { status: 'by default' })).body).toMatchObject({
      visibility: 'private',
    });
    const refused = await call('PATCH', '/api/v1/accounts/update_credentials', { source: { privacy: 'secret' } });
    expect(refused.status).toBe(422);
    expect((refused.body as { error: string }).error).toContain('source[privacy]');
    expect((await call('GET', '/api/v1/accounts/verify_credentials')).body).toMatchObject({
      source: { privacy: 'private' },
    });
  });

  it('pages search by offset, for people, statuses and hashtags', async () => {
    const { alice, clients } = await seedTrio(ctx);
    for (let i = 0; i < 5; i++) await createPost(clients.bob, `wren number ${i} #wrens${i}`);
    const call = await as(alice.id);
    const page = async (type: string, offset: number) =>
      (await call('GET', `/api/v2/search?q=wren&type=${type}&limit=2&offset=${offset}`)).body as Record<
        string,
        { id?: string; name?: string }[]
      >;
    const statuses = [0, 2, 4].map((offset) => page('statuses', offset));
    const ids = (await Promise.all(statuses)).flatMap((p) => (p.statuses ?? []).map((s) => s.id));
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    const tags = (await Promise.all([0, 2, 4].map((offset) => page('hashtags', offset)))).flatMap((p) =>
      (p.hashtags ?? []).map((t) => t.name),
    );
    expect(tags).toEqual(['wrens0', 'wrens1', 'wrens2', 'wrens3', 'wrens4'].sort());
    const people = await call('GET', '/api/v2/search?q=bob&type=accounts&offset=1');
    expect((people.body as { accounts: unknown[] }).accounts).toEqual([]);
    expect((await call('GET', '/api/v2/search?q=wren&offset=-1')).status).toBe(422);
  });

  it('leaves out of favourited_by and reblogged_by whom the viewer blocked or muted', async () => {
    const { alice, bob, carol, clients } = await seedTrio(ctx);
    const post = await createPost(clients.alice, 'a post everyone likes');
    for (const who of [clients.bob, clients.carol]) {
      expect((await who.put(`/api/posts/${post.id}/like`)).statusCode).toBe(200);
      expect((await who.put(`/api/posts/${post.id}/repost`)).statusCode).toBe(200);
    }
    expect((await clients.alice.put(`/api/users/${bob.id}/block`)).statusCode).toBe(200);
    expect((await clients.alice.put(`/api/users/${carol.id}/mute`, {})).statusCode).toBe(200);
    const call = await as(alice.id);
    for (const list of ['favourited_by', 'reblogged_by']) {
      const res = await call('GET', `/api/v1/statuses/${post.id}/${list}`);
      expect([list, res.body]).toEqual([list, []]);
    }
    // Someone else sees both.
    const dave = await insertUser(ctx.db, { username: 'dave' });
    const theirs = await as(dave.id);
    for (const list of ['favourited_by', 'reblogged_by']) {
      const res = await theirs('GET', `/api/v1/statuses/${post.id}/${list}`);
      expect((res.body as { username: string }[]).map((a) => a.username).sort()).toEqual(['bob', 'carol']);
    }
  });

  it("answers a profile's featured tags (none), 404 for nobody", async () => {
    const { alice, bob } = await seedTrio(ctx);
    const call = await as(alice.id);
    const res = await call('GET', `/api/v1/accounts/${bob.id}/featured_tags`);
    expect([res.status, res.body]).toEqual([200, []]);
    expect((await call('GET', '/api/v1/accounts/999999/featured_tags')).status).toBe(404);
  });

  it('lets another origin read every answer under /api/v1 and /api/v2, unknown paths and bad URLs included', async () => {
    for (const url of ['/api/v1/nothing-here', '/api/v2/nothing/here?x=1', '/api/v1/statuses/1/nothing', '/api/v2']) {
      const res = await inject(ctx.app, { method: 'GET', url, headers: { origin: 'https://elk.example' } });
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(typeof res.json().error).toBe('string');
    }
    const malformed = await inject(ctx.app, {
      method: 'GET',
      url: '/api/v1/accounts/%E0%A4%A',
      headers: { origin: 'https://elk.example' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['access-control-allow-origin']).toBe('*');
    // The product API still answers no other origin.
    const product = await inject(ctx.app, {
      method: 'GET',
      url: '/api/nothing-here',
      headers: { origin: 'https://elk.example' },
    });
    expect(product.statusCode).toBe(404);
    expect(product.headers['access-control-allow-origin']).toBeUndefined();
  });
});
