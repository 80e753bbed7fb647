/**
 * A real Mastodon client library (masto.js, unmodified) signs in to Pipit over HTTP: it registers an
 * app, the member approves it (the consent page's calls), it trades the code for a token with PKCE,
 * and reads the instance and the member's credentials. Every answer it receives is validated against
 * the community OpenAPI description of the Mastodon API: 0 violations.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOAuthAPIClient, createRestAPIClient, createStreamingAPIClient, type mastodon } from 'masto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { streamingStats } from '../../src/modules/mastodon/streaming.routes.ts';
import { seedTrio, until, useTestApp } from '../helpers/app.ts';
import { photo } from '../media/fixtures.ts';
import { expectValid, recordJsonAnswers, type SeenAnswer, templateOf } from './openapi.ts';

describe('masto.js against Pipit', () => {
  // The instance's contact is the first admin's email (a real domain: the description wants an email).
  // A web build (its page only) so the consent page is served as in production.
  const webDist = mkdtempSync(path.join(tmpdir(), 'pipit-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Pipit</title><div id="root"></div>');
  const ctx = useTestApp({ adminEmails: ['admin@pipit.example'], webDist });
  let base: string;
  const seen: SeenAnswer[] = [];

  beforeEach(async () => {
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    seen.length = 0;
    // Every answer the library receives, kept to be checked against the description.
    recordJsonAnswers(base, seen);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('registers, authorizes with PKCE, and reads the instance and the account; every answer matches the description', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const redirectUri = 'urn:ietf:wg:oauth:2.0:oob';
    const anonymous = createRestAPIClient({ url: base });
    const app = await anonymous.v1.apps.create({
      clientName: 'masto.js test',
      redirectUris: redirectUri,
      scopes: 'read write follow',
    });
    expect(app.clientId).toBeTruthy();

    const instance = await anonymous.v2.instance.fetch();
    expect(instance.version).toMatch(/^4\.3\.0 \(compatible; Pipit /);
    expect(instance.configuration.statuses.maxCharacters).toBe(280);
    await anonymous.v1.instance.fetch();

    // The consent page: what its Authorize button sends.
    const verifier = randomBytes(48).toString('base64url');
    const approved = await clients.alice.post('/api/oauth/authorization', {
      client_id: app.clientId!,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'read write follow',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      decision: 'approve',
    });
    expect(approved.statusCode, approved.body).toBe(200);

    const oauth = createOAuthAPIClient({ url: base });
    const token = await oauth.token.create({
      grantType: 'authorization_code',
      clientId: app.clientId!,
      clientSecret: app.clientSecret!,
      redirectUri,
      code: approved.json().code,
      // masto.js sends what it is given, in snake case: RFC 7636's verifier.
      ...({ codeVerifier: verifier } as object),
    });
    expect(token.scope).toBe('read write follow');

    const rest = createRestAPIClient({ url: base, accessToken: token.accessToken });
    const me = await rest.v1.accounts.verifyCredentials();
    expect(me).toMatchObject({ id: String(alice.id), username: 'alice', acct: 'alice', displayName: 'Alice' });

    // Bob follows Alice and posts; Alice posts, likes, reposts and bookmarks, and reads her home page by page.
    await clients.bob.put(`/api/users/${alice.id}/follow`);
    await clients.alice.put(`/api/users/${bob.id}/follow`);
    const bobs = (await clients.bob.post('/api/posts', { text: 'Bob says hello & <waves>' })).json() as { id: string };
    // An image with its alt text, described again before posting.
    const picture = await rest.v2.media.create({
      file: new Blob([new Uint8Array(await photo(64, 48))], { type: 'image/jpeg' }),
      description: 'A red square',
    });
    expect(picture).toMatchObject({ type: 'image', description: 'A red square' });
    expect((await rest.v1.media.$select(picture.id).update({ description: 'A small red square' })).description).toBe(
      'A small red square',
    );
    const mine = await rest.v1.statuses.create({
      status: 'First post from an app\n\nwith two paragraphs',
      mediaIds: [picture.id],
    });
    expect(mine.mediaAttachments).toMatchObject([{ id: picture.id, description: 'A small red square' }]);
    expect(mine.content).toBe('<p>First post from an app</p><p>with two paragraphs</p>');
    const reply = await rest.v1.statuses.create({ status: 'A reply', inReplyToId: bobs.id });
    expect(reply.inReplyToId).toBe(bobs.id);
    expect(await rest.v1.statuses.$select(bobs.id).favourite()).toMatchObject({ favourited: true, favouritesCount: 1 });
    expect(await rest.v1.statuses.$select(bobs.id).bookmark()).toMatchObject({ bookmarked: true });
    expect(await rest.v1.statuses.$select(bobs.id).reblog()).toMatchObject({ reblogged: true });
    const fetched = await rest.v1.statuses.$select(bobs.id).fetch();
    expect(fetched.content).toBe('<p>Bob says hello &amp; &lt;waves&gt;</p>');

    const pages: string[][] = [];
    for await (const page of rest.v1.timelines.home.list({ limit: 2 })) {
      pages.push(page.map((s) => s.reblog?.content ?? s.content));
      if (pages.length > 5) break;
    }
    // Newest first; her repost of a post already on her home adds no entry.
    expect(pages.flat()).toEqual([
      '<p>A reply</p>',
      '<p>First post from an app</p><p>with two paragraphs</p>',
      '<p>Bob says hello &amp; &lt;waves&gt;</p>',
    ]);
    expect(pages.length).toBe(2);
    const everyone = await rest.v1.timelines.public.list({ limit: 10 });
    expect(everyone).toHaveLength(3);
    const bookmarked = await rest.v1.bookmarks.list();
    expect(bookmarked.map((s) => s.id)).toEqual([bobs.id]);
    const bobAccount = await rest.v1.accounts.$select(String(bob.id)).fetch();
    expect(bobAccount).toMatchObject({ username: 'bob', followersCount: 1, followingCount: 1, statusesCount: 1 });
    expect((await rest.v1.accounts.lookup({ acct: 'bob' })).id).toBe(String(bob.id));
    expect((await rest.v1.accounts.$select(String(alice.id)).statuses.list()).length).toBe(3);
    await rest.v1.preferences.fetch();
    expect(await rest.v1.customEmojis.list()).toEqual([]);
    expect(await rest.v1.lists.list()).toEqual([]);
    // Relationships, lists of people, notifications (Bob liked and followed).
    await clients.bob.put(`/api/posts/${mine.id}/like`);
    const [rel] = await rest.v1.accounts.relationships.fetch({ id: [String(bob.id)] });
    expect(rel).toMatchObject({ following: true, followedBy: true, blocking: false, muting: false });
    expect((await rest.v1.accounts.$select(String(bob.id)).unfollow()).following).toBe(false);
    expect((await rest.v1.accounts.$select(String(bob.id)).follow()).following).toBe(true);
    expect((await rest.v1.accounts.$select(String(bob.id)).mute({ duration: 3600 })).muting).toBe(true);
    expect((await rest.v1.mutes.list()).map((a) => a.username)).toEqual(['bob']);
    expect((await rest.v1.accounts.$select(String(bob.id)).unmute()).muting).toBe(false);
    expect((await rest.v1.accounts.$select(String(alice.id)).followers.list()).map((a) => a.username)).toEqual(['bob']);
    expect((await rest.v1.accounts.$select(String(alice.id)).following.list()).map((a) => a.username)).toEqual(['bob']);
    const notes = await rest.v1.notifications.list();
    expect(notes.map((n) => [n.type, n.account.username])).toEqual([
      ['favourite', 'bob'],
      ['follow', 'bob'],
    ]);
    expect(notes[0]?.status?.id).toBe(mine.id);
    expect((await rest.v1.notifications.$select(notes[0]!.id).fetch()).type).toBe('favourite');
    expect((await rest.v1.statuses.$select(mine.id).favouritedBy.list()).map((a) => a.username)).toEqual(['bob']);
    expect((await rest.v1.statuses.$select(bobs.id).rebloggedBy.list()).map((a) => a.username)).toEqual(['alice']);
    expect((await rest.v1.favourites.list()).map((s) => s.id)).toEqual([bobs.id]);
    const renamed = await rest.v1.accounts.updateCredentials({ displayName: 'Alice A.', note: 'Birds & <bikes>' });
    expect(renamed).toMatchObject({ displayName: 'Alice A.', note: '<p>Birds &amp; &lt;bikes&gt;</p>' });
    await expect(rest.v1.accounts.updateCredentials({ displayName: 'x'.repeat(51) })).rejects.toThrow(/at most 50/);
    // New pictures, as apps send them (multipart files): stored as the web stores them, shown at once.
    const pictured = await rest.v1.accounts.updateCredentials({
      avatar: new Blob([new Uint8Array(await photo(600, 600))], { type: 'image/jpeg' }),
      header: new Blob([new Uint8Array(await photo(1800, 600))], { type: 'image/jpeg' }),
    });
    expect(pictured.displayName).toBe('Alice A.');
    expect(pictured.avatar).toMatch(/\/media\/[0-9a-f]{64}\.jpg$/);
    expect(pictured.header).toMatch(/\/media\/[0-9a-f]{64}\.jpg$/);
    expect(pictured.avatar).not.toBe(pictured.header);
    const avatar = await fetch(`${base}${new URL(pictured.avatar).pathname}`);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/jpeg');
    await expect(
      rest.v1.accounts.updateCredentials({ avatar: new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'image/jpeg' }) }),
    ).rejects.toThrow();
    expect((await rest.v1.accounts.verifyCredentials()).avatar).toBe(pictured.avatar);

    // Markers, dismiss, clear.
    await rest.v1.markers.create({ notifications: { lastReadId: notes[0]!.id } });
    expect((await rest.v1.markers.fetch({ timeline: ['notifications'] })).notifications?.lastReadId).toBe(notes[0]!.id);
    await rest.v1.notifications.$select(notes[1]!.id).dismiss();
    expect((await rest.v1.notifications.list()).map((n) => n.id)).toEqual([notes[0]!.id]);
    await rest.v1.notifications.clear();
    expect(await rest.v1.notifications.list()).toEqual([]);

    // A conversation and search.
    const context = await rest.v1.statuses.$select(reply.id).context.fetch();
    expect(context.ancestors.map((s) => s.id)).toEqual([bobs.id]);
    expect(context.descendants).toEqual([]);
    const found = await rest.v2.search.list({ q: 'hello' });
    expect(found.statuses.map((s) => s.id)).toEqual([bobs.id]);
    const people = await rest.v2.search.list({ q: 'bo', type: 'accounts' });
    expect(people.accounts.map((a) => a.username)).toEqual(['bob']);
    // Mention autocomplete: accounts/search, with or without the @.
    expect((await rest.v1.accounts.search.list({ q: 'bo', limit: 5 })).map((a) => a.username)).toEqual(['bob']);
    expect((await rest.v1.accounts.search.list({ q: '@ca' })).map((a) => a.username)).toEqual(['carol']);

    const blocked = await rest.v1.accounts.$select(String(bob.id)).block();
    expect(blocked).toMatchObject({ blocking: true, following: false, followedBy: false });
    expect((await rest.v1.blocks.list()).map((a) => a.username)).toEqual(['bob']);
    await rest.v1.accounts.$select(String(bob.id)).unblock();

    const removed = await rest.v1.statuses.$select(reply.id).remove();
    expect(removed.text).toBe('A reply');

    // The streaming API: a new post by someone she follows (again: the block ended it) arrives on her user
    // stream, and on public.
    await rest.v1.accounts.$select(String(bob.id)).follow();
    const streaming = createStreamingAPIClient({
      streamingApiUrl: base.replace(/^http/, 'ws'),
      accessToken: token.accessToken,
      retry: false,
    });
    const health = await fetch(`${base}/api/v1/streaming/health`);
    expect(await health.text()).toBe('OK');
    const userStream = streaming.user.subscribe();
    const publicStream = streaming.public.subscribe();
    const firstOf = async (subscription: AsyncIterable<mastodon.streaming.Event>) => {
      for await (const event of subscription) if (event.event === 'update') return event.payload;
      throw new Error('the stream ended');
    };
    const arriving = Promise.all([firstOf(userStream), firstOf(publicStream)]);
    // Both subscriptions are on the server before the post is made (a subscribe is a message the
    // server reads in order: a round trip over the same socket proves it was read).
    await until(() => streamingStats.subscriptions >= 2, 'both subscriptions registered');
    await clients.bob.post('/api/posts', { text: 'Live from Bob' });
    const [onUser, onPublic] = await arriving;
    expect(onUser.content).toBe('<p>Live from Bob</p>');
    expect(onPublic.content).toBe('<p>Live from Bob</p>');
    // The streamed status is the status the API answers (which the description checks below).
    expect(onUser).toEqual(await rest.v1.statuses.$select(onUser.id).fetch());
    userStream.unsubscribe();
    publicStream.unsubscribe();
    streaming.close();

    await oauth.revoke({ clientId: app.clientId!, clientSecret: app.clientSecret!, token: token.accessToken });
    await expect(rest.v1.accounts.verifyCredentials()).rejects.toThrow();

    const checked = seen.filter((s) => s.status < 400);
    expect(checked.length).toBeGreaterThan(20);
    for (const s of checked) {
      // Empty answers (RFC 7009's, Mastodon's dismiss and clear): the description gives them no schema.
      if (s.path === '/oauth/revoke' || /\/notifications\/(clear|\d+\/dismiss)$/.test(s.path))
        expect(s.body).toEqual({});
      else expectValid(s.method, templateOf(s.path), s.status, s.body);
    }
  });

  it("replays a web client's sign-in and first load, every answer matching the description", async () => {
    const { bob, clients } = await seedTrio(ctx);
    const redirectUri = 'https://web-client.example/callback';
    const call = async (
      method: string,
      path: string,
      init: { token?: string; json?: unknown; form?: Record<string, string> } = {},
    ) => {
      const headers: Record<string, string> = {};
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      let body: string | undefined;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.json);
      } else if (init.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(init.form).toString();
      }
      const res = await fetch(`${base}${path}`, { method, headers, body });
      expect(res.status, `${method} ${path}`).toBe(200);
      return res.json() as Promise<Record<string, unknown>>;
    };
    // The order a web client (Elk, Phanpy) signs in and loads its first screen in.
    const app = await call('POST', '/api/v1/apps', {
      json: {
        client_name: 'Web client',
        redirect_uris: redirectUri,
        scopes: 'read write follow push',
        website: 'https://web-client.example',
      },
    });
    const verifier = randomBytes(32).toString('base64url');
    // The consent page opens in a popup the app watches: it must keep its opener (no same-origin COOP),
    // and still refuse to be framed and to be cached.
    const consent = await clients.alice.get(
      `/oauth/authorize?client_id=${String(app.client_id)}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code`,
    );
    expect(consent.statusCode).toBe(200);
    expect(consent.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    expect(consent.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const decided = await clients.alice.post('/api/oauth/authorization', {
      client_id: String(app.client_id),
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'read write follow push',
      state: 'first-load',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      decision: 'approve',
    });
    const back = new URL(decided.json().redirectTo);
    expect(back.searchParams.get('state')).toBe('first-load');
    const token = await call('POST', '/oauth/token', {
      form: {
        grant_type: 'authorization_code',
        client_id: String(app.client_id),
        redirect_uri: redirectUri,
        code: back.searchParams.get('code')!,
        code_verifier: verifier,
      },
    });
    const accessToken = String(token.access_token);
    const instance = (await call('GET', '/api/v2/instance')) as { configuration: { urls: { streaming: string } } };
    await call('GET', '/api/v1/accounts/verify_credentials', { token: accessToken });
    await call('GET', '/api/v1/preferences', { token: accessToken });
    await call('GET', '/api/v1/timelines/home?limit=20', { token: accessToken });
    // The notifications page of an app on API v2, and a profile (with its featured tags and familiar followers).
    await call('GET', '/api/v2/notifications?limit=20&exclude_types[]=follow_request', { token: accessToken });
    await call('GET', `/api/v1/accounts/${bob.id}`, { token: accessToken });
    await call('GET', `/api/v1/accounts/${bob.id}/featured_tags`, { token: accessToken });
    await call('GET', `/api/v1/accounts/familiar_followers?id[]=${bob.id}`, { token: accessToken });
    await call('GET', `/api/v1/accounts/${bob.id}/statuses?limit=20`, { token: accessToken });

    // Then the user stream, as Elk and Phanpy open it (masto.js) at the instance's streaming URL — on
    // the port this test listens on (the test config's public address is not served).
    const streamingUrl = new URL(instance.configuration.urls.streaming);
    expect(streamingUrl.protocol).toBe('ws:');
    expect(streamingUrl.pathname).toBe('/');
    const streaming = createStreamingAPIClient({
      streamingApiUrl: `ws://${new URL(base).host}${streamingUrl.pathname.replace(/\/$/, '')}`,
      accessToken,
      retry: false,
    });
    const before = streamingStats.subscriptions;
    const userStream = streaming.user.subscribe();
    const arriving = (async () => {
      for await (const event of userStream) if (event.event === 'update') return event.payload;
      throw new Error('the stream ended');
    })();
    await until(() => streamingStats.subscriptions > before, 'the user stream subscribed');
    // Her own new post (from the web) arrives on it, as her home shows it.
    await clients.alice.post('/api/posts', { text: 'First load done' });
    const update = await arriving;
    expect(update.content).toBe('<p>First load done</p>');
    userStream.unsubscribe();
    streaming.close();

    expect(seen.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      'POST /api/v1/apps 200',
      'POST /oauth/token 200',
      'GET /api/v2/instance 200',
      'GET /api/v1/accounts/verify_credentials 200',
      'GET /api/v1/preferences 200',
      'GET /api/v1/timelines/home 200',
      'GET /api/v2/notifications 200',
      `GET /api/v1/accounts/${bob.id} 200`,
      `GET /api/v1/accounts/${bob.id}/featured_tags 200`,
      'GET /api/v1/accounts/familiar_followers 200',
      `GET /api/v1/accounts/${bob.id}/statuses 200`,
    ]);
    for (const s of seen) expectValid(s.method, templateOf(s.path), s.status, s.body);
  });
});
