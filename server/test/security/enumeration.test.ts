/**
 * Item 4: no account enumeration. Over many interleaved tries, an unknown email and a wrong password
 * give the same status, body and headers, and cost the same work: one argon2 verification each,
 * against a hash with the parameters of a real one (counted, not timed: timings on a shared machine
 * differ by more than any leak would). The per-account sign-in limit treats unknown emails like real
 * ones (else a 429 would reveal the account). Registration reveals a taken email or username with
 * 409, as docs/spec/product.md §3 requires, and nothing more. The password-reset form answers the
 * same for any email (its work happens in the background).
 */
import { describe, expect, it, vi } from 'vitest';
import { users } from '../../src/db/schema.ts';
import {
  insertUser,
  PASSWORD,
  setCookieLines,
  signInWithPassword,
  TestClient,
  testConfig,
  useTestApp,
} from '../helpers/app.ts';
import { listRoutes } from './support.ts';

// The real argon2, counted: each verification and the hash it was given.
const argon = vi.hoisted(() => ({ hashes: [] as string[] }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    verify: (hash: string, ...rest: [string]) => {
      argon.hashes.push(hash);
      return real.verify(hash, ...rest);
    },
  };
});

const TRIES = Number(process.env.ENUMERATION_TRIES ?? 20);

/** An argon2 hash's algorithm, version and cost parameters (what sets the work of a verification). */
const params = (hash: string) => hash.split('$').slice(1, 4).join('$');

describe('sign-in does not reveal which emails exist', () => {
  const ctx = useTestApp();

  it(`same status, body, headers and work (one argon2 verification) over ${TRIES} tries each`, async () => {
    await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
    const [alice] = await ctx.db.db.select({ hash: users.passwordHash }).from(users).limit(1);
    const client = new TestClient(ctx);
    const attempt = async (email: string) => {
      const from = argon.hashes.length;
      const res = await signInWithPassword(client, email, 'not the password');
      const verified = argon.hashes.slice(from).map(params);
      const { date: _date, ...headers } = res.headers;
      return { verified, status: res.statusCode, body: res.body, headers, cookies: setCookieLines(res) };
    };
    const reference = await attempt('alice@example.com');
    expect(reference.status).toBe(401);
    expect(reference.verified).toEqual([params(alice!.hash as string)]);
    for (let i = 0; i < TRIES; i++) {
      // Alternate which goes first, so neither path is always the one after the other.
      const pair =
        i % 2 === 0
          ? [await attempt('alice@example.com'), await attempt(`nobody-${i}@example.com`)]
          : [await attempt(`nobody-${i}@example.com`), await attempt('alice@example.com')];
      for (const answer of pair) {
        expect(answer).toEqual({ ...reference, cookies: [] });
      }
    }
  });

  it('malformed or missing credentials answer exactly like a wrong password', async () => {
    await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
    const answer = async (email: string, password: string) => {
      const res = await signInWithPassword(new TestClient(ctx), email, password);
      return { status: res.statusCode, body: res.body };
    };
    const reference = await answer('alice@example.com', 'not the password');
    for (const [email, password] of [
      ['ALICE@example.com', 'not the password'],
      ['nobody@example.com', ''],
      ['', 'x'],
      ['not-an-email', 'x'],
      ['alice@example.com', 'x'.repeat(10_000)],
      ['a'.repeat(300), 'x'],
      ['alice@example.com\u0000', 'x'],
      ['\u0000', '\u0000'],
    ] as const) {
      expect(await answer(email, password), `${email.slice(0, 30)} / ${password.length} chars`).toEqual(reference);
    }
  });
});

describe('the per-account sign-in limit does not reveal which emails exist', () => {
  const ctx = useTestApp({
    rateLimits: { ...testConfig().rateLimits, signInAccount: { max: 5, windowMs: 60 * 60_000 } },
  });

  it('an unknown email is limited exactly like a real one', async () => {
    await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
    const run = async (email: string) => {
      const answers: { status: number; body: string }[] = [];
      for (let i = 0; i < 6; i++) {
        // Every attempt from another IP: only the per-account limit applies.
        const res = await signInWithPassword(
          new TestClient(ctx),
          email,
          'not the password',
          {},
          {
            remoteAddress: `10.20.${email.length}.${i}`,
          },
        );
        answers.push({ status: res.statusCode, body: res.body.replace(/\d+ seconds/, 'N seconds') });
      }
      return answers;
    };
    const real = await run('alice@example.com');
    const unknown = await run('nobody-at-all@example.com');
    expect(real.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(unknown).toEqual(real);
  });
});

describe('registration reveals no more than the spec requires', () => {
  const ctx = useTestApp();

  it('a taken email or username is a 409 with its code and nothing about the account', async () => {
    await insertUser(ctx.db, {
      username: 'alice',
      email: 'alice@example.com',
      name: 'Alice Secret-Name',
      bio: 'hidden',
    });
    const client = new TestClient(ctx).withCsrf();
    const body = { email: 'ALICE@example.com', password: 'a fine password 42', username: 'newbie', name: 'New' };
    const email = await client.post('/api/register', body);
    expect(email.statusCode).toBe(409);
    expect(email.json().code).toBe('EMAIL_TAKEN');
    const username = await client.post('/api/register', { ...body, email: 'new@example.com', username: 'ALICE' });
    expect(username.statusCode).toBe(409);
    expect(username.json().code).toBe('USERNAME_TAKEN');
    for (const res of [email, username]) {
      for (const secret of ['Alice Secret-Name', 'hidden', 'alice@example.com', '"id"', 'argon2']) {
        expect(res.body).not.toContain(secret);
      }
      expect(setCookieLines(res).filter((c) => c.includes('session-token'))).toEqual([]);
    }
    // An invalid request is refused for its input, before any lookup: no 409 hint.
    const invalid = await client.post('/api/register', { ...body, password: 'short' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('INVALID_INPUT');
  });

  it('the password-reset form answers an unknown email exactly as a known one, limits included', async () => {
    await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
    const client = new TestClient(ctx).withCsrf();
    const answers: string[] = [];
    for (const email of ['alice@example.com', 'nobody@example.com', 'ALICE@example.com', 'nobody2@example.com']) {
      const res = await client.post('/api/password-reset', { email });
      const { date: _date, ...headers } = res.headers;
      answers.push(JSON.stringify({ status: res.statusCode, body: res.body, headers }));
    }
    expect(new Set(answers).size, answers.join('\n')).toBe(1);
    expect(JSON.parse(answers[0]!).status).toBe(204);
    // No route looks an account up by email for a visitor. Mastodon's lookup is by username (public, as
    // profiles are) and needs a token.
    const paths = listRoutes(ctx.app).map((r) => r.url);
    expect(paths.filter((p) => /lookup|exists|check|available/i.test(p))).toEqual(['/api/v1/accounts/lookup']);
    expect((await client.get('/api/v1/accounts/lookup?acct=alice')).statusCode).toBe(401);
    await ctx.app.services.jobs.drain();
  });

  it('the right password still signs in (the checks above are not vacuous)', async () => {
    await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com' });
    expect((await signInWithPassword(new TestClient(ctx), 'alice@example.com', PASSWORD)).statusCode).toBe(200);
  });
});
