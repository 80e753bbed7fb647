/**
 * The Mastodon API's rate limits: its writes count against the person's write limit like the web's
 * (one budget, whichever API), answered 429 with Retry-After in Mastodon's `{error}`; the OAuth
 * endpoints count per address like sign-ins. Small limits so each case is quick.
 */
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { authorizeApp, seedTrio, testConfig, useTestApp } from '../helpers/app.ts';
import { createPost } from '../helpers/social.ts';
import { mastodonCall } from './openapi.ts';

const LIMIT = 3;

function limits(): Partial<Config> {
  return {
    rateLimits: {
      ...testConfig().rateLimits,
      write: { max: LIMIT, windowMs: 5 * 60_000 },
      signInIp: { max: LIMIT, windowMs: 5 * 60_000 },
    },
  };
}

describe('rate limits on the Mastodon API', () => {
  const ctx = useTestApp(limits());

  it('writes share the person’s write limit with the web; OAuth counts per address', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const post = await createPost(clients.bob, 'like me');
    const { token: access_token, clientId } = await authorizeApp(ctx.app, alice.id);
    const act = (path: string) =>
      mastodonCall(ctx.app, {
        method: 'POST',
        url: `/api/v1/statuses/${post.id}/${path}`,
        headers: { authorization: `Bearer ${access_token}` },
      });
    // Two writes by the app and one on the web use up the budget of three.
    expect((await act('favourite')).statusCode).toBe(200);
    expect((await act('unfavourite')).statusCode).toBe(200);
    expect((await clients.alice.put(`/api/posts/${post.id}/like`)).statusCode).toBe(200);
    const refused = await act('bookmark');
    expect([refused.statusCode, typeof refused.json().error]).toEqual([429, 'string']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Reads are not writes.
    const read = await mastodonCall(ctx.app, {
      url: '/api/v1/timelines/home',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(read.statusCode).toBe(200);

    // Guessing client secrets at the token endpoint is bounded per address.
    const guess = () =>
      mastodonCall(ctx.app, {
        method: 'POST',
        url: '/oauth/token',
        remoteAddress: '203.0.113.9',
        payload: { grant_type: 'client_credentials', client_id: clientId, client_secret: 'guess' },
      });
    for (let i = 0; i < LIMIT; i++) expect((await guess()).statusCode).toBe(401);
    const limited = await guess();
    expect([limited.statusCode, typeof limited.json().error]).toEqual([429, 'string']);
  });
});
