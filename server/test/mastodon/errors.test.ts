/**
 * The Mastodon API's refusals, each with its status and Mastodon's `{error}`, and nothing written:
 * what masto-client.test.ts (the paths that work) does not reach.
 */
import { describe, expect, it } from 'vitest';
import { authorizeApp, seedTrio, useTestApp } from '../helpers/app.ts';
import { imageUpload, multipart } from '../helpers/multipart.ts';
import { createPost } from '../helpers/social.ts';
import { photo } from '../media/fixtures.ts';
import { fingerprint } from '../security/support.ts';
import { mastodonCall } from './openapi.ts';

describe('Mastodon API refusals', () => {
  const ctx = useTestApp();

  it('answers each refusal with its status and an error, and writes nothing', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const { token } = await authorizeApp(ctx.app, alice.id);
    const headers = { authorization: `Bearer ${token}` };
    const bobs = await createPost(clients.bob, 'a post of bob');
    await clients.bob.put(`/api/users/${alice.id}/block`);
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    const fake = imageUpload(Buffer.from('not an image at all'), 'x');
    const cases: [string, string, unknown, number][] = [
      ['POST', '/api/v1/statuses', { status: '' }, 422],
      ['POST', '/api/v1/statuses', { status: 'x'.repeat(281) }, 422],
      ['POST', '/api/v1/statuses', { status: 'hi', in_reply_to_id: 'abc' }, 422],
      ['POST', '/api/v1/statuses', { status: 'hi', in_reply_to_id: '999999' }, 404],
      // Bob blocked her: his post is not hers to see, reply to, like or list the likers of.
      ['GET', `/api/v1/statuses/${bobs.id}`, undefined, 404],
      ['GET', `/api/v1/statuses/${bobs.id}/context`, undefined, 404],
      ['GET', `/api/v1/statuses/${bobs.id}/favourited_by`, undefined, 404],
      ['POST', `/api/v1/statuses/${bobs.id}/favourite`, undefined, 404],
      ['GET', '/api/v1/notifications/999999', undefined, 404],
      ['POST', '/api/v1/notifications/999999/dismiss', undefined, 404],
      ['POST', '/api/v1/markers', { notifications: { last_read_id: 'latest' } }, 422],
      ['GET', '/api/v1/media/999999', undefined, 404],
      ['PUT', '/api/v1/media/999999', { description: 'x' }, 404],
      ['PUT', '/api/v1/media/1', { description: 'x'.repeat(1501) }, 422],
      ['PATCH', '/api/v1/accounts/update_credentials', { note: 'x'.repeat(161) }, 422],
      ['GET', '/api/v1/accounts/999999', undefined, 404],
      ['GET', '/api/v1/accounts/lookup?acct=nobody', undefined, 404],
      ['GET', `/api/v1/accounts/${bob.id}/statuses?max_id=1.5`, undefined, 200],
      ['GET', '/api/v2/search?q=', undefined, 422],
      ['GET', '/api/v1/accounts/search?q=', undefined, 422],
      // A plain GET where a WebSocket is expected.
      ['GET', '/api/v1/streaming', undefined, 400],
    ];
    for (const [method, url, body, status] of cases) {
      const res = await mastodonCall(ctx.app, {
        method: method as 'GET',
        url,
        headers,
        ...(body === undefined ? {} : { payload: body as object }),
      });
      expect([res.statusCode, url], res.body).toEqual([status, url]);
      if (status >= 400) expect(typeof res.json().error, url).toBe('string');
    }
    const upload = await mastodonCall(ctx.app, {
      method: 'POST',
      url: '/api/v2/media',
      headers: { ...headers, ...fake.headers },
      payload: fake.payload,
    });
    expect(upload.statusCode, upload.body).toBeGreaterThanOrEqual(400);
    expect(upload.statusCode).toBeLessThan(500);
    expect(typeof upload.json().error).toBe('string');
    // The profile's pictures: a fake image, one past 5 MB, a file under another name, three files.
    const jpeg = await photo(64, 64);
    for (const [what, parts, status] of [
      ['a fake avatar', [{ name: 'avatar', file: Buffer.from('not an image at all') }], 400],
      ['an avatar past 5 MB', [{ name: 'avatar', file: Buffer.alloc(5 * 1024 * 1024 + 1, 0xff) }], 413],
      ['a file named otherwise', [{ name: 'picture', file: jpeg }], 422],
      ['a file named __proto__', [{ name: '__proto__', file: jpeg }], 422],
      ['a file named toString', [{ name: 'toString', file: jpeg }], 422],
      [
        'three files',
        [
          { name: 'avatar', file: jpeg },
          { name: 'header', file: jpeg },
          { name: 'avatar', file: jpeg },
        ],
        422,
      ],
      [
        'a name too long, with a good avatar',
        [
          { name: 'display_name', value: 'x'.repeat(51) },
          { name: 'avatar', file: jpeg },
        ],
        422,
      ],
    ] as const) {
      const form = multipart([...parts]);
      const res = await mastodonCall(ctx.app, {
        method: 'PATCH',
        url: '/api/v1/accounts/update_credentials',
        headers: { ...headers, ...form.headers },
        payload: form.payload,
      });
      expect([res.statusCode, what], res.body).toEqual([status, what]);
      expect(typeof res.json().error, what).toBe('string');
    }
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
  });
});
