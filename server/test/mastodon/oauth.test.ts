/**
 * OAuth 2 for Mastodon apps, over HTTP on a real database: app registration, the consent page's
 * calls, the code exchange with PKCE (RFC 6749 §4.1, RFC 7636) and client credentials (§4.4),
 * revocation (RFC 7009), and every refusal with the RFC's error code.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AuthorizationResult } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { sql } from '../../src/db/client.ts';
import { PASSWORD, seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { rowsOf } from '../helpers/social.ts';
import { mastodonCall } from './openapi.ts';

const REDIRECT = 'https://app.example/callback';
const OOB = 'urn:ietf:wg:oauth:2.0:oob';

type Ctx = ReturnType<typeof useTestApp>;

const verifierOf = () => randomBytes(48).toString('base64url');
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** A request as an app makes it: no cookies, no CSRF header. */
function appRequest(ctx: Ctx, method: 'GET' | 'POST', url: string, body?: Record<string, string>, headers = {}) {
  return mastodonCall(ctx.app, {
    method,
    url,
    ...(body
      ? {
          payload: new URLSearchParams(body).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        }
      : { headers }),
  });
}

async function registerApp(ctx: Ctx, scopes = 'read write follow', redirectUris = `${REDIRECT}\n${OOB}`) {
  const res = await mastodonCall(ctx.app, {
    method: 'POST',
    url: '/api/v1/apps',
    payload: { client_name: 'Test App', redirect_uris: redirectUris, scopes, website: 'https://app.example' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    id: string;
    client_id: string;
    client_secret: string;
    scopes: string[];
    redirect_uris: string[];
  };
}

/** The consent page's Authorize, as the signed-in member; answers the code. */
async function authorize(
  member: TestClient,
  clientId: string,
  extra: Record<string, string> = {},
): Promise<{ code: string; result: AuthorizationResult }> {
  const query = { client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'read write', ...extra };
  const info = await member.get(`/api/oauth/authorization?${new URLSearchParams(query)}`);
  expect(info.statusCode, info.body).toBe(200);
  const res = await member.post('/api/oauth/authorization', { ...query, decision: 'approve' });
  expect(res.statusCode, res.body).toBe(200);
  const result = res.json() as AuthorizationResult;
  const code = result.redirectTo ? new URL(result.redirectTo).searchParams.get('code') : result.code;
  return { code: code!, result };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The token a code gives the app (secret, no PKCE). */
async function tokenOf(ctx: Ctx, app: { client_id: string; client_secret: string }, code: string): Promise<string> {
  const res = await appRequest(ctx, 'POST', '/oauth/token', {
    grant_type: 'authorization_code',
    code,
    client_id: app.client_id,
    client_secret: app.client_secret,
    redirect_uri: REDIRECT,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

describe('OAuth 2 for Mastodon apps', () => {
  // The instance's contact is the first admin's email (the description wants a real address).
  const ctx = useTestApp({ adminEmails: ['admin@pipit.example'] });

  it('registers an app (JSON or form) and refuses bad redirect URIs and unknown scopes', async () => {
    const app = await registerApp(ctx);
    expect(app).toMatchObject({ scopes: ['read', 'write', 'follow'], redirect_uris: [REDIRECT, OOB] });
    expect(app.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const form = await appRequest(ctx, 'POST', '/api/v1/apps', { client_name: 'Form App', redirect_uris: OOB });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json()).toMatchObject({ name: 'Form App', scopes: ['read'] });
    // Only the secret's hash is stored.
    const stored = await ctx.db.db.execute(
      sql`select client_secret_hash from oauth_apps where client_id = ${app.client_id}`,
    );
    expect(JSON.stringify(stored)).not.toContain(app.client_secret);

    for (const [payload, error] of [
      [{ client_name: 'x', redirect_uris: 'not a uri' }, 'invalid_request'],
      [{ client_name: 'x', redirect_uris: 'javascript:alert(1)' }, 'invalid_request'],
      [{ client_name: 'x', redirect_uris: OOB, scopes: 'read admin:everything' }, 'invalid_scope'],
      [{ redirect_uris: OOB }, 'invalid_request'],
    ] as const) {
      const res = await mastodonCall(ctx.app, { method: 'POST', url: '/api/v1/apps', payload });
      expect([res.statusCode, res.json().error], JSON.stringify(payload)).toEqual([400, error]);
    }
  });

  it('the consent page: members only; the request checked (client, redirect URI, response type, scope, PKCE method)', async () => {
    const { clients } = await seedTrio(ctx);
    const app = await registerApp(ctx, 'read');
    const base = { client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'read' };
    const ask = (client: TestClient, query: Record<string, string>) =>
      client.get(`/api/oauth/authorization?${new URLSearchParams(query)}`);
    expect((await ask(clients.visitor, base)).statusCode).toBe(401);
    expect((await ask(clients.alice, base)).json()).toEqual({
      app: { name: 'Test App', website: 'https://app.example' },
      scopes: ['read'],
      redirectUri: REDIRECT,
    });
    for (const [query, field] of [
      [{ ...base, client_id: 'nope' }, 'client_id'],
      [{ ...base, redirect_uri: 'https://evil.example/steal' }, 'request'],
      [{ ...base, response_type: 'token' }, 'response_type'],
      [{ ...base, scope: 'read write' }, 'scope'],
      [{ ...base, code_challenge: challengeOf(verifierOf()), code_challenge_method: 'plain' }, 'request'],
      [{ ...base, code_challenge: 'short', code_challenge_method: 'S256' }, 'request'],
    ] as const) {
      const res = await ask(clients.alice, query);
      expect([res.statusCode, res.json().code, res.json().field], JSON.stringify(query)).toEqual([
        400,
        'INVALID_INPUT',
        field,
      ]);
    }
    // Deny goes back to the app with access_denied and the state.
    const denied = await clients.alice.post('/api/oauth/authorization', { ...base, state: 's1', decision: 'deny' });
    const to = new URL(denied.json().redirectTo);
    expect([to.origin + to.pathname, to.searchParams.get('error'), to.searchParams.get('state')]).toEqual([
      REDIRECT,
      'access_denied',
      's1',
    ]);
  });

  it('trades a code for a token with PKCE; the token reads verify_credentials; the cookie never does', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const app = await registerApp(ctx);
    const verifier = verifierOf();
    const { code, result } = await authorize(clients.alice, app.client_id, {
      state: 'xyz',
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
    });
    expect(new URL(result.redirectTo!).searchParams.get('state')).toBe('xyz');

    const res = await appRequest(ctx, 'POST', '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const token = res.json();
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'read write' });
    const me = await mastodonCall(ctx.app, {
      url: '/api/v1/accounts/verify_credentials',
      headers: bearer(token.access_token),
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({
      id: String(alice.id),
      username: 'alice',
      acct: 'alice',
      source: { privacy: 'public' },
    });

    // The web's cookie is no credential here.
    expect((await clients.alice.get('/api/v1/accounts/verify_credentials')).statusCode).toBe(401);
    const wrong = await mastodonCall(ctx.app, { url: '/api/v1/accounts/verify_credentials', headers: bearer('nope') });
    expect([wrong.statusCode, wrong.json().error]).toEqual([401, 'The access token is invalid']);
  });

  it('refuses each broken exchange with the RFC error code, and a reused code revokes what it gave', async () => {
    const { clients } = await seedTrio(ctx);
    const app = await registerApp(ctx);
    const other = await registerApp(ctx);
    const verifier = verifierOf();
    const pkce = { code_challenge: challengeOf(verifier), code_challenge_method: 'S256' };
    const exchange = (code: string, extra: Record<string, string> = {}) =>
      appRequest(ctx, 'POST', '/oauth/token', {
        grant_type: 'authorization_code',
        code,
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        ...extra,
      });
    const refused = async (res: Awaited<ReturnType<typeof exchange>>, status: number, error: string) => {
      expect([res.statusCode, res.json().error], res.body).toEqual([status, error]);
      expect(typeof res.json().error_description).toBe('string');
    };

    const a = (await authorize(clients.alice, app.client_id, pkce)).code;
    await refused(await exchange(a, { code_verifier: verifierOf() }), 400, 'invalid_grant'); // wrong verifier
    await refused(await exchange(a, { code_verifier: '' }), 400, 'invalid_grant'); // none
    await refused(await exchange(a, { redirect_uri: 'https://app.example/other' }), 400, 'invalid_grant');
    await refused(await exchange(a, { client_secret: 'not the secret' }), 401, 'invalid_client');
    await refused(await exchange(a, { client_id: other.client_id }), 400, 'invalid_grant'); // another client's code
    await refused(await exchange(a, { client_id: 'unknown' }), 401, 'invalid_client');
    await refused(await exchange(a, { grant_type: 'password' }), 400, 'unsupported_grant_type');
    await refused(await exchange(a, { grant_type: '' }), 400, 'invalid_request');
    await refused(await exchange('not-a-code'), 400, 'invalid_grant');

    // The refusals did not spend it: it works once, then never again, and reusing it revokes the token.
    const first = await exchange(a);
    expect(first.statusCode, first.body).toBe(200);
    const token = first.json().access_token as string;
    await refused(await exchange(a), 400, 'invalid_grant');
    expect(
      (await mastodonCall(ctx.app, { url: '/api/v1/accounts/verify_credentials', headers: bearer(token) })).statusCode,
    ).toBe(401);

    // An expired code.
    const b = (await authorize(clients.alice, app.client_id, pkce)).code;
    await ctx.db.db.execute(sql`update oauth_codes set expires_at = now() - interval '1 second'`);
    await refused(await exchange(b), 400, 'invalid_grant');

    // Without PKCE the client authenticates with its secret.
    const c = (await authorize(clients.alice, app.client_id)).code;
    await refused(await exchange(c, { code_verifier: '' }), 401, 'invalid_client');
    const withSecret = await exchange(c, { code_verifier: '', client_secret: app.client_secret });
    expect(withSecret.statusCode, withSecret.body).toBe(200);
    // HTTP Basic works as well as the body (RFC 6749 §2.3.1).
    const d = (await authorize(clients.alice, app.client_id)).code;
    const basic = Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64');
    const viaBasic = await appRequest(
      ctx,
      'POST',
      '/oauth/token',
      { grant_type: 'authorization_code', code: d, redirect_uri: REDIRECT },
      { authorization: `Basic ${basic}` },
    );
    expect(viaBasic.statusCode, viaBasic.body).toBe(200);
  });

  it('shows the code on the page for an out-of-band app; client credentials give an app token', async () => {
    const { clients } = await seedTrio(ctx);
    const app = await registerApp(ctx);
    const { code, result } = await authorize(clients.alice, app.client_id, { redirect_uri: OOB });
    expect(result).toEqual({ redirectTo: null, code });
    const token = await appRequest(ctx, 'POST', '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: OOB,
    });
    expect(token.statusCode, token.body).toBe(200);

    const asApp = await appRequest(ctx, 'POST', '/oauth/token', {
      grant_type: 'client_credentials',
      client_id: app.client_id,
      client_secret: app.client_secret,
      scope: 'read',
    });
    expect(asApp.statusCode, asApp.body).toBe(200);
    // An app token is nobody: what needs a person answers Mastodon's 422 ("requires an authenticated user").
    const me = await mastodonCall(ctx.app, {
      url: '/api/v1/accounts/verify_credentials',
      headers: bearer(asApp.json().access_token),
    });
    expect([me.statusCode, me.json()]).toEqual([
      422,
      { error: 'This method requires an authenticated user', details: {} },
    ]);
    const tooMuch = await appRequest(ctx, 'POST', '/oauth/token', {
      grant_type: 'client_credentials',
      client_id: app.client_id,
      client_secret: app.client_secret,
      scope: 'push',
    });
    expect([tooMuch.statusCode, tooMuch.json().error]).toEqual([400, 'invalid_scope']);
  });

  it('scopes are enforced: a token without read or profile cannot verify credentials', async () => {
    const { clients } = await seedTrio(ctx);
    const app = await registerApp(ctx, 'read write profile');
    const exchange = async (scope: string) =>
      tokenOf(ctx, app, (await authorize(clients.alice, app.client_id, { scope })).code);
    const check = async (token: string) =>
      (await mastodonCall(ctx.app, { url: '/api/v1/accounts/verify_credentials', headers: bearer(token) })).statusCode;
    expect(await check(await exchange('write'))).toBe(403);
    expect(await check(await exchange('profile'))).toBe(200);
    expect(await check(await exchange('read:accounts'))).toBe(200);
  });

  it('revoking a token, the app in Settings, signing out others, a new password or a suspension ends access at once', async () => {
    const { bob, clients } = await seedTrio(ctx);
    const app = await registerApp(ctx);
    const tokenFor = async (client: TestClient) => tokenOf(ctx, app, (await authorize(client, app.client_id)).code);
    const works = async (token: string) =>
      (await mastodonCall(ctx.app, { url: '/api/v1/accounts/verify_credentials', headers: bearer(token) }))
        .statusCode === 200;

    // RFC 7009.
    const t1 = await tokenFor(clients.alice);
    expect(await works(t1)).toBe(true);
    const revoke = (token: string, secret = app.client_secret) =>
      appRequest(ctx, 'POST', '/oauth/revoke', { client_id: app.client_id, client_secret: secret, token });
    expect((await revoke(t1, 'wrong')).statusCode).toBe(401);
    expect(await works(t1)).toBe(true);
    expect((await revoke(t1)).statusCode).toBe(200);
    expect(await works(t1)).toBe(false);
    expect((await revoke('never-issued')).statusCode).toBe(200);

    // Settings → Authorized apps → Revoke.
    const t2 = await tokenFor(clients.alice);
    const listed = (await clients.alice.get('/api/oauth/apps')).json();
    expect(listed.items).toEqual([
      expect.objectContaining({ id: app.id, name: 'Test App', scopes: ['read', 'write'] }),
    ]);
    expect((await clients.bob.delete(`/api/oauth/apps/${app.id}`)).statusCode).toBe(404);
    expect(await works(t2)).toBe(true);
    expect((await clients.alice.delete(`/api/oauth/apps/${app.id}`)).statusCode).toBe(204);
    expect(await works(t2)).toBe(false);
    expect((await clients.alice.get('/api/oauth/apps')).json().items).toEqual([]);

    // Sign out all others; a new password.
    const t3 = await tokenFor(clients.alice);
    expect((await clients.alice.post('/api/sessions/revoke-others')).statusCode).toBe(204);
    expect(await works(t3)).toBe(false);
    const t4 = await tokenFor(clients.alice);
    const changed = await clients.alice.post('/api/settings/password', {
      currentPassword: PASSWORD,
      newPassword: 'an entirely new passphrase 7',
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect(await works(t4)).toBe(false);

    // A suspension.
    const t5 = await tokenFor(clients.bob);
    expect(await works(t5)).toBe(true);
    await ctx.db.db.execute(sql`update users set role = 'moderator' where username = 'carol'`);
    ctx.app.services.events.resync();
    expect((await clients.carol.put(`/api/moderation/users/${bob.id}/suspension`)).statusCode).toBe(200);
    expect(await works(t5)).toBe(false);
  });

  it('publishes its metadata (RFC 8414) and the instance without a token', async () => {
    const meta = await mastodonCall(ctx.app, { url: '/.well-known/oauth-authorization-server' });
    expect(meta.json()).toMatchObject({
      authorization_endpoint: 'http://localhost:3999/oauth/authorize',
      token_endpoint: 'http://localhost:3999/oauth/token',
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'client_credentials'],
    });
    for (const url of ['/api/v1/instance', '/api/v2/instance']) {
      const res = await mastodonCall(ctx.app, { url });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().version).toMatch(/^4\.3\.0 \(compatible; Pipit \d+\.\d+\.\d+\)$/);
    }
    expect((await mastodonCall(ctx.app, { url: '/api/v2/instance' })).json()).toMatchObject({
      api_versions: { mastodon: 2 },
      configuration: { statuses: { max_characters: 280, max_media_attachments: 4 } },
    });
  });

  it('a cross-site form post with the session cookie writes nothing; a read-only token cannot post', async () => {
    const { clients } = await seedTrio(ctx);
    const postCount = async () =>
      rowsOf<{ n: number }>(await ctx.db.db.execute(sql`select count(*)::int as n from posts`))[0]?.n;
    const before = await postCount();
    // What a hostile page can make a signed-in browser send: its cookies, a form, no bearer token.
    for (const headers of [{}, { 'x-csrf-token': clients.alice.csrfToken ?? '' }]) {
      const res = await clients.alice.post('/api/v1/statuses', 'status=forged', {
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', ...headers },
      });
      expect([res.statusCode, res.json().error]).toEqual([401, 'The access token is invalid']);
    }
    const app = await registerApp(ctx);
    const { code } = await authorize(clients.alice, app.client_id, { scope: 'read' });
    const token = await tokenOf(ctx, app, code);
    const readOnly = await mastodonCall(ctx.app, {
      method: 'POST',
      url: '/api/v1/statuses',
      headers: bearer(token),
      payload: { status: 'not allowed' },
    });
    expect([readOnly.statusCode, readOnly.json().error]).toEqual([403, 'This action is outside the authorized scopes']);
    expect(await postCount()).toBe(before);
  });
});
