/**
 * Item 9: load without loss. A mixed read/write load (posts, replies, likes, follows, timelines,
 * profiles, notifications) from 10 connections for 60 s (LOAD_SECONDS) with autocannon against the
 * real server on the embedded database ends with zero errors, zero timeouts and zero non-2xx
 * answers, and every acknowledged write is in the database with consistent counters.
 */
import { rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Acknowledged,
  type Member,
  pgliteQuery,
  type ServerProcess,
  signUpMembers,
  startServer,
  tempDir,
  verifyDurability,
} from './support.ts';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = 10;

describe('load without loss (embedded database)', () => {
  const dataDir = tempDir('pipit-load-');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    `${CONNECTIONS} connections of mixed reads and writes for ${SECONDS} s: no failures, nothing lost`,
    async () => {
      server = await startServer({ dataDir });
      const members = await signUpMembers(server.url, 'load', CONNECTIONS);
      const acked: Acknowledged = { posts: new Map(), likes: new Set(), follows: new Set() };
      const postIds: string[] = [];
      for (const m of members) {
        const res = await m.client.request('POST', '/api/posts', { text: `first post of ${m.id}` });
        const { id } = (await res.json()) as { id: string };
        acked.posts.set(id, { text: `first post of ${m.id}`, authorId: m.id, parentId: null });
        postIds.push(id);
      }

      let n = 0;
      let next = 0;
      const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;
      const recentPost = () => pick(postIds.slice(-100));
      type Ctx = { m: number; text?: string; target?: string };
      const ctxOf = (context: unknown) => context as Ctx;
      const memberOf = (context: unknown): Member => members[ctxOf(context).m]!;
      const headersOf = (member: Member, body: unknown) => ({
        cookie: [...member.client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
        'x-csrf-token': member.client.csrfToken!,
        ...(body ? { 'content-type': 'application/json' } : {}),
      });
      /** Every request but the first carries its connection's member's cookies and CSRF token. */
      const signedIn = (requests: autocannon.Request[]): autocannon.Request[] =>
        requests.map((request, i) =>
          i === 0
            ? request
            : {
                ...request,
                setupRequest(req, context) {
                  const setup = request.setupRequest as
                    | ((r: autocannon.Request, c: object) => autocannon.Request)
                    | undefined;
                  const built = setup ? setup(req, context) : req;
                  return { ...built, headers: { ...built.headers, ...headersOf(memberOf(context), built.body) } };
                },
              },
        );
      const json = (body: string) => JSON.parse(body) as { id: string; author?: { id: string } };

      const result = await autocannon({
        url: server.url,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 20,
        setupClient(client) {
          // Each connection speaks for one member (autocannon's per-connection request context).
          const iterator = (client as unknown as { requestIterator: { initialContext: Ctx; resetContext(): void } })
            .requestIterator;
          iterator.initialContext = { m: next++ % members.length };
          iterator.resetContext();
        },
        requests: signedIn([
          // The first request is built before setupClient runs: a visitor's read.
          { method: 'GET', path: '/api/timeline/everyone?limit=5' },
          {
            method: 'POST',
            path: '/api/posts',
            setupRequest(req, context) {
              const text = `load ${memberOf(context).id} #${n++}`;
              ctxOf(context).text = text;
              return { ...req, body: JSON.stringify({ text }) };
            },
            onResponse(status, body, context) {
              if (status !== 201) return;
              const { id } = json(body);
              acked.posts.set(id, { text: ctxOf(context).text!, authorId: memberOf(context).id, parentId: null });
              postIds.push(id);
            },
          },
          { method: 'GET', path: '/api/timeline/everyone?limit=20' },
          {
            method: 'PUT',
            path: '/api/posts/1/like',
            setupRequest(req, context) {
              ctxOf(context).target = recentPost();
              return { ...req, path: `/api/posts/${ctxOf(context).target}/like` };
            },
            onResponse(status, _body, context) {
              if (status === 200) acked.likes.add(`${memberOf(context).id}:${ctxOf(context).target}`);
            },
          },
          {
            method: 'GET',
            path: '/api/posts/1',
            setupRequest: (req) => ({ ...req, path: `/api/posts/${recentPost()}` }),
          },
          {
            method: 'PUT',
            path: '/api/users/1/follow',
            setupRequest(req, context) {
              const me = memberOf(context);
              ctxOf(context).target = pick(members.filter((m) => m !== me)).id;
              return { ...req, path: `/api/users/${ctxOf(context).target}/follow` };
            },
            onResponse(status, _body, context) {
              if (status === 200) acked.follows.add(`${memberOf(context).id}:${ctxOf(context).target}`);
            },
          },
          { method: 'GET', path: '/api/timeline/following?limit=20' },
          {
            method: 'POST',
            path: '/api/posts',
            setupRequest(req, context) {
              const text = `reply ${memberOf(context).id} #${n++}`;
              ctxOf(context).text = text;
              ctxOf(context).target = recentPost();
              return { ...req, body: JSON.stringify({ text, parentId: ctxOf(context).target }) };
            },
            onResponse(status, body, context) {
              if (status !== 201) return;
              const { id } = json(body);
              const c = ctxOf(context);
              acked.posts.set(id, { text: c.text!, authorId: memberOf(context).id, parentId: c.target! });
            },
          },
          {
            method: 'GET',
            path: '/api/posts/1/replies',
            setupRequest: (req) => ({ ...req, path: `/api/posts/${recentPost()}/replies` }),
          },
          {
            method: 'GET',
            path: '/api/users/1',
            setupRequest: (req) => ({ ...req, path: `/api/users/${pick(members).id}` }),
          },
          { method: 'GET', path: '/api/notifications' },
          { method: 'GET', path: '/api/current' },
        ]),
      });

      const summary = {
        requests: result.requests.total,
        rps: Math.round(result.requests.average),
        latencyP99: result.latency.p99,
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        '5xx': result['5xx'],
        statusCodes: result.statusCodeStats,
        acknowledgedPosts: acked.posts.size,
        acknowledgedLikes: acked.likes.size,
        acknowledgedFollows: acked.follows.size,
      };
      console.info(`load: ${JSON.stringify(summary)}`);
      expect(result.errors, JSON.stringify(summary)).toBe(0);
      expect(result.timeouts, JSON.stringify(summary)).toBe(0);
      expect(result['5xx'], JSON.stringify(summary)).toBe(0);
      expect(result.non2xx, JSON.stringify(summary)).toBe(0);
      expect(result.requests.total).toBeGreaterThan(SECONDS * 10);

      expect((await server.stop('SIGTERM')).code).toBe(0);
      const db = await pgliteQuery(dataDir);
      try {
        expect(await verifyDurability(db.query, acked)).toEqual([]);
      } finally {
        await db.end();
      }
    },
    (SECONDS + 120) * 1000,
  );
});
