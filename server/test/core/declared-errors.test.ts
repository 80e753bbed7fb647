/**
 * The endpoint table (packages/contract/src/endpoints.ts) and the server agree on errors, both ways:
 * - every answer an endpoint gives to a batch of wrong calls (a visitor without and with the CSRF
 *   header, a member; ids that cannot exist or do not; missing, empty, non-JSON and broken bodies)
 *   carries a code that endpoint declares — an undeclared answer is a defect of one or the other;
 * - INTERNAL_ERROR, which no wrong call may produce: a database failure under a route is a 500 that
 *   says nothing internal and writes nothing.
 */
import { endpoints } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { sql } from '../../src/db/client.ts';
import { seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { fingerprint } from '../security/support.ts';

/** Path parameter values: not an id at all, zero, and well-formed but absent. */
const PARAMS = ['abc', '0', '999999999'];

type Body = { payload?: unknown; contentType?: string; what: string };
const BODIES: Body[] = [
  { what: 'no body' },
  { what: 'an empty object', payload: {} },
  { what: 'a text body', payload: 'hello', contentType: 'text/plain' },
  { what: 'broken JSON', payload: '{"text": ', contentType: 'application/json' },
];
/** Over every body limit, the profile edit's 16 MB included (sent once per write, as a member). */
const OVERSIZE: Body = {
  what: 'a body over the limit',
  payload: JSON.stringify({ text: 'x'.repeat(17 * 1024 * 1024) }),
  contentType: 'application/json',
};
/** What every write answers whatever it takes: a text body, a body over the limit, no CSRF header. */
const EVERY_WRITE = ['UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'CSRF_FAILED'];

describe('every error answer is declared by its endpoint, and every write answers what all writes declare', () => {
  const ctx = useTestApp();

  it('wrong calls to every endpoint answer only codes the endpoint declares', async () => {
    const { clients } = await seedTrio(ctx);
    const noCsrf = new TestClient(ctx);
    const undeclared = new Set<string>();
    let probes = 0;
    for (const [name, e] of Object.entries(endpoints)) {
      // The event stream stays open by design; its one code (RATE_LIMITED) is test/stream's.
      if (name === 'stream') continue;
      const declared = new Set<string>(e.errors);
      const seen = new Set<string>();
      const paths = e.path.includes(':') ? PARAMS.map((v) => e.path.replace(/:[A-Za-z_]+/g, v)) : [e.path];
      // A query no schema accepts (a negative limit, a NUL in the cursor); ignored where none is read.
      const urls = e.method === 'GET' ? paths.flatMap((p) => [p, `${p}?limit=-1&cursor=%00`]) : paths;
      const bodies = e.method === 'GET' ? [BODIES[0] as Body] : BODIES;
      const actors = e.method === 'GET' ? [clients.visitor, clients.alice] : [noCsrf, clients.visitor, clients.alice];
      const probe = async (client: TestClient, url: string, body: Body) => {
        const res = await client.request(e.method, url, body.payload, {
          ...(body.contentType ? { headers: { 'content-type': body.contentType } } : {}),
        });
        probes++;
        if (res.statusCode < 400) return;
        const code = String(res.json().code);
        seen.add(code);
        if (!declared.has(code))
          undeclared.add(`${name} (${e.method} ${url}, ${body.what}): ${res.statusCode} ${code}`);
      };
      for (const client of actors) {
        for (const url of urls) {
          for (const body of bodies) await probe(client, url, body);
        }
      }
      if (e.method === 'GET') continue;
      await probe(clients.alice, paths[0] as string, OVERSIZE);
      for (const code of EVERY_WRITE) {
        if (!seen.has(code)) undeclared.add(`${name}: never answered ${code}, which every write declares`);
      }
    }
    expect(probes).toBeGreaterThan(500);
    expect([...undeclared], [...undeclared].join('\n')).toEqual([]);
  });
});

describe('INTERNAL_ERROR', () => {
  const ctx = useTestApp();

  it('a database failure under a route is 500 INTERNAL_ERROR, saying nothing internal and writing nothing', async () => {
    const { clients } = await seedTrio(ctx);
    // The database itself fails the statement (as a full disk or a broken constraint would).
    await ctx.db.db.execute(
      sql.raw(`CREATE FUNCTION pipit_fail_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'secret_table on fire'; END $$`),
    );
    await ctx.db.db.execute(
      sql.raw(
        'CREATE TRIGGER pipit_fail_insert BEFORE INSERT ON posts FOR EACH ROW EXECUTE FUNCTION pipit_fail_insert()',
      ),
    );
    try {
      const before = await fingerprint(ctx.db, ctx.config.mediaDir);
      const res = await clients.alice.post('/api/posts', { text: 'this will not be stored' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' });
      expect(res.body).not.toMatch(/secret_table|pipit_fail|trigger|posts/i);
      expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
    } finally {
      await ctx.db.db.execute(sql.raw('DROP TRIGGER pipit_fail_insert ON posts'));
      await ctx.db.db.execute(sql.raw('DROP FUNCTION pipit_fail_insert()'));
    }
    // The failure was the database's: without it the same call succeeds.
    expect((await clients.alice.post('/api/posts', { text: 'stored now' })).statusCode).toBe(201);
  });
});
