import { user } from '@pipit/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { follows, users } from '../../src/db/schema.ts';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';

describe('GET /api/users/:id', () => {
  const ctx = useTestApp();

  it('answers a public profile to a visitor, without private fields', async () => {
    const { bob } = await seedTrio(ctx);
    await ctx.db.db
      .update(users)
      .set({ bio: 'Birds.', followersCount: 12, followingCount: 3, postsCount: 40 })
      .where(eq(users.id, bob.id));
    const res = await new TestClient(ctx).get(`/api/users/${bob.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(user.strict().safeParse(body).success).toBe(true);
    expect(body).toEqual({
      id: String(bob.id),
      name: 'Bob',
      username: 'bob',
      domain: null,
      bio: 'Birds.',
      profileImage: null,
      coverImage: null,
      createdAt: bob.createdAt.toISOString(),
      followersCount: 12,
      followingCount: 3,
      postsCount: 40,
      isFollowing: false,
      locked: false,
      followRequested: false,
      isBlocking: false,
      isMuting: false,
      suspended: false,
    });
    expect(res.body).not.toContain('example.com');
  });

  it('isFollowing says whether the viewer follows them (false for oneself)', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    await ctx.db.db.insert(follows).values({ followerId: alice.id, followeeId: bob.id });
    expect((await clients.alice.get(`/api/users/${bob.id}`)).json().isFollowing).toBe(true);
    expect((await clients.carol.get(`/api/users/${bob.id}`)).json().isFollowing).toBe(false);
    expect((await clients.bob.get(`/api/users/${alice.id}`)).json().isFollowing).toBe(false);
    expect((await clients.bob.get(`/api/users/${bob.id}`)).json().isFollowing).toBe(false);
    expect((await clients.visitor.get(`/api/users/${bob.id}`)).json().isFollowing).toBe(false);
  });

  it('404 NOT_FOUND for an unknown id', async () => {
    await seedTrio(ctx);
    for (const id of ['999', '999999999999999999']) {
      const res = await new TestClient(ctx).get(`/api/users/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
  });

  it.each(['abc', '0', '-1', '1e3', '01', '1.5', '9'.repeat(19), '%20'])(
    '404 NOT_FOUND for the id "%s", which cannot exist',
    async (id) => {
      const res = await new TestClient(ctx).get(`/api/users/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    },
  );
});

describe('GET /api/users/by-username/:username', () => {
  const ctx = useTestApp();

  it('finds a person by username ignoring case, as an @mention does', async () => {
    const alice = await insertUser(ctx.db, { username: 'Alice_W' });
    const res = await new TestClient(ctx).get('/api/users/by-username/alice_w');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: String(alice.id), username: 'Alice_W', isFollowing: false });
  });

  it('says whether the viewer follows them, and false on their own profile', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    expect((await clients.alice.put(`/api/users/${bob.id}/follow`)).statusCode).toBe(200);
    expect((await clients.alice.get('/api/users/by-username/bob')).json().isFollowing).toBe(true);
    expect((await clients.alice.get(`/api/users/by-username/${alice.username}`)).json().isFollowing).toBe(false);
  });

  it('answers 404 NOT_FOUND for nobody, and for a name nobody can have', async () => {
    const client = new TestClient(ctx);
    const missing = await client.get('/api/users/by-username/nobody');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
    const bad = await client.get('/api/users/by-username/no-dashes');
    expect(bad.statusCode).toBe(404);
    expect(bad.json().code).toBe('NOT_FOUND');
  });
});
