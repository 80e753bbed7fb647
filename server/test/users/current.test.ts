import { currentUser } from '@pipit/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications, users } from '../../src/db/schema.ts';
import { cookieNames } from '../../src/lib/auth-cookies.ts';
import { seedTrio, TestClient, useTestApp } from '../helpers/app.ts';

describe('GET /api/current', () => {
  const ctx = useTestApp();

  it('401 UNAUTHENTICATED for a visitor', async () => {
    const res = await new TestClient(ctx).get('/api/current');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  });

  it('401 for an unknown session token', async () => {
    const client = new TestClient(ctx);
    client.cookies.set(cookieNames(ctx.config).session, 'not-a-real-session-token');
    const res = await client.get('/api/current');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  });

  it('answers the signed-in person with private fields, never the password hash', async () => {
    const { alice, clients } = await seedTrio(ctx);
    await ctx.db.db
      .update(users)
      .set({ bio: 'Hello', followersCount: 3, followingCount: 2, postsCount: 7 })
      .where(eq(users.id, alice.id));
    const res = await clients.alice.get('/api/current');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(currentUser.strict().safeParse(body).success).toBe(true);
    expect(body).toEqual({
      id: String(alice.id),
      name: 'Alice',
      username: 'alice',
      domain: null,
      email: 'alice@example.com',
      expandSpoilers: false,
      bio: 'Hello',
      profileImage: null,
      coverImage: null,
      createdAt: alice.createdAt.toISOString(),
      followersCount: 3,
      followingCount: 2,
      postsCount: 7,
      isFollowing: false,
      locked: false,
      followRequested: false,
      isBlocking: false,
      isMuting: false,
      suspended: false,
      role: 'member',
      hasNotification: false,
      defaultVisibility: 'public',
    });
    expect(res.body).not.toContain('argon2');
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('hasNotification is true while an unread notification exists, false once read', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const [n] = await ctx.db.db
      .insert(notifications)
      .values({ userId: alice.id, actorId: bob.id, type: 'follow' })
      .returning();
    expect((await clients.alice.get('/api/current')).json().hasNotification).toBe(true);
    // Someone else's notification says nothing about bob.
    expect((await clients.bob.get('/api/current')).json().hasNotification).toBe(false);

    await ctx.db.db.update(notifications).set({ readAt: new Date() }).where(eq(notifications.id, n!.id));
    expect((await clients.alice.get('/api/current')).json().hasNotification).toBe(false);
  });

  it('costs one query besides the session lookup', async () => {
    const { clients } = await seedTrio(ctx);
    const before = ctx.db.queries.count;
    await clients.alice.get('/api/current');
    // session lookup + current user (renewal is throttled to once a day, so not here)
    expect(ctx.db.queries.count - before).toBeLessThanOrEqual(2);
  });
});
