/**
 * Builds the real app on a real database: in-memory PGlite by default, or a PostgreSQL database of
 * this worker's own when PIPIT_TEST_DB=pg (TEST_DATABASE_URL names the server). Nothing is mocked.
 */

import { readFileSync } from 'node:fs';
import { hash } from '@node-rs/argon2';
import { api, type Role } from '@pipit/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeEach } from 'vitest';
import { type App, type AppDeps, buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { type DbHandle, executeRows, openDatabase, sql } from '../../src/db/client.ts';
import { users } from '../../src/db/schema.ts';
import { cookieNames, newCsrfCookie } from '../../src/lib/auth-cookies.ts';
import { CookieJar } from './cookie-jar.ts';
import type { MultipartBody } from './multipart.ts';

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789';
export const PASSWORD = 'correct horse battery';

export function testConfig(overrides: Partial<Config> = {}): Config {
  const lots = { max: 100_000, windowMs: 60_000 };
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://localhost:3999',
    secureCookies: false,
    databaseUrl: null,
    dataDir: '/nonexistent-test-data-dir',
    mediaDir: `/tmp/pipit-test-media-${process.pid}`,
    authSecret: TEST_SECRET,
    trustProxy: false,
    rateLimits: {
      enabled: true,
      signInIp: lots,
      signInAccount: lots,
      register: lots,
      write: lots,
      passwordResetEmail: lots,
      passwordResetIp: lots,
      federationInbox: lots,
    },
    mail: { smtpUrl: null, from: 'Pipit <no-reply@localhost>' },
    adminEmails: [],
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    logFormat: 'json',
    webDist: null,
    sessionMaxAgeMs: 30 * 86_400_000,
    redisUrl: null,
    redisPrefix: `pipit-test-${process.pid}:`,
    workers: 1,
    feeds: {
      enabled: false,
      size: 100,
      activeDays: 14,
      pullAboveFollowers: 10_000,
      jobExpireSeconds: 60,
      jobMaintenanceSeconds: 30,
    },
    visitorCacheMs: 1_000,
    // Tests run due jobs by hand (services.timedJobs.runDue()), never on a timer.
    timedJobs: { pollMs: 0 },
    // Off, as with the http PUBLIC_URL above; test/federation turns it on with an https one.
    federation: { enabled: false, offReason: 'PUBLIC_URL is http://, not https://', queuePollMs: 60_000 },
    stream: { maxPerMember: 3, maxPerAddress: 3, heartbeatMs: 25_000, replayWindow: 50, maxBufferedBytes: 1024 * 1024 },
    // Off: a post with a link must not reach the network in tests; test/cards turns it on (loopback only).
    cards: {
      enabled: false,
      allowLoopback: false,
      timeoutMs: 5_000,
      maxPageBytes: 1024 * 1024,
      maxImageBytes: 5 * 1024 * 1024,
    },
    // Deliveries are run by hand (services.push.drain()); test/push allows its push service on 127.0.0.1.
    push: {
      vapid: null,
      subject: 'mailto:no-reply@localhost',
      allowLoopback: false,
      maxPerMember: 20,
      timeoutMs: 5_000,
      pollMs: 0,
    },
    ...overrides,
  };
}

export const usingPostgres = process.env.PIPIT_TEST_DB === 'pg';

const testDatabaseName = () => `pipit_test_${process.ppid}_${process.env.VITEST_POOL_ID ?? '0'}`;

/** This worker's PostgreSQL test database (PIPIT_TEST_DB=pg), for what connects on its own (the job queue). */
export function testDatabaseUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${testDatabaseName()}`;
  return url.toString();
}

/** A Redis for the tests that need one (CI sets it; elsewhere they are skipped). */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? null;

async function openTestDatabase(): Promise<DbHandle> {
  if (!usingPostgres) {
    // The run's migrated dump (test/global-setup.ts), when there is one (a file run alone has it too).
    const snapshot = process.env.PIPIT_TEST_SNAPSHOT;
    return openDatabase({
      databaseUrl: null,
      pgliteDir: 'memory://',
      ...(snapshot ? { pgliteSnapshot: new Blob([readFileSync(snapshot)]) } : {}),
    });
  }
  const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  // One database per run and worker (the run is the vitest process, our parent), so two runs on one
  // server never share data; test/global-setup.ts drops them when the run ends.
  const name = testDatabaseName();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return openDatabase({ databaseUrl: testDatabaseUrl(), pgliteDir: 'memory://', poolSize: 5 });
}

let shared: Promise<DbHandle> | null = null;
/** One migrated database per test file (per worker on PostgreSQL). */
export function testDb(): Promise<DbHandle> {
  shared ??= openTestDatabase();
  return shared;
}

/**
 * Every table of the schema but instance_keys (made once when the app is built, and kept by it): a
 * worker's files share one database, so nothing one file wrote may reach the next.
 */
const wiped = new WeakMap<DbHandle, Promise<string>>();
function wipedTables(handle: DbHandle): Promise<string> {
  let list = wiped.get(handle);
  if (!list) {
    list = executeRows<{ tablename: string }>(
      handle.db,
      sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'instance_keys' ORDER BY tablename`,
    ).then((rows) => rows.map((row) => `"${row.tablename}"`).join(', '));
    wiped.set(handle, list);
  }
  return list;
}

export async function resetDb(handle: DbHandle): Promise<void> {
  // On PostgreSQL a TRUNCATE can meet work the previous test left running in another connection (a
  // background job's insert) and lose a deadlock (40P01, seen once in CI): the other side finishes,
  // and the TRUNCATE is tried again (at most three times).
  for (let attempt = 1; ; attempt++) {
    try {
      await handle.db.execute(sql.raw(`TRUNCATE ${await wipedTables(handle)} RESTART IDENTITY CASCADE`));
      return;
    } catch (error) {
      const code =
        (error as { cause?: { code?: string }; code?: string }).cause?.code ?? (error as { code?: string }).code;
      if (code !== '40P01' || attempt >= 3) throw error;
    }
  }
}

/**
 * Per test file: builds the app once, wipes the data before each test, closes at the end.
 * `const ctx = useTestApp()` then `ctx.app` inside tests.
 */
export function useTestApp(overrides: Partial<Config> = {}, deps: Omit<AppDeps, 'db'> = {}) {
  const ctx = {} as { app: App; db: DbHandle; config: Config };
  let built = false;
  beforeEach(async () => {
    if (!built) {
      ctx.db = await testDb();
      ctx.config = testConfig(overrides);
      ctx.app = await buildApp(ctx.config, { ...deps, db: ctx.db });
      await ctx.app.ready();
      built = true;
    } else {
      // What the previous test left to the background (emails, file collection) is done first.
      await ctx.app.services.jobs.drain();
    }
    await resetDb(ctx.db);
    // The data changed under the app's feet, without events: what it kept from them is stale.
    ctx.app.services.events.resync();
  });
  afterAll(async () => {
    if (built) await ctx.app.close();
  });
  return ctx;
}

let passwordHash: Promise<string> | null = null;

export interface SeedUser {
  email?: string;
  username: string;
  name?: string;
  bio?: string;
  password?: string;
  role?: Role;
}

/** Inserts a user straight into the database (PASSWORD unless given), without going through HTTP. */
export async function insertUser(handle: DbHandle, seed: SeedUser) {
  passwordHash ??= hash(PASSWORD);
  const [row] = await handle.db
    .insert(users)
    .values({
      email: seed.email ?? `${seed.username.toLowerCase()}@example.com`,
      username: seed.username,
      name: seed.name ?? seed.username[0]!.toUpperCase() + seed.username.slice(1),
      bio: seed.bio ?? '',
      passwordHash: seed.password ? await hash(seed.password) : await passwordHash,
      role: seed.role ?? 'member',
    })
    .returning();
  return row!;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * `app.inject`, except that a live stream (GET /api/stream) that opens is read up to its first
 * frame and then hung up, as a browser tab that closes: an open stream never ends, so a plain
 * inject would wait for ever. The answer carries that first frame as its body.
 */
export async function inject(app: App, options: InjectOptions): Promise<LightMyRequestResponse> {
  const path = String(options.url ?? options.path ?? '').split('?')[0];
  if (path !== api.stream || (options.method ?? 'GET') !== 'GET') return app.inject(options);
  const res = await app.inject({ ...options, payloadAsStream: true });
  const stream = res.stream();
  let body = '';
  for await (const chunk of stream) {
    body += String(chunk);
    if (body.includes('\n\n')) break;
  }
  // Hang up as a client does: the server sees the connection close and frees its place.
  (res.raw.res as unknown as { destroy(): void }).destroy();
  return Object.assign(Object.create(res), {
    body,
    payload: body,
    rawPayload: Buffer.from(body),
    json: () => JSON.parse(body),
  }) as LightMyRequestResponse;
}

/**
 * A browser-like client over inject: keeps cookies, sends the CSRF header on state-changing calls.
 */
export class TestClient {
  readonly cookies = new CookieJar();
  csrfToken: string | null = null;

  constructor(private readonly ctx: { app: App; config: Config }) {}

  /** Gives this client a valid CSRF cookie and header token without calling /api/auth/csrf. */
  withCsrf(): this {
    const { token, value } = newCsrfCookie(this.ctx.config.authSecret);
    this.cookies.set(cookieNames(this.ctx.config).csrf, value);
    this.csrfToken = token;
    return this;
  }

  /** Signs in as a user by creating a session directly (the auth protocol has its own tests). */
  async signInAs(userId: number): Promise<this> {
    const { token } = await this.ctx.app.services.sessions.create(userId);
    this.cookies.set(cookieNames(this.ctx.config).session, token);
    if (!this.csrfToken) this.withCsrf();
    return this;
  }

  async request(method: Method, url: string, body?: unknown, options: Partial<InjectOptions> = {}) {
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (this.cookies.size > 0 && !('cookie' in headers)) headers.cookie = this.cookies.header();
    if (method !== 'GET' && this.csrfToken && !('x-csrf-token' in headers)) headers['x-csrf-token'] = this.csrfToken;
    const res = await inject(this.ctx.app, {
      ...options,
      method,
      url,
      headers,
      ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
    });
    this.cookies.absorb(res.headers['set-cookie']);
    return res;
  }

  get(url: string, options?: Partial<InjectOptions>) {
    return this.request('GET', url, undefined, options);
  }
  post(url: string, body?: unknown, options?: Partial<InjectOptions>) {
    return this.request('POST', url, body, options);
  }
  put(url: string, body?: unknown, options?: Partial<InjectOptions>) {
    return this.request('PUT', url, body, options);
  }
  patch(url: string, body?: unknown, options?: Partial<InjectOptions>) {
    return this.request('PATCH', url, body, options);
  }
  delete(url: string, options?: Partial<InjectOptions>) {
    return this.request('DELETE', url, undefined, options);
  }
  /** POST /api/media with a multipart body (helpers/multipart.ts). */
  upload(body: MultipartBody) {
    return this.request('POST', '/api/media', body.payload, { headers: body.headers });
  }
}

/** alice, bob and carol, each with a signed-in client. */
export async function seedTrio(ctx: { app: App; db: DbHandle; config: Config }) {
  const [alice, bob, carol] = await Promise.all(
    ['alice', 'bob', 'carol'].map((u) => insertUser(ctx.db, { username: u })),
  );
  const clients = {
    alice: await new TestClient(ctx).signInAs(alice!.id),
    bob: await new TestClient(ctx).signInAs(bob!.id),
    carol: await new TestClient(ctx).signInAs(carol!.id),
    visitor: new TestClient(ctx).withCsrf(),
  };
  return { alice: alice!, bob: bob!, carol: carol!, clients };
}

/** The Set-Cookie lines of an answer, always as an array. */
export function setCookieLines(res: { headers: Record<string, unknown> }): string[] {
  const value = res.headers['set-cookie'];
  return value === undefined ? [] : ([value].flat() as string[]);
}

/** Posts a form-encoded body, as next-auth's client does for every /api/auth POST. */
export function postForm(
  client: TestClient,
  url: string,
  fields: Record<string, string>,
  options: Partial<InjectOptions> = {},
) {
  return client.post(url, new URLSearchParams(fields).toString(), {
    ...options,
    headers: { ...(options.headers as Record<string, string>), 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/**
 * Signs in through the real protocol, exactly like next-auth's `signIn('credentials', {redirect: false})`:
 * GET /api/auth/csrf, then the credentials form with json=true. Answers the callback response.
 * `options` apply to both requests (e.g. `remoteAddress`).
 */
export async function signInWithPassword(
  client: TestClient,
  email: string,
  password = PASSWORD,
  fields: Record<string, string> = {},
  options: Partial<InjectOptions> = {},
) {
  const { csrfToken } = (await client.get('/api/auth/csrf', options)).json() as { csrfToken: string };
  const form = { redirect: 'false', email, password, csrfToken, json: 'true', ...fields };
  return postForm(client, '/api/auth/callback/credentials', form, options);
}

/**
 * A Mastodon app (out-of-band redirect) authorized by `userId` through the services, and its bearer
 * token: what the Mastodon API tests start from (the OAuth flow itself has its own tests).
 */
export async function authorizeApp(app: App, userId: number, scopes = 'read write') {
  const { oauth, sessions } = app.services;
  const redirectUri = 'urn:ietf:wg:oauth:2.0:oob';
  const { row, clientSecret } = await oauth.registerApp({
    name: 'Test App',
    redirectUris: [redirectUri],
    scopes,
    website: null,
  });
  const viewer = await sessions.resolve((await sessions.create(userId)).token);
  if (!viewer) throw new Error(`no session for user ${userId}`);
  const query = { client_id: row.clientId, redirect_uri: redirectUri, response_type: 'code', scope: scopes };
  const { code } = await oauth.approve(viewer, query);
  const token = await oauth.token({
    grantType: 'authorization_code',
    clientId: row.clientId,
    clientSecret,
    code,
    redirectUri,
  });
  return { clientId: row.clientId, appId: String(row.id), token: token.access_token };
}

/** Waits for a condition the server sets (the signal), failing only if it never comes (it names it). */
export async function until(check: () => boolean, what: string): Promise<void> {
  // A hang detector, not a guess at speed: 6,000 checks 10 ms apart (a minute) before failing.
  for (let i = 0; i < 6_000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}
