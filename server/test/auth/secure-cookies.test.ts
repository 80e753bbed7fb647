/**
 * On an https public URL NextAuth switches to the __Secure-/__Host- cookie names and adds Secure;
 * every absolute URL it answers is built on that origin.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  insertUser,
  postForm,
  setCookieLines,
  signInWithPassword,
  TEST_SECRET,
  TestClient,
  useTestApp,
} from '../helpers/app.ts';

const ORIGIN = 'https://pipit.example';
const BASE = `${ORIGIN}/api/auth`;

describe('/api/auth on https', () => {
  const ctx = useTestApp({ publicUrl: ORIGIN, secureCookies: true });

  it('GET csrf: __Host- CSRF and __Secure- callback-url cookies, with Secure', async () => {
    const res = await new TestClient(ctx).get('/api/auth/csrf');
    const { csrfToken } = res.json();
    const hash = createHash('sha256').update(`${csrfToken}${TEST_SECRET}`).digest('hex');
    expect(setCookieLines(res)).toEqual([
      `__Host-next-auth.csrf-token=${csrfToken}%7C${hash}; Path=/; HttpOnly; Secure; SameSite=Lax`,
      '__Secure-next-auth.callback-url=https%3A%2F%2Fpipit.example; Path=/; HttpOnly; Secure; SameSite=Lax',
    ]);
  });

  it('GET providers builds its URLs on the https origin', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(res.json().credentials).toMatchObject({
      signinUrl: `${BASE}/signin/credentials`,
      callbackUrl: `${BASE}/callback/credentials`,
    });
  });

  it('signs in, reads, and signs out with the __Secure- session cookie', async () => {
    await insertUser(ctx.db, { username: 'alice', email: 'alice@example.com', name: 'Alice' });
    const client = new TestClient(ctx);
    const signIn = await signInWithPassword(client, 'alice@example.com', undefined, { callbackUrl: '/feed' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toEqual({ url: `${ORIGIN}/feed` });
    const line = setCookieLines(signIn).find((l) => l.startsWith('__Secure-next-auth.session-token='));
    expect(line).toMatch(
      /^__Secure-next-auth\.session-token=[A-Za-z0-9_-]{43}; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/,
    );
    // The unprefixed name is not read on https.
    expect(setCookieLines(signIn).some((l) => l.startsWith('next-auth.'))).toBe(false);

    const session = await client.get('/api/auth/session');
    expect(session.json().user).toEqual({ name: 'Alice', email: 'alice@example.com', image: null });

    const { csrfToken } = (await client.get('/api/auth/csrf')).json();
    const signOut = await postForm(client, '/api/auth/signout', { csrfToken, json: 'true' });
    expect(signOut.json()).toEqual({ url: `${ORIGIN}/feed` }); // the remembered callback URL
    expect(setCookieLines(signOut)).toContain(
      '__Secure-next-auth.session-token=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
    expect((await client.get('/api/auth/session')).json()).toEqual({});
  });

  it('answers failures with https URLs', async () => {
    const client = new TestClient(ctx);
    const csrf = await postForm(client, '/api/auth/callback/credentials', { json: 'true' });
    expect(csrf.json()).toEqual({ url: `${BASE}/signin?csrf=true` });
    const wrong = await signInWithPassword(client, 'nobody@example.com', 'nope');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ url: `${BASE}/error?error=CredentialsSignin&provider=credentials` });
    const error = await ctx.app.inject({ method: 'GET', url: '/api/auth/error?error=CredentialsSignin' });
    expect(error.headers.location).toBe(`${BASE}/signin?error=CredentialsSignin`);
  });

  it('an http callbackUrl on the same host is another origin, so it becomes the https origin', async () => {
    const res = await new TestClient(ctx).get('/api/auth/signin?callbackUrl=http%3A%2F%2Fpipit.example%2Ffeed');
    expect(res.headers.location).toBe('/?callbackUrl=https%3A%2F%2Fpipit.example');
  });
});
