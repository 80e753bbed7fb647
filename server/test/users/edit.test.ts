import { currentUser } from '@pipit/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';

describe('PATCH /api/edit (text fields)', () => {
  const ctx = useTestApp();

  it('updates name, username and bio, answers the current user, and the profile shows it', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const res = await clients.alice.patch('/api/edit', {
      name: '  Alice L.  ',
      username: 'Alice_L',
      bio: ' Hi there\nsecond line ',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(currentUser.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      id: String(alice.id),
      name: 'Alice L.',
      username: 'Alice_L',
      bio: 'Hi there\nsecond line',
      email: 'alice@example.com',
    });
    expect(res.headers['cache-control']).toBe('private, no-store');
    const profile = (await new TestClient(ctx).get(`/api/users/${alice.id}`)).json();
    expect(profile).toMatchObject({ name: 'Alice L.', username: 'Alice_L', bio: 'Hi there\nsecond line' });
  });

  it('leaves absent fields alone; an empty body changes nothing', async () => {
    const { clients } = await seedTrio(ctx);
    await clients.alice.patch('/api/edit', { bio: 'kept' });
    const res = await clients.alice.patch('/api/edit', { name: 'New Name' });
    expect(res.json()).toMatchObject({ name: 'New Name', username: 'alice', bio: 'kept' });
    const same = await clients.alice.patch('/api/edit', {});
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ name: 'New Name', username: 'alice', bio: 'kept' });
  });

  it('a null bio clears it; bio of 160 characters is accepted', async () => {
    const { clients } = await seedTrio(ctx);
    expect((await clients.alice.patch('/api/edit', { bio: 'b'.repeat(160) })).json().bio).toHaveLength(160);
    expect((await clients.alice.patch('/api/edit', { bio: null })).json().bio).toBe('');
  });

  it('changing only the case of your own username is allowed', async () => {
    const { clients } = await seedTrio(ctx);
    const res = await clients.alice.patch('/api/edit', { username: 'ALICE' });
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('ALICE');
  });

  it('409 USERNAME_TAKEN for someone else’s username, ignoring case', async () => {
    const { clients } = await seedTrio(ctx);
    const res = await clients.alice.patch('/api/edit', { username: 'BoB', name: 'Not applied' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'USERNAME_TAKEN', field: 'username' });
    expect((await clients.alice.get('/api/current')).json()).toMatchObject({ username: 'alice', name: 'Alice' });
  });

  it('two people taking one free username at once: one 200, one 409', async () => {
    const { clients } = await seedTrio(ctx);
    const [a, b] = await Promise.all([
      clients.alice.patch('/api/edit', { username: 'free_name' }),
      clients.bob.patch('/api/edit', { username: 'FREE_NAME' }),
    ]);
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
  });

  describe('400 INVALID_INPUT naming the field', () => {
    it.each<[string, Record<string, unknown>, string]>([
      ['blank name', { name: '  ' }, 'name'],
      ['name of 51', { name: 'n'.repeat(51) }, 'name'],
      ['name with a control character', { name: 'a\u0000b' }, 'name'],
      ['name with a bidi override', { name: 'a\u202Eb' }, 'name'],
      ['empty username', { username: '' }, 'username'],
      ['username of 31', { username: 'u'.repeat(31) }, 'username'],
      ['username with a dot', { username: 'a.b' }, 'username'],
      ['reserved username', { username: 'Settings' }, 'username'],
      ['bio of 161', { bio: 'b'.repeat(161) }, 'bio'],
      ['bio with a control character', { bio: 'a\u0007b' }, 'bio'],
      ['name of the wrong type', { name: 5 }, 'name'],
      ['bio of the wrong type', { bio: ['x'] }, 'bio'],
      ['profileImage of the wrong type', { profileImage: 5 }, 'profileImage'],
      ['coverImage of the wrong type', { coverImage: { url: 'x' } }, 'coverImage'],
      ['profileImage as some other URL', { profileImage: 'https://evil.example/a.png' }, 'profileImage'],
      ['profileImage as a made-up media URL', { profileImage: `/media/${'a'.repeat(64)}.jpg` }, 'profileImage'],
      ['coverImage as a file path', { coverImage: '/etc/passwd' }, 'coverImage'],
      ['coverImage as an empty string', { coverImage: '' }, 'coverImage'],
    ])('%s', async (_label, body, field) => {
      const { clients } = await seedTrio(ctx);
      const res = await clients.alice.patch('/api/edit', { name: 'Not applied', ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field });
      expect((await clients.alice.get('/api/current')).json().name).toBe('Alice');
    });

    it.each(['email', 'passwordHash', 'isAdmin', 'followersCount', 'id', 'hasNotification'])(
      'refuses the extra field %s',
      async (field) => {
        const { alice, clients } = await seedTrio(ctx);
        const res = await clients.alice.patch('/api/edit', { [field]: field === 'isAdmin' ? true : 'x' });
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('INVALID_INPUT');
        expect(res.json().message).toContain(field);
        const [row] = await ctx.db.db.select().from(users).where(eq(users.id, alice.id));
        expect(row!.email).toBe('alice@example.com');
      },
    );
  });

  describe('transport and access', () => {
    it('401 UNAUTHENTICATED for a visitor (with or without a body)', async () => {
      const visitor = new TestClient(ctx).withCsrf();
      for (const body of [{ name: 'x' }, undefined]) {
        const res = await visitor.patch('/api/edit', body);
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('UNAUTHENTICATED');
      }
    });

    it('401 for a session cookie that resolves to no one', async () => {
      const ghost = await insertUser(ctx.db, { username: 'ghost' });
      const client = await new TestClient(ctx).signInAs(ghost.id);
      await ctx.db.db.delete(users).where(eq(users.id, ghost.id));
      const res = await client.patch('/api/edit', { name: 'Boo' });
      expect(res.statusCode).toBe(401);
    });

    it('403 CSRF_FAILED without the CSRF header', async () => {
      const { clients } = await seedTrio(ctx);
      clients.alice.csrfToken = null;
      const res = await clients.alice.patch('/api/edit', { name: 'x' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_FAILED');
    });

    it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
      const { clients } = await seedTrio(ctx);
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const res = await clients.alice.patch('/api/edit', 'name=x', { headers: { 'content-type': type } });
        expect(res.statusCode).toBe(415);
        expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
    });

    it('takes bodies past 64 KB (images), 413 PAYLOAD_TOO_LARGE past 16 MB', async () => {
      const { clients } = await seedTrio(ctx);
      const bigBio = await clients.alice.patch('/api/edit', { bio: 'b'.repeat(100 * 1024) });
      expect(bigBio.statusCode).toBe(400); // parsed (not 413), then refused by the bio rule
      expect(bigBio.json().field).toBe('bio');
      const huge = await clients.alice.patch('/api/edit', {
        coverImage: `data:image/png;base64,${'A'.repeat(17 * 1024 * 1024)}`,
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE');
    });
  });
});
