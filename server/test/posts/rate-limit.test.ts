/** The write rate limit (a global hook) covers every new state-changing call, per signed-in person. */
import { describe, expect, it } from 'vitest';
import { seedTrio, testConfig, useTestApp } from '../helpers/app.ts';
import { imageUpload } from '../helpers/multipart.ts';
import { SMALL_JPEG } from '../security/support.ts';

describe('write rate limit on posts, uploads, likes, follows and notifications', () => {
  const ctx = useTestApp({
    rateLimits: {
      ...testConfig().rateLimits,
      enabled: true,
      signInIp: { max: 1000, windowMs: 60_000 },
      signInAccount: { max: 1000, windowMs: 60_000 },
      register: { max: 1000, windowMs: 60_000 },
      write: { max: 6, windowMs: 60_000 },
    },
  });

  it('answers 429 RATE_LIMITED with Retry-After past the limit, and only for that person', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const first = await clients.alice.post('/api/posts', { text: 'one' });
    expect(first.statusCode).toBe(201);
    const id = first.json().id as string;
    const writes = [
      () => clients.alice.put(`/api/posts/${id}/like`),
      () => clients.alice.delete(`/api/posts/${id}/like`),
      () => clients.alice.put(`/api/users/${bob.id}/follow`),
      () => clients.alice.delete(`/api/users/${bob.id}/follow`),
      () => clients.alice.post('/api/notifications/read'),
    ];
    for (const write of writes) expect((await write()).statusCode).toBeLessThan(300);

    for (const write of [
      () => clients.alice.post('/api/posts', { text: 'two' }),
      () => clients.alice.upload(imageUpload(SMALL_JPEG)),
      () => clients.alice.put(`/api/posts/${id}/repost`),
      () => clients.alice.delete(`/api/posts/${id}`),
      ...writes,
    ]) {
      const res = await write();
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Reads are not limited, and the post was neither deleted nor duplicated.
    const mine = await clients.alice.get(`/api/users/${alice.id}/posts`);
    expect(mine.json().items.map((p: { text: string }) => p.text)).toEqual(['one']);
    // Someone else still writes.
    expect((await clients.bob.put(`/api/posts/${id}/like`)).statusCode).toBe(200);
  });
});
