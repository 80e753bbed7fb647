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
      async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
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
      [{ status: 'for my followers', visibility: 'private' }, 'visibility'],
      [{ status: 'only for @bob', visibility: 'direct' }, 'visibility'],
      [{ status: 'quietly', visibility: 'unlisted' }, 'visibility'],
      [{ status: 'later', scheduled_at: new Date(Date.now() + 86_400_000).toISOString() }, 'scheduled_at'],
      [{ status: 'which?', poll: { options: ['a', 'b'], expires_in: 3600 } }, 'poll'],
      [{ status: 'behind a warning', spoiler_text: 'spoilers' }, 'spoiler_text'],
      [{ status: 'a sensitive one', sensitive: true }, 'sensitive'],
      [{ status: 'no quotes please', quote_approval_policy: 'nobody' }, 'quote_approval_policy'],
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
      payload: 'status=hello&visibility=private',
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
