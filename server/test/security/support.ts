/**
 * Shared pieces of the security suite: the list of routes the app really registers, a fingerprint
 * of every table (row counts and checksums) to prove a refused write changed nothing, and checks on
 * error answers.
 */
import { createECDH, createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { ERROR_CODES } from '@pipit/contract';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { App } from '../../src/app.ts';
import { type DbHandle, sql } from '../../src/db/client.ts';
import { recoveryCodes, twoFactor } from '../../src/db/schema.ts';
import {
  encryptSecret,
  hashRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
} from '../../src/modules/two-factor/two-factor.crypto.ts';
import { authorizeApp, insertUser, PASSWORD, seedTrio, TestClient } from '../helpers/app.ts';
import { imageUpload, type MultipartBody } from '../helpers/multipart.ts';
import { SoftAuthenticator } from '../helpers/webauthn.ts';
import { photo } from '../media/fixtures.ts';

export interface Route {
  method: string;
  url: string;
}

/**
 * Every method + path the app answers, read from Fastify's route tree (so a route added later is
 * covered without editing the tests). HEAD mirrors GET and is left out.
 */
export function listRoutes(app: App): Route[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const match = /^(\S.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 4));
    if (!match) continue;
    const path = (stack[depth - 1] ?? '') + match[1];
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[2] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD') routes.push({ method, url: path });
    }
  }
  return routes;
}

export const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The Mastodon client API and its OAuth endpoints: bearer tokens (never the cookie), no CSRF header,
 * errors as Mastodon's `{error}` (test/mastodon/ covers who may do what there).
 */
export const isMastodonRoute = (url: string) =>
  url.startsWith('/api/v1/') ||
  url.startsWith('/api/v2/') ||
  url.startsWith('/oauth/') ||
  url.startsWith('/.well-known/');

/** The product API's state-changing routes (what WRITE_CALLS lists): /api, not /api/auth, not Mastodon's. */
export const isProductWrite = (r: Route) =>
  UNSAFE_METHODS.has(r.method) &&
  r.url.startsWith('/api/') &&
  !r.url.startsWith('/api/auth/') &&
  !isMastodonRoute(r.url);

/** Fills `:param` segments (ids) with a value. */
export function fillParams(url: string, value: string): string {
  return url.replace(/:[A-Za-z_]+/g, value);
}

const TABLES = [
  'users',
  'password_resets',
  'blocks',
  'mutes',
  'muted_words',
  'sessions',
  'posts',
  'media_attachments',
  'post_hashtags',
  'followed_tags',
  'likes',
  'bookmarks',
  'follows',
  'follow_requests',
  'post_mentions',
  'direct_threads',
  'conversations',
  'notifications',
  'reports',
  'audit_log',
  'oauth_apps',
  'oauth_codes',
  'oauth_tokens',
  'lists',
  'list_members',
  'polls',
  'poll_options',
  'poll_votes',
  'drafts',
  'scheduled_posts',
  'timed_jobs',
  'two_factor',
  'recovery_codes',
  'passkeys',
  'webauthn_challenges',
  'push_subscriptions',
] as const;

export type Fingerprint = Record<string, string>;

/**
 * Row count and an md5 over every row's text of each table, in one statement, plus the number of
 * stored media files. Equal fingerprints mean nothing was written.
 */
export async function fingerprint(handle: DbHandle, mediaDir?: string): Promise<Fingerprint> {
  const parts = TABLES.map(
    (t) =>
      `SELECT '${t}' AS t, count(*)::text || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS f FROM ${t} x`,
  );
  const result = await handle.db.execute(sql.raw(parts.join(' UNION ALL ')));
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { t: string; f: string }[];
  const out: Fingerprint = {};
  for (const row of rows) out[row.t] = row.f;
  if (mediaDir) out.mediaFiles = String(countFiles(mediaDir));
  return out;
}

function countFiles(dir: string): number {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
}

/** Rows of a raw query, on PGlite and pg alike. */
export async function queryRows(handle: DbHandle, query: string): Promise<Record<string, unknown>[]> {
  const result = await handle.db.execute(sql.raw(query));
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
}

const CODES = new Set<string>(ERROR_CODES);

/**
 * A 4xx JSON answer `{code, message}` with a code from the contract (on the Mastodon API and OAuth:
 * Mastodon's `{error}`, answered as its code).
 */
export function expectCodedClientError(res: LightMyRequestResponse, context = ''): string {
  const where = `${context} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, where).toBeLessThan(500);
  expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
  if (isMastodonRoute(String(res.raw.req.url ?? ''))) {
    const error = (res.json() as { error?: unknown }).error;
    expect(typeof error === 'string' && error.length > 0, where).toBe(true);
    return error as string;
  }
  const body = res.json() as { code?: unknown; message?: unknown };
  expect(CODES.has(String(body.code)), where).toBe(true);
  expect(typeof body.message, where).toBe('string');
  return body.code as string;
}

/** Not a 5xx, and when it is an error, a coded one. */
export function expectNoServerError(res: LightMyRequestResponse, context = ''): void {
  expect(res.statusCode, `${context} → ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) expectCodedClientError(res, context);
}

// ---------------------------------------------------------------------------------------------
// A small world every matrix runs against: alice, bob, carol, their posts, a like, a follow,
// a reply and the notifications those made, all created through the API.

export interface World {
  alice: TestClient;
  bob: TestClient;
  carol: TestClient;
  visitor: TestClient;
  ids: { alice: string; bob: string; carol: string };
  /** Bob's post with a poll (Tea, Coffee), open for an hour. */
  bobPoll: string;
  /** alice's post, replied to by bob. */
  alicePost: string;
  /** bob's post, liked, bookmarked and reposted by alice. */
  bobPost: string;
  /** alice's direct post to bob: their conversation (unread for bob), by id. */
  aliceConversation: string;
  /** A second signed-in session of alice's (another browser), by id. */
  aliceOtherSession: string;
  /** frank, whom alice blocked and muted (a blocked person; the unblock and unmute calls' target). */
  frank: TestClient;
  frankId: string;
  /** A word alice muted, by id. */
  aliceMutedWord: string;
  /** A live password-reset token of carol's (as her email would carry it). */
  carolResetToken: string;
  /** mo, a moderator (who approves followers: ada's request waits on him); ada, an admin. */
  mo: TestClient;
  ada: TestClient;
  ids2: { mo: string; ada: string; gus: string };
  /** carol's open report of bob's post. */
  bobPostReport: string;
  /** gus, a suspended account (the lift's target). */
  gusId: string;
  /** bob's lists (he follows alice): one empty, one with alice on it. */
  bobList: string;
  bobListWithAlice: string;
  /** bob's draft and his post scheduled for tomorrow. */
  bobDraft: string;
  bobScheduled: string;
  /** A Mastodon app alice authorized: its client id, its id, and alice's bearer token (read write follow). */
  oauth: { clientId: string; appId: string; aliceToken: string };
  /**
   * alice and carol have two-factor sign-in on, each with this unused recovery code, and the same new
   * secret being set up (moving to a new app).
   */
  twoFactor: { recoveryCode: string; pendingSecret: string };
  /** alice's passkey, by id; alice's and carol's answers to a registration challenge of theirs. */
  alicePasskey: string;
  passkeyRegistration: { alice: unknown; carol: unknown };
}

const RECOVERY_CODE = 'abcd-efgh-ijkl-mnop';

/** Two-factor sign-in on for each member (RECOVERY_CODE unused), and `pending` being set up. */
async function seedTwoFactor(ctx: Ctx, userIds: number[], pending: string) {
  const { authSecret } = ctx.config;
  for (const userId of userIds) {
    await ctx.db.db.insert(twoFactor).values({
      userId,
      secret: encryptSecret(newTotpSecret(), userId, authSecret),
      pendingSecret: encryptSecret(pending, userId, authSecret),
      enabledAt: new Date(),
    });
    await ctx.db.db
      .insert(recoveryCodes)
      .values({ userId, codeHash: hashRecoveryCode(normalizeRecoveryCode(RECOVERY_CODE)!) });
  }
}

/** alice's passkey (a software authenticator), and a registration answer of alice's and of carol's. */
async function seedPasskeys(ctx: Ctx, aliceId: number, carolId: number) {
  const { sessions, passkeys } = ctx.app.services;
  const viewerOf = async (id: number) => (await sessions.resolve((await sessions.create(id)).token))!;
  const [alice, carol] = [await viewerOf(aliceId), await viewerOf(carolId)];
  const authenticator = new SoftAuthenticator(ctx.config.publicUrl);
  const options = await passkeys.registrationOptions(alice, PASSWORD);
  const added = await passkeys.add(alice, 'Laptop', authenticator.register(options) as never);
  const answer = async (viewer: typeof alice) =>
    new SoftAuthenticator(ctx.config.publicUrl).register(await passkeys.registrationOptions(viewer, PASSWORD));
  // Their sessions made here are not the world's: gone again.
  await ctx.db.db.execute(sql`DELETE FROM sessions WHERE id IN (${alice.sessionId}, ${carol.sessionId})`);
  return { alicePasskey: added.id, passkeyRegistration: { alice: await answer(alice), carol: await answer(carol) } };
}

type Ctx = Parameters<typeof seedTrio>[0];

async function ok(res: LightMyRequestResponse, what: string) {
  if (res.statusCode >= 300) throw new Error(`seeding ${what}: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string };
}

export async function seedWorld(ctx: Ctx): Promise<World> {
  const { alice, bob, carol, clients } = await seedTrio(ctx);
  const alicePost = (await ok(await clients.alice.post('/api/posts', { text: 'hello from @alice' }), 'alice post')).id;
  const bobPost = (await ok(await clients.bob.post('/api/posts', { text: 'bob here' }), 'bob post')).id;
  await ok(await clients.bob.post('/api/posts', { text: 'a reply', parentId: alicePost }), 'reply');
  const bobPoll = (
    await ok(
      await clients.bob.post('/api/posts', {
        text: 'tea or coffee?',
        poll: { options: ['Tea', 'Coffee'], expiresIn: 3600 },
      }),
      'poll',
    )
  ).id;
  await ok(await clients.alice.put(`/api/posts/${bobPost}/like`), 'like');
  await ok(await clients.alice.put(`/api/posts/${bobPost}/bookmark`), 'bookmark');
  await ok(await clients.alice.put(`/api/posts/${bobPost}/repost`), 'repost');
  await ok(await clients.bob.put(`/api/users/${alice.id}/follow`), 'follow');
  const aliceConversation = (
    await ok(await clients.alice.post('/api/posts', { text: '@bob just us', visibility: 'direct' }), 'direct post')
  ).id;
  const frankRow = await insertUser(ctx.db, { username: 'frank' });
  const frank = await new TestClient(ctx).signInAs(frankRow.id);
  await ok(await clients.alice.put(`/api/users/${frankRow.id}/mute`, {}), 'mute');
  await ok(await clients.alice.put(`/api/users/${frankRow.id}/block`), 'block');
  await ok(await clients.alice.put('/api/hashtags/birds/follow'), 'follow a hashtag');
  await ok(await clients.bob.put('/api/hashtags/birds/follow'), 'follow a hashtag');
  const aliceMutedWord = (await ok(await clients.alice.post('/api/muted-words', { phrase: 'boring' }), 'muted word'))
    .id;
  const carolResetToken = 'a-reset-token-from-carols-email';
  await ctx.db.db.execute(
    sql`insert into password_resets (user_id, token_hash, expires_at) values (${carol.id}, ${createHash('sha256').update(carolResetToken).digest('hex')}, now() + interval '1 hour')`,
  );
  const moRow = await insertUser(ctx.db, { username: 'mo', role: 'moderator' });
  const adaRow = await insertUser(ctx.db, { username: 'ada', role: 'admin' });
  const gusRow = await insertUser(ctx.db, { username: 'gus' });
  const mo = await new TestClient(ctx).signInAs(moRow.id);
  const ada = await new TestClient(ctx).signInAs(adaRow.id);
  await ok(await mo.patch('/api/edit', { locked: true }), 'approve followers');
  await ok(await ada.put(`/api/users/${moRow.id}/follow`), 'follow request');
  const bobPostReport = (
    await ok(await clients.carol.post(`/api/posts/${bobPost}/report`, { category: 'spam' }), 'report')
  ).id;
  await ok(await mo.put(`/api/moderation/users/${gusRow.id}/suspension`), 'suspension');
  await ok(await ada.post('/api/moderation/domains', { domain: 'blocked.example' }), 'domain block');
  const bobList = (await ok(await clients.bob.post('/api/lists', { title: 'Empty' }), 'list')).id;
  const bobListWithAlice = (await ok(await clients.bob.post('/api/lists', { title: 'Alice' }), 'list')).id;
  await ok(await clients.bob.put(`/api/lists/${bobListWithAlice}/members/${alice.id}`), 'list member');
  const bobDraft = (await ok(await clients.bob.post('/api/drafts', { post: { text: 'later' } }), 'draft')).id;
  // alice's browser gets notifications pushed (her session's subscription: PUT replaces it, DELETE ends it).
  await ok(
    await clients.alice.put('/api/push/subscription', {
      endpoint: 'https://push.example/send/world',
      keys: TEST_PUSH_KEYS,
      kinds: ['reply'],
    }),
    'push subscription',
  );
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  const bobScheduled = (
    await ok(
      await clients.bob.post('/api/scheduled-posts', { post: { text: 'soon' }, scheduledAt: tomorrow }),
      'scheduled',
    )
  ).id;
  const { clientId, appId, token: aliceToken } = await authorizeApp(ctx.app, alice.id, 'read write follow push');
  const oauth = { clientId, appId, aliceToken };
  const pendingSecret = newTotpSecret();
  await seedTwoFactor(ctx, [alice.id, carol.id], pendingSecret);
  const passkeyWorld = await seedPasskeys(ctx, alice.id, carol.id);
  await ctx.app.services.sessions.create(alice.id, 'Other browser/1.0');
  const [other] = await queryRows(ctx.db, "SELECT id::text AS id FROM sessions WHERE user_agent = 'Other browser/1.0'");
  return {
    ...clients,
    ids: { alice: String(alice.id), bob: String(bob.id), carol: String(carol.id) },
    alicePost,
    bobPost,
    bobPoll,
    aliceConversation,
    aliceOtherSession: String(other?.id),
    frank,
    frankId: String(frankRow.id),
    aliceMutedWord,
    carolResetToken,
    mo,
    ada,
    ids2: { mo: String(moRow.id), ada: String(adaRow.id), gus: String(gusRow.id) },
    bobPostReport,
    gusId: String(gusRow.id),
    bobList,
    bobListWithAlice,
    bobDraft,
    bobScheduled,
    oauth,
    twoFactor: { recoveryCode: RECOVERY_CODE, pendingSecret },
    ...passkeyWorld,
  };
}

export type Actor = 'visitor' | 'alice' | 'bob' | 'carol' | 'frank' | 'mo' | 'ada';

/**
 * Every state-changing call of the contract outside /api/auth, as a request that succeeds for its
 * owner in the seeded world. `owner` is the member whose request it is: for calls on someone's
 * resource (deleting a post) that is the resource's owner; for calls that act on the caller's own
 * rows (like, follow, edit, mark read) the caller is the owner and any member may make them.
 */
export interface WriteCall {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  route: string;
  owner: Actor;
  /** 'resource': another member gets 403/404; 'self': another member's call touches only their own rows. */
  scope: 'resource' | 'self' | 'anyone';
  url(w: World): string;
  /** The JSON body; `caller` is who sends it, for bodies that only its sender can make (a passkey's). */
  body?(w: World, caller?: TestClient): unknown;
  /** A multipart body instead of JSON (uploads). */
  multipart?(): MultipartBody;
}

/** Makes `call` as `client`: its JSON or multipart body. */
export function sendCall(client: TestClient, call: WriteCall, w: World) {
  const form = call.multipart?.();
  if (form) return client.request(call.method, call.url(w), form.payload, { headers: form.headers });
  return client.request(call.method, call.url(w), call.body?.(w, client));
}

/** A browser's Web Push keys: a P-256 public key and a 16-byte auth secret (base64url). */
export const TEST_PUSH_KEYS = (() => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
})();

/** A small real JPEG for upload calls. */
export const SMALL_JPEG = await photo(64, 48);

export const WRITE_CALLS: WriteCall[] = [
  {
    method: 'POST',
    route: '/api/register',
    owner: 'visitor',
    scope: 'anyone',
    url: () => '/api/register',
    body: () => ({ email: 'dave@example.com', password: 'a fine password 42', username: 'dave', name: 'Dave' }),
  },
  {
    method: 'PATCH',
    route: '/api/edit',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/edit',
    body: () => ({ name: 'Alice Edited', bio: 'changed' }),
  },
  {
    method: 'POST',
    route: '/api/posts',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/posts',
    body: () => ({ text: 'new' }),
  },
  {
    method: 'POST',
    route: '/api/media',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/media',
    multipart: () => imageUpload(SMALL_JPEG, 'a small picture'),
  },
  {
    method: 'DELETE',
    route: '/api/posts/:id',
    owner: 'alice',
    scope: 'resource',
    url: (w) => `/api/posts/${w.alicePost}`,
  },
  {
    method: 'PATCH',
    route: '/api/posts/:id',
    owner: 'alice',
    scope: 'resource',
    url: (w) => `/api/posts/${w.alicePost}`,
    body: () => ({ text: 'Edited by its author', spoilerText: 'A warning' }),
  },
  {
    method: 'PUT',
    route: '/api/posts/:id/like',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/posts/${w.alicePost}/like`,
  },
  {
    method: 'POST',
    route: '/api/posts/:id/poll/votes',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/posts/${w.bobPoll}/poll/votes`,
    body: () => ({ choices: [1] }),
  },
  {
    method: 'DELETE',
    route: '/api/posts/:id/like',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/posts/${w.bobPost}/like`,
  },
  {
    method: 'PUT',
    route: '/api/posts/:id/repost',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/posts/${w.alicePost}/repost`,
  },
  {
    method: 'DELETE',
    route: '/api/posts/:id/repost',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/posts/${w.bobPost}/repost`,
  },
  {
    method: 'PUT',
    route: '/api/posts/:id/bookmark',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/posts/${w.alicePost}/bookmark`,
  },
  {
    method: 'DELETE',
    route: '/api/posts/:id/bookmark',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/posts/${w.bobPost}/bookmark`,
  },
  {
    method: 'PUT',
    route: '/api/users/:id/follow',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/users/${w.ids.bob}/follow`,
  },
  {
    method: 'DELETE',
    route: '/api/users/:id/follow',
    owner: 'bob',
    scope: 'self',
    url: (w) => `/api/users/${w.ids.alice}/follow`,
  },
  {
    method: 'PUT',
    route: '/api/hashtags/:tag/follow',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/hashtags/owls/follow',
  },
  {
    method: 'DELETE',
    route: '/api/hashtags/:tag/follow',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/hashtags/birds/follow',
  },
  {
    method: 'POST',
    route: '/api/follow-requests/:id/approve',
    owner: 'mo',
    scope: 'resource',
    url: (w) => `/api/follow-requests/${w.ids2.ada}/approve`,
  },
  {
    method: 'POST',
    route: '/api/follow-requests/:id/reject',
    owner: 'mo',
    scope: 'resource',
    url: (w) => `/api/follow-requests/${w.ids2.ada}/reject`,
  },
  {
    method: 'POST',
    route: '/api/settings/password',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/settings/password',
    body: () => ({ currentPassword: PASSWORD, newPassword: 'a brand new passphrase 9' }),
  },
  {
    method: 'POST',
    route: '/api/settings/email',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/settings/email',
    body: () => ({ email: 'someone.new@example.com', password: PASSWORD }),
  },
  {
    method: 'DELETE',
    route: '/api/sessions/:id',
    owner: 'alice',
    scope: 'resource',
    url: (w) => `/api/sessions/${w.aliceOtherSession}`,
  },
  {
    method: 'POST',
    route: '/api/sessions/revoke-others',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/sessions/revoke-others',
  },
  {
    method: 'POST',
    route: '/api/password-reset',
    owner: 'visitor',
    scope: 'anyone',
    url: () => '/api/password-reset',
    body: () => ({ email: 'alice@example.com' }),
  },
  {
    // The token is the credential: whoever holds it sets the password of its account (carol's).
    method: 'POST',
    route: '/api/password-reset/confirm',
    owner: 'visitor',
    scope: 'anyone',
    url: () => '/api/password-reset/confirm',
    body: (w) => ({ token: w.carolResetToken, password: 'carol has a new passphrase 3' }),
  },
  {
    method: 'PUT',
    route: '/api/users/:id/block',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/users/${w.ids.bob}/block`,
  },
  {
    method: 'DELETE',
    route: '/api/users/:id/block',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/users/${w.frankId}/block`,
  },
  {
    method: 'PUT',
    route: '/api/users/:id/mute',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/users/${w.ids.bob}/mute`,
    body: () => ({ durationSeconds: 3600 }),
  },
  {
    method: 'DELETE',
    route: '/api/users/:id/mute',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/users/${w.frankId}/mute`,
  },
  {
    method: 'POST',
    route: '/api/muted-words',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/muted-words',
    body: () => ({ phrase: 'spoilers' }),
  },
  {
    method: 'DELETE',
    route: '/api/muted-words/:id',
    owner: 'alice',
    scope: 'resource',
    url: (w) => `/api/muted-words/${w.aliceMutedWord}`,
  },
  {
    method: 'POST',
    route: '/api/lists',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/lists',
    body: () => ({ title: 'Birders' }),
  },
  {
    method: 'PATCH',
    route: '/api/lists/:id',
    owner: 'bob',
    scope: 'resource',
    url: (w) => `/api/lists/${w.bobList}`,
    body: () => ({ title: 'Renamed', exclusive: true }),
  },
  {
    method: 'DELETE',
    route: '/api/lists/:id',
    owner: 'bob',
    scope: 'resource',
    url: (w) => `/api/lists/${w.bobList}`,
  },
  {
    method: 'PUT',
    route: '/api/lists/:id/members/:userId',
    owner: 'bob',
    scope: 'resource',
    url: (w) => `/api/lists/${w.bobList}/members/${w.ids.alice}`,
  },
  {
    method: 'DELETE',
    route: '/api/lists/:id/members/:userId',
    owner: 'bob',
    scope: 'resource',
    url: (w) => `/api/lists/${w.bobListWithAlice}/members/${w.ids.alice}`,
  },
  {
    method: 'POST',
    route: '/api/drafts',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/drafts',
    body: () => ({ post: { text: 'not yet' } }),
  },
  {
    method: 'PATCH',
    route: '/api/drafts/:id',
    owner: 'bob',
    scope: 'resource',
    url: (w) => `/api/drafts/${w.bobDraft}`,
    body: () => ({ post: { text: 'later still' } }),
  },
  {
    method: 'DELETE',
    route: '/api/drafts/:id',
    owner: 'bob',
    scope: 'resource',
    url: (w) => `/api/drafts/${w.bobDraft}`,
  },
  {
    method: 'POST',
    route: '/api/scheduled-posts',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/scheduled-posts',
    body: () => ({ post: { text: 'tomorrow' }, scheduledAt: new Date(Date.now() + 86_400_000).toISOString() }),
  },
  {
    method: 'PATCH',
    route: '/api/scheduled-posts/:id',
    owner: 'bob',
    scope: 'resource',
    url: (w) => `/api/scheduled-posts/${w.bobScheduled}`,
    body: () => ({ scheduledAt: new Date(Date.now() + 2 * 86_400_000).toISOString() }),
  },
  {
    method: 'DELETE',
    route: '/api/scheduled-posts/:id',
    owner: 'bob',
    scope: 'resource',
    url: (w) => `/api/scheduled-posts/${w.bobScheduled}`,
  },
  {
    method: 'POST',
    route: '/api/posts/:id/report',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/posts/${w.bobPost}/report`,
    body: () => ({ category: 'spam', comment: 'ads' }),
  },
  {
    method: 'POST',
    route: '/api/users/:id/report',
    owner: 'alice',
    scope: 'self',
    url: (w) => `/api/users/${w.ids.bob}/report`,
    body: () => ({ category: 'harassment', comment: 'rude' }),
  },
  // Moderation: the moderator (mo) or the admin (ada) is the owner; any other member gets 403.
  {
    method: 'POST',
    route: '/api/moderation/reports/:id/resolve',
    owner: 'mo',
    scope: 'resource',
    url: (w) => `/api/moderation/reports/${w.bobPostReport}/resolve`,
    body: () => ({ action: 'dismiss' }),
  },
  {
    method: 'PUT',
    route: '/api/moderation/users/:id/suspension',
    owner: 'mo',
    scope: 'resource',
    url: (w) => `/api/moderation/users/${w.ids.bob}/suspension`,
  },
  {
    method: 'DELETE',
    route: '/api/moderation/users/:id/suspension',
    owner: 'mo',
    scope: 'resource',
    url: (w) => `/api/moderation/users/${w.gusId}/suspension`,
  },
  {
    method: 'PUT',
    route: '/api/moderation/users/:id/role',
    owner: 'ada',
    scope: 'resource',
    url: (w) => `/api/moderation/users/${w.ids.bob}/role`,
    body: () => ({ role: 'moderator' }),
  },
  {
    method: 'POST',
    route: '/api/moderation/domains',
    owner: 'ada',
    scope: 'resource',
    url: () => '/api/moderation/domains',
    body: () => ({ domain: 'spam.example', reason: 'ads' }),
  },
  {
    method: 'DELETE',
    route: '/api/moderation/domains/:domain',
    owner: 'ada',
    scope: 'resource',
    url: () => '/api/moderation/domains/blocked.example',
  },
  {
    method: 'POST',
    route: '/api/oauth/authorization',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/oauth/authorization',
    body: (w) => ({
      client_id: w.oauth.clientId,
      redirect_uri: 'urn:ietf:wg:oauth:2.0:oob',
      response_type: 'code',
      scope: 'read',
      decision: 'approve',
    }),
  },
  {
    method: 'DELETE',
    route: '/api/oauth/apps/:id',
    owner: 'alice',
    scope: 'resource',
    url: (w) => `/api/oauth/apps/${w.oauth.appId}`,
  },
  {
    method: 'POST',
    route: '/api/conversations/:id/read',
    owner: 'bob',
    scope: 'resource',
    url: (w) => `/api/conversations/${w.aliceConversation}/read`,
  },
  {
    method: 'DELETE',
    route: '/api/conversations/:id',
    owner: 'alice',
    scope: 'resource',
    url: (w) => `/api/conversations/${w.aliceConversation}`,
  },
  {
    method: 'POST',
    route: '/api/notifications/read',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/notifications/read',
  },
  {
    // Destructive: the call is last in the list, so that suites sending every call in turn as one member
    // (sessions.test.ts) send it after all the others.
    method: 'DELETE',
    route: '/api/account',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/account',
    body: () => ({ password: PASSWORD }),
  },
  {
    // Moving two-factor sign-in to a new app: the password and a current code (a recovery code).
    method: 'POST',
    route: '/api/settings/two-factor/setup',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/settings/two-factor/setup',
    body: (w) => ({ password: PASSWORD, code: w.twoFactor.recoveryCode }),
  },
  {
    method: 'POST',
    route: '/api/settings/two-factor/enable',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/settings/two-factor/enable',
    body: (w) => ({ code: new TOTP({ secret: Secret.fromBase32(w.twoFactor.pendingSecret) }).generate() }),
  },
  {
    method: 'DELETE',
    route: '/api/settings/two-factor',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/settings/two-factor',
    body: (w) => ({ password: PASSWORD, code: w.twoFactor.recoveryCode }),
  },
  {
    method: 'POST',
    route: '/api/passkeys/options',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/passkeys/options',
    body: () => ({ password: PASSWORD }),
  },
  {
    method: 'POST',
    route: '/api/passkeys',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/passkeys',
    body: (w, caller) => ({
      name: 'Phone',
      response: caller === w.carol ? w.passkeyRegistration.carol : w.passkeyRegistration.alice,
    }),
  },
  {
    method: 'DELETE',
    route: '/api/passkeys/:id',
    owner: 'alice',
    scope: 'resource',
    url: (w) => `/api/passkeys/${w.alicePasskey}`,
  },
  {
    // This browser's Web Push subscription: each session its own.
    method: 'PUT',
    route: '/api/push/subscription',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/push/subscription',
    body: () => ({ endpoint: 'https://push.example/send/1', keys: TEST_PUSH_KEYS, kinds: ['reply', 'like'] }),
  },
  {
    method: 'DELETE',
    route: '/api/push/subscription',
    owner: 'alice',
    scope: 'self',
    url: () => '/api/push/subscription',
  },
  {
    // A sign-in's challenge: anyone may ask (limited per address).
    method: 'POST',
    route: '/api/passkeys/sign-in-options',
    owner: 'visitor',
    scope: 'anyone',
    url: () => '/api/passkeys/sign-in-options',
  },
];

export const routeKey = (r: { method: string; route?: string; url?: unknown }) => `${r.method} ${r.route ?? r.url}`;
