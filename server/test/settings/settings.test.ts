/**
 * Settings (issue 11, part 4, first half): changing the password needs the current one and ends every
 * other session; a member sees their signed-in sessions (each named by its browser, the current one
 * first) and can end one, or all but this one. Nobody else's sessions can be seen or ended.
 */
import type { SessionList } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { insertUser, PASSWORD, signInWithPassword, TestClient, testConfig, useTestApp } from '../helpers/app.ts';

const NEW_PASSWORD = 'a much longer passphrase 42';

describe('settings', () => {
  const ctx = useTestApp();

  /** A member signed in twice: `here` through the sign-in form (with a User-Agent), `there` directly. */
  async function twice(username = 'alice') {
    const user = await insertUser(ctx.db, { username, email: `${username}@example.com` });
    const here = new TestClient(ctx).withCsrf();
    const res = await signInWithPassword(
      here,
      `${username}@example.com`,
      PASSWORD,
      {},
      {
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' },
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const there = await new TestClient(ctx).signInAs(user.id);
    return { user, here, there };
  }
  const signedIn = async (client: TestClient) => (await client.get('/api/current')).statusCode === 200;

  it('lists the member’s sessions, the current one first and named by its browser', async () => {
    const { here, there } = await twice();
    const other = await twice('bob');
    const list = (await here.get('/api/sessions')).json<SessionList>();
    expect(list.items).toHaveLength(2);
    expect(list.items[0]).toMatchObject({
      current: true,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
    });
    expect(list.items[1]).toMatchObject({ current: false, userAgent: null });
    expect(Number.isNaN(Date.parse(list.items[0]?.lastActiveAt ?? ''))).toBe(false);
    // From the other browser, that one is current.
    const fromThere = (await there.get('/api/sessions')).json<SessionList>();
    expect(fromThere.items.map((s) => s.current)).toEqual([true, false]);
    expect(fromThere.items[0]?.id).toBe(list.items[1]?.id);
    // Bob's are not among them.
    const bobs = (await other.here.get('/api/sessions')).json<SessionList>().items.map((s) => s.id);
    expect(list.items.some((s) => bobs.includes(s.id))).toBe(false);
  });

  it('ends one session (404 for someone else’s or an unknown one), and all the others', async () => {
    const { here, there } = await twice();
    const bob = await twice('bob');
    const [, theirs] = (await here.get('/api/sessions')).json<SessionList>().items;
    const bobsOwn = (await bob.here.get('/api/sessions')).json<SessionList>().items[0]!;
    for (const id of [bobsOwn.id, '999999']) {
      const res = await here.delete(`/api/sessions/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect(await signedIn(bob.here)).toBe(true);
    // An id that cannot exist is not found either (the endpoint declares NOT_FOUND, not INVALID_INPUT).
    const malformed = await here.delete('/api/sessions/abc');
    expect([malformed.statusCode, malformed.json().code]).toEqual([404, 'NOT_FOUND']);

    expect((await here.delete(`/api/sessions/${theirs?.id}`)).statusCode).toBe(204);
    expect(await signedIn(there)).toBe(false);
    expect(await signedIn(here)).toBe(true);

    const third = await new TestClient(ctx).signInAs((await here.get('/api/current')).json().id);
    expect(await signedIn(third)).toBe(true);
    expect((await here.post('/api/sessions/revoke-others')).statusCode).toBe(204);
    expect(await signedIn(third)).toBe(false);
    expect(await signedIn(here)).toBe(true);
    expect((await here.get('/api/sessions')).json<SessionList>().items).toHaveLength(1);
    expect(await signedIn(bob.here)).toBe(true);
  });

  it('changes the password with the current one; every other session ends; the new one signs in', async () => {
    const { here, there } = await twice();
    const res = await here.post('/api/settings/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(204);
    expect(await signedIn(here)).toBe(true);
    expect(await signedIn(there)).toBe(false);
    const fresh = new TestClient(ctx).withCsrf();
    expect((await signInWithPassword(fresh, 'alice@example.com', PASSWORD)).statusCode).toBe(401);
    expect((await signInWithPassword(fresh, 'alice@example.com', NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('changes the email with the password: unique ignoring case, stored lower-case, signs in from then on', async () => {
    const { here, there } = await twice();
    await insertUser(ctx.db, { username: 'bob', email: 'bob@example.com' });
    const refused: [Record<string, unknown>, number, string, string][] = [
      [{ email: 'alice.new@example.com', password: 'wrong' }, 400, 'INVALID_INPUT', 'password'],
      [{ email: 'Bob@Example.com', password: PASSWORD }, 409, 'EMAIL_TAKEN', 'email'],
      [{ email: 'not an email', password: PASSWORD }, 400, 'INVALID_INPUT', 'email'],
      [{ email: 'alice.new@example.com' }, 400, 'INVALID_INPUT', 'password'],
    ];
    for (const [body, status, code, field] of refused) {
      const res = await here.post('/api/settings/email', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json()).toMatchObject({ code, field });
    }
    const res = await here.post('/api/settings/email', { email: ' Alice.New@Example.com ', password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().email).toBe('alice.new@example.com');
    // Every session sees it (the cached ones too); the new address signs in, the old one no longer does.
    expect((await there.get('/api/current')).json().email).toBe('alice.new@example.com');
    expect((await signInWithPassword(new TestClient(ctx).withCsrf(), 'alice.new@example.com')).statusCode).toBe(200);
    expect((await signInWithPassword(new TestClient(ctx).withCsrf(), 'alice@example.com')).statusCode).toBe(401);
  });

  it('refuses a wrong current password and weak new ones, each on its field, changing nothing', async () => {
    const { here, there } = await twice();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ currentPassword: 'not it at all', newPassword: NEW_PASSWORD }, 'currentPassword', /not right/],
      [{ currentPassword: PASSWORD, newPassword: 'short' }, 'newPassword', /at least 8/],
      [{ currentPassword: PASSWORD, newPassword: PASSWORD }, 'newPassword', /differ/],
      [{ currentPassword: PASSWORD, newPassword: 'password123' }, 'newPassword', /most common/],
      [{ currentPassword: PASSWORD, newPassword: 'alice@example.com' }, 'newPassword', /email/],
      [{ currentPassword: '', newPassword: NEW_PASSWORD }, 'currentPassword', /current password/],
      [{ newPassword: NEW_PASSWORD }, 'currentPassword', /./],
      [{ currentPassword: PASSWORD, newPassword: NEW_PASSWORD, isAdmin: true }, 'body', /./],
    ];
    for (const [body, field, message] of cases) {
      const res = await here.post('/api/settings/password', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('INVALID_INPUT');
      if (field !== 'body') expect(res.json().field, JSON.stringify(body)).toBe(field);
      expect(res.json().message).toMatch(message);
    }
    expect(await signedIn(there)).toBe(true);
    expect((await signInWithPassword(new TestClient(ctx).withCsrf(), 'alice@example.com')).statusCode).toBe(200);
  });
});

describe('settings: password checks are rate-limited per account', () => {
  const ctx = useTestApp({
    rateLimits: {
      ...testConfig().rateLimits,
      enabled: true,
      signInIp: { max: 1000, windowMs: 60_000 },
      signInAccount: { max: 2, windowMs: 60 * 60_000 },
      register: { max: 1000, windowMs: 60_000 },
      write: { max: 1000, windowMs: 60_000 },
    },
  });

  it('the third password check in an hour (a password or an email change) is 429 RATE_LIMITED with Retry-After, and changes nothing', async () => {
    const user = await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
    const alice = await new TestClient(ctx).signInAs(user.id);
    for (let i = 0; i < 2; i++) {
      const res = await alice.post('/api/settings/password', { currentPassword: 'guess', newPassword: NEW_PASSWORD });
      expect(res.statusCode).toBe(400);
    }
    const limited = await alice.post('/api/settings/password', {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Changing the email checks the password too: the same allowance.
    const email = await alice.post('/api/settings/email', { email: 'alice.new@example.com', password: PASSWORD });
    expect(email.statusCode).toBe(429);
    expect(email.json().code).toBe('RATE_LIMITED');
    // Deleting the account checks the password too: the same allowance, and the account stays.
    const remove = await alice.request('DELETE', '/api/account', { password: PASSWORD });
    expect(remove.statusCode).toBe(429);
    expect(remove.json().code).toBe('RATE_LIMITED');
    expect((await alice.get('/api/current')).json().email).toBe('alice@example.com');
    expect((await signInWithPassword(new TestClient(ctx).withCsrf(), 'alice@example.com')).statusCode).toBe(200);
  });
});
