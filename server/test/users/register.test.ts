import { currentUser } from '@pipit/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { violatedUniqueConstraint } from '../../src/lib/db-errors.ts';
import { insertUser as insertUserRow } from '../../src/modules/users/users.repository.ts';
import { insertUser, TestClient, useTestApp } from '../helpers/app.ts';

const valid = { email: 'dana@example.com', password: 'a long enough pass', username: 'dana', name: 'Dana' };

describe('POST /api/register', () => {
  const ctx = useTestApp();
  const visitor = () => new TestClient(ctx).withCsrf();
  const register = (body: unknown, client = visitor()) => client.post('/api/register', body);

  it('creates the account and answers 201 with the current-user shape', async () => {
    const res = await register({ ...valid, email: '  Dana@Example.COM ', name: '  Dana Scully  ' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(currentUser.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      email: 'dana@example.com',
      username: 'dana',
      name: 'Dana Scully',
      bio: '',
      profileImage: null,
      coverImage: null,
      followersCount: 0,
      followingCount: 0,
      postsCount: 0,
      isFollowing: false,
      hasNotification: false,
    });
    expect(body.id).toMatch(/^[1-9]\d*$/);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('does not sign the person in', async () => {
    const client = visitor();
    const res = await register(valid, client);
    expect(res.statusCode).toBe(201);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await client.get('/api/current')).statusCode).toBe(401);
  });

  it('stores an argon2id hash, never the password', async () => {
    const res = await register(valid);
    const [row] = await ctx.db.db
      .select()
      .from(users)
      .where(eq(users.id, Number(res.json().id)));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain(valid.password);
    expect(res.body).not.toContain('argon2');
  });

  it('keeps the username as typed; the profile is public right away', async () => {
    const res = await register({ ...valid, username: 'Dana_X' });
    const profile = await visitor().get(`/api/users/${res.json().id}`);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ username: 'Dana_X', name: 'Dana' });
  });

  describe('taken email or username, ignoring case', () => {
    it('409 EMAIL_TAKEN', async () => {
      await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
      const res = await register({ ...valid, email: 'ALICE@example.com' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'EMAIL_TAKEN', field: 'email' });
    });

    it('409 USERNAME_TAKEN', async () => {
      await insertUser(ctx.db, { username: 'alice' });
      const res = await register({ ...valid, username: 'ALICE' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'USERNAME_TAKEN', field: 'username' });
    });

    it('an email taken by a mixed-case stored address is still taken', async () => {
      await insertUser(ctx.db, { username: 'alice', email: 'Alice@Example.com' });
      const res = await register({ ...valid, email: 'alice@example.com' });
      expect(res.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
    });

    it('two simultaneous registrations of one email: one 201, one 409 (the unique index decides)', async () => {
      const [a, b] = await Promise.all([
        register({ ...valid, email: 'race@example.com', username: 'racer1' }),
        register({ ...valid, email: 'RACE@example.com', username: 'racer2' }),
      ]);
      expect([a!.statusCode, b!.statusCode].sort()).toEqual([201, 409]);
      expect([a!, b!].find((r) => r.statusCode === 409)!.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
      const [c, d] = await Promise.all([
        register({ ...valid, email: 'one@example.com', username: 'Twin' }),
        register({ ...valid, email: 'two@example.com', username: 'twin' }),
      ]);
      expect([c!.statusCode, d!.statusCode].sort()).toEqual([201, 409]);
      expect([c!, d!].find((r) => r.statusCode === 409)!.json()).toMatchObject({ code: 'USERNAME_TAKEN' });
    });

    it('a unique violation names its index on this database (the race maps to the same 409)', async () => {
      const row = { email: 'x@example.com', username: 'x', name: 'X', passwordHash: 'h' };
      await insertUserRow(ctx.db.db, row, false);
      const emailClash = await insertUserRow(ctx.db.db, { ...row, username: 'y', email: 'X@example.com' }, false).catch(
        (e: unknown) => e,
      );
      expect(violatedUniqueConstraint(emailClash)).toBe('users_email_lower_key');
      const usernameClash = await insertUserRow(
        ctx.db.db,
        { ...row, email: 'y@example.com', username: 'X' },
        false,
      ).catch((e: unknown) => e);
      expect(violatedUniqueConstraint(usernameClash)).toBe('users_username_lower_key');
      expect(violatedUniqueConstraint(new Error('other'))).toBeNull();
    });
  });

  describe('every limit, answered 400 INVALID_INPUT naming the field', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['missing email', { email: undefined }, 'email'],
      ['malformed email', { email: 'dana@example' }, 'email'],
      ['email with a space', { email: 'da na@example.com' }, 'email'],
      ['email over 254 characters', { email: `${'a'.repeat(243)}@example.com` }, 'email'],
      ['password of 7 characters', { password: 'abcdef7' }, 'password'],
      ['password of 129 characters', { password: 'x'.repeat(129) }, 'password'],
      ['a most common password', { password: 'baseball' }, 'password'],
      ['a most common password in other case', { password: 'FootBall' }, 'password'],
      ['another common password', { password: 'iloveyou1' }, 'password'],
      ['empty username', { username: '' }, 'username'],
      ['username of 31 characters', { username: 'a'.repeat(31) }, 'username'],
      ['username with a dash', { username: 'da-na' }, 'username'],
      ['username with a space', { username: 'da na' }, 'username'],
      ['username with an accent', { username: 'dané' }, 'username'],
      ['reserved username', { username: 'admin' }, 'username'],
      ['reserved username in other case', { username: 'Notifications' }, 'username'],
      ['reserved username api', { username: 'API' }, 'username'],
      ['blank name', { name: '   ' }, 'name'],
      ['name of 51 characters', { name: 'n'.repeat(51) }, 'name'],
      ['name with a control character', { name: 'Da\u0007na' }, 'name'],
      ['name with a newline', { name: 'Da\nna' }, 'name'],
      ['name with a tab', { name: 'Da\tna' }, 'name'],
      ['name with a right-to-left override', { name: 'Dana\u202Egnp.exe' }, 'name'],
      ['email of the wrong type', { email: 42 }, 'email'],
      ['password of the wrong type', { password: null }, 'password'],
      ['username of the wrong type', { username: ['dana'] }, 'username'],
      ['name of the wrong type', { name: { first: 'Dana' } }, 'name'],
    ];
    it.each(cases)('%s', async (_label, change, field) => {
      const res = await register({ ...valid, ...change });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.code).toBe('INVALID_INPUT');
      expect(body.field).toBe(field);
      expect(typeof body.message).toBe('string');
      expect(await ctx.db.db.select().from(users)).toHaveLength(0);
    });

    it.each([
      ['a password of exactly 8', { password: 'zq8!vmk2' }],
      ['a password of exactly 128', { password: `${'p'.repeat(127)}!` }],
      ['a username of 1', { username: 'd' }],
      ['a username of 30', { username: 'd'.repeat(30) }],
      ['a name of 50', { name: 'n'.repeat(50) }],
      ['an email of 254', { email: `${'a'.repeat(242)}@example.com` }],
      ['a name with emoji and accents', { name: 'Zoë 🐦 Ōtani' }],
    ])('accepts %s', async (_label, change) => {
      const res = await register({ ...valid, ...change });
      expect(res.statusCode).toBe(201);
    });

    it.each([
      ['isAdmin', { isAdmin: true }],
      ['passwordHash', { passwordHash: '$argon2id$forged' }],
      ['id', { id: '1' }],
      ['followersCount', { followersCount: 1000 }],
    ])('refuses the extra field %s', async (field, extra) => {
      const res = await register({ ...valid, ...extra });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_INPUT');
      expect(res.json().message).toContain(field);
      expect(await ctx.db.db.select().from(users)).toHaveLength(0);
    });

    it.each([
      ['an array', '[]'],
      ['null', 'null'],
      ['a string', '"dana"'],
      ['broken JSON', '{"email": '],
    ])('refuses a body that is %s', async (_label, raw) => {
      const res = await visitor().post('/api/register', raw, { headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_INPUT');
    });
  });

  describe('transport', () => {
    it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
      const text = await visitor().post('/api/register', JSON.stringify(valid), {
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.statusCode).toBe(415);
      expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const form = await visitor().post('/api/register', new URLSearchParams(valid).toString(), {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.statusCode).toBe(415);
      expect(form.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('413 PAYLOAD_TOO_LARGE past the 64 KB body limit', async () => {
      const res = await register({ ...valid, name: 'n'.repeat(70 * 1024) });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('403 CSRF_FAILED without the CSRF token', async () => {
      const res = await new TestClient(ctx).post('/api/register', valid);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_FAILED');
      expect(await ctx.db.db.select().from(users)).toHaveLength(0);
    });
  });
});
