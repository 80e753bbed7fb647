import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import serverPackage from '../../package.json' with { type: 'json' };
import { insertUser, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { createPost } from '../helpers/social.ts';

const BASE = 'http://localhost:3999';
const SCHEMA = (v: string) => `http://nodeinfo.diaspora.software/ns/schema/${v}`;

/**
 * What the NodeInfo 2.0 and 2.1 JSON schemas (nodeinfo.diaspora.software/ns/schema/2.x) require, written
 * out: the required fields, their types, the name's pattern, the closed sets of protocols and services,
 * and no property the schema does not know (additionalProperties: false everywhere but metadata). One
 * rule is left out on purpose: `protocols` has minItems 1, and Pipit speaks no protocol to other servers
 * until federation exists, so it says [] rather than claim one.
 */
function schemaProblems(doc: Record<string, unknown>, version: '2.0' | '2.1'): string[] {
  const problems: string[] = [];
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const onlyKnown = (where: string, v: Record<string, unknown>, known: string[]) => {
    for (const key of Object.keys(v)) if (!known.includes(key)) problems.push(`${where}.${key} is not in the schema`);
  };
  const count = (where: string, v: unknown) => {
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 0)) problems.push(`${where} is not a count`);
  };
  for (const key of ['version', 'software', 'protocols', 'services', 'openRegistrations', 'usage', 'metadata'])
    if (!(key in doc)) problems.push(`${key} is missing`);
  onlyKnown('', doc, ['version', 'software', 'protocols', 'services', 'openRegistrations', 'usage', 'metadata']);
  if (doc.version !== version) problems.push(`version is ${String(doc.version)}`);
  const { software, protocols, services, usage, metadata } = doc;
  if (!isObject(software)) problems.push('software is not an object');
  else {
    if (typeof software.name !== 'string' || !/^[a-z0-9-]+$/.test(software.name)) problems.push('software.name');
    if (typeof software.version !== 'string') problems.push('software.version');
    onlyKnown(
      'software',
      software,
      version === '2.0' ? ['name', 'version'] : ['name', 'version', 'repository', 'homepage'],
    );
    for (const key of ['repository', 'homepage'])
      if (key in software && typeof software[key] !== 'string') problems.push(`software.${key}`);
  }
  const PROTOCOLS = [
    'activitypub',
    'buddycloud',
    'dfrn',
    'diaspora',
    'libertree',
    'ostatus',
    'pumpio',
    'tent',
    'xmpp',
    'zot',
  ];
  if (!Array.isArray(protocols) || protocols.some((p) => !PROTOCOLS.includes(p))) problems.push('protocols');
  if (!isObject(services)) problems.push('services is not an object');
  else {
    if (!Array.isArray(services.inbound)) problems.push('services.inbound');
    if (!Array.isArray(services.outbound)) problems.push('services.outbound');
    onlyKnown('services', services, ['inbound', 'outbound']);
  }
  if (typeof doc.openRegistrations !== 'boolean') problems.push('openRegistrations');
  if (!isObject(usage)) problems.push('usage is not an object');
  else {
    onlyKnown('usage', usage, ['users', 'localPosts', 'localComments']);
    if (!isObject(usage.users)) problems.push('usage.users is missing');
    else {
      onlyKnown('usage.users', usage.users, ['total', 'activeHalfyear', 'activeMonth']);
      for (const key of ['total', 'activeHalfyear', 'activeMonth']) count(`usage.users.${key}`, usage.users[key]);
    }
    count('usage.localPosts', usage.localPosts);
    count('usage.localComments', usage.localComments);
  }
  if (!isObject(metadata)) problems.push('metadata is not an object');
  return problems;
}

describe('discovery: host-meta and NodeInfo', () => {
  const ctx = useTestApp();
  const get = (url: string) => new TestClient(ctx).get(url, { headers: { origin: 'https://phanpy.social' } });

  it('host-meta points at WebFinger, as XRD and as JRD, readable from any origin', async () => {
    const xrd = await get('/.well-known/host-meta');
    expect(xrd.statusCode).toBe(200);
    expect(xrd.headers['content-type']).toBe('application/xrd+xml; charset=utf-8');
    expect(xrd.headers['access-control-allow-origin']).toBe('*');
    expect(xrd.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\s*<XRD xmlns="http:\/\/docs.oasis-open.org\/ns\/xri\/xrd-1.0">/,
    );
    expect(xrd.body).toContain(`<Link rel="lrdd" template="${BASE}/.well-known/webfinger?resource={uri}"/>`);
    expect(xrd.body.trimEnd()).toMatch(/<\/XRD>$/);

    const jrd = await get('/.well-known/host-meta.json');
    expect(jrd.statusCode).toBe(200);
    expect(jrd.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(jrd.headers['access-control-allow-origin']).toBe('*');
    expect(jrd.json()).toEqual({ links: [{ rel: 'lrdd', template: `${BASE}/.well-known/webfinger?resource={uri}` }] });
  });

  it('/.well-known/nodeinfo links the 2.0 and 2.1 documents, and each answers with its profile', async () => {
    const index = await get('/.well-known/nodeinfo');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(index.headers['access-control-allow-origin']).toBe('*');
    const { links } = index.json<{ links: { rel: string; href: string }[] }>();
    expect(links).toEqual([
      { rel: SCHEMA('2.0'), href: `${BASE}/nodeinfo/2.0` },
      { rel: SCHEMA('2.1'), href: `${BASE}/nodeinfo/2.1` },
    ]);
    for (const version of ['2.0', '2.1'] as const) {
      const res = await get(new URL(links.find((l) => l.rel === SCHEMA(version))!.href).pathname);
      expect(res.statusCode).toBe(200);
      // Fastify adds the charset after the profile: the same media type.
      expect(res.headers['content-type']).toBe(`application/json; profile="${SCHEMA(version)}#"; charset=utf-8`);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      const doc = res.json<Record<string, unknown>>();
      expect(schemaProblems(doc, version)).toEqual([]);
      expect(doc).toMatchObject({
        software: { name: 'pipit', version: serverPackage.version },
        protocols: [],
        services: { inbound: [], outbound: [] },
        openRegistrations: true,
        metadata: { nodeName: 'Pipit' },
      });
    }
    const v21 = (await get('/nodeinfo/2.1')).json<{ software: Record<string, string> }>();
    expect(v21.software.repository).toMatch(/^https:\/\//);
    expect(v21.software.homepage).toMatch(/^https:\/\//);
  });

  it('the schema check fails a document that breaks the schema (so it can fail)', () => {
    const good = {
      version: '2.1',
      software: { name: 'pipit', version: '1' },
      protocols: [],
      services: { inbound: [], outbound: [] },
      openRegistrations: true,
      usage: { users: {} },
      metadata: {},
    };
    expect(schemaProblems(good, '2.1')).toEqual([]);
    expect(schemaProblems({ ...good, software: { name: 'Pipit', version: '1' } }, '2.1')).toEqual(['software.name']);
    expect(schemaProblems({ ...good, software: { name: 'pipit', version: '1', homepage: 'x' } }, '2.0')).toEqual([
      'version is 2.1',
      'software.homepage is not in the schema',
    ]);
    expect(schemaProblems({ ...good, usage: { users: { total: -1 } } }, '2.1')).toEqual([
      'usage.users.total is not a count',
    ]);
    expect(schemaProblems({ ...good, protocols: ['http'], extra: 1 }, '2.1')).toEqual([
      '.extra is not in the schema',
      'protocols',
    ]);
  });

  it('counts people and posts that visitors can see: suspended accounts, their posts and reposts are not counted', async () => {
    const { carol, clients } = await seedTrio(ctx);
    const dave = await insertUser(ctx.db, { username: 'dave' });
    const daveClient = await new TestClient(ctx).signInAs(dave.id);
    const moderator = await new TestClient(ctx).signInAs(
      (await insertUser(ctx.db, { username: 'mod', role: 'moderator' })).id,
    );
    const first = await createPost(clients.alice, 'one');
    await createPost(clients.alice, 'a reply', first.id);
    expect((await clients.bob.put(`/api/posts/${first.id}/repost`)).statusCode).toBe(200);
    await createPost(clients.carol, 'long ago');
    await createPost(daveClient, 'dave writes');
    // Carol last wrote 100 days ago: active in the half-year, not in the month. Bob's only act is a repost.
    await ctx.db.db.execute(
      sql`update posts set created_at = now() - interval '100 days' where author_id = ${carol.id}`,
    );
    expect((await moderator.put(`/api/moderation/users/${dave.id}/suspension`)).statusCode).toBe(200);

    const doc = (await get('/nodeinfo/2.1')).json<{ usage: unknown }>();
    // alice, bob, carol and the moderator; alice's two posts and carol's one (a repost is no post of bob's).
    expect(doc.usage).toEqual({ users: { total: 4, activeMonth: 2, activeHalfyear: 3 }, localPosts: 3 });
    expect((await get('/nodeinfo/2.0')).json<{ usage: unknown }>().usage).toEqual(doc.usage);
  });

  it('keeps the counts a few minutes, but a suspension leaves them at once', async () => {
    const { bob, clients } = await seedTrio(ctx);
    await createPost(clients.bob, 'hello');
    const usage = async () => (await get('/nodeinfo/2.1')).json<{ usage: { users: { total: number } } }>().usage;
    expect((await usage()).users.total).toBe(3);
    const moderator = await new TestClient(ctx).signInAs(
      (await insertUser(ctx.db, { username: 'mod', role: 'moderator' })).id,
    );
    // A new account waits for the next read (kept)...
    expect((await usage()).users.total).toBe(3);
    // ...a suspension does not.
    expect((await moderator.put(`/api/moderation/users/${bob.id}/suspension`)).statusCode).toBe(200);
    expect(await usage()).toEqual({ users: { total: 3, activeMonth: 0, activeHalfyear: 0 }, localPosts: 0 });
  });
});

describe('discovery with the web app built', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'pipit-web-nodeinfo-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Pipit</title><div id="root"></div>');
  const ctx = useTestApp({ webDist: dist });

  it.each([
    ['/.well-known/host-meta', 'application/xrd+xml'],
    ['/.well-known/host-meta.json', 'application/json'],
    ['/.well-known/nodeinfo', 'application/json'],
    ['/nodeinfo/2.0', 'application/json; profile='],
    ['/nodeinfo/2.1', 'application/json; profile='],
  ])('%s is its document, not the web app', async (url, type) => {
    const res = await new TestClient(ctx).get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(type);
    expect(res.body).not.toContain('<div id="root">');
  });
});
