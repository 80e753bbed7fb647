// npx tsx server/scripts/explain-timelines.ts [--posts 1000000] [--keep]
//
// Checks that every statement the list calls run uses an index, on a data set large enough for
// the planner to mean it. Creates a throwaway database on a local PostgreSQL (EXPLAIN_DATABASE_URL,
// default postgres://postgres@127.0.0.1:5432/postgres), applies the migrations, seeds it with
// generate_series (10k users, --posts posts, follows, likes, notifications), runs the real
// repository functions with a logger that records each statement, then EXPLAIN (ANALYZE, BUFFERS)
// each recorded statement with its parameters. Prints the plans and fails (exit 1) when a plan
// reads a large table sequentially. The database is dropped at the end unless --keep.
import { parseArgs } from 'node:util';
import { TransactionRollbackError } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Database, Executor } from '../src/db/client.ts';
import { MIGRATIONS_DIR } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { decodeCursor, encodeCursor } from '../src/lib/cursor.ts';
import * as follows from '../src/modules/follows/follows.repository.ts';
import * as notifications from '../src/modules/notifications/notifications.repository.ts';
import * as posts from '../src/modules/posts/posts.repository.ts';
import * as timelines from '../src/modules/timelines/timelines.repository.ts';
import * as users from '../src/modules/users/users.repository.ts';

const { values: args } = parseArgs({
  options: { posts: { type: 'string', default: '1000000' }, keep: { type: 'boolean', default: false } },
});
const POSTS = Number(args.posts);
const USERS = 10_000;
if (!Number.isInteger(POSTS) || POSTS < 100_000) throw new Error('--posts must be an integer ≥ 100000');

const adminUrl = process.env.EXPLAIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `pipit_explain_${process.pid}`;
const url = new URL(adminUrl);
url.pathname = `/${dbName}`;

/** Every statement the repositories send, with its parameters. */
class Recorder {
  statements: { query: string; params: unknown[] }[] = [];
  logQuery(query: string, params: unknown[]): void {
    this.statements.push({ query, params });
  }
}

const LARGE_TABLES = ['posts', 'likes', 'follows', 'notifications', 'users'];

async function main() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  let failed = false;
  try {
    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_DIR });
    const ids = await seed(pool);
    const recorder = new Recorder();
    const db = drizzle(pool, { schema, logger: recorder }) as unknown as Database;
    const cases = await buildCases(db, pool, ids);
    const autoExplain = await pool
      .query("LOAD 'auto_explain'")
      .then(() => true)
      .catch(() => false);

    console.log(
      `\n# EXPLAIN (ANALYZE, BUFFERS) — ${POSTS.toLocaleString('en')} posts, ${USERS.toLocaleString('en')} users\n`,
    );
    const summary: string[] = [];
    for (const c of cases) {
      recorder.statements = [];
      let rows = 0;
      if (c.write) {
        await db
          .transaction(async (tx) => {
            rows = await c.run(tx);
            tx.rollback();
          })
          .catch((error: unknown) => {
            if (!(error instanceof TransactionRollbackError)) throw error;
          });
      } else {
        rows = await c.run(db);
      }
      const statements = recorder.statements.filter((st) => !/^(begin|commit|rollback)\b/i.test(st.query.trim()));
      for (const [i, statement] of statements.entries()) {
        const client = await pool.connect();
        let plan: string;
        // Plans of the statements foreign-key triggers run (cascades), through auto_explain.
        const nested: string[] = [];
        const onNotice = (msg: { message?: string }) => {
          if (msg.message?.includes('Query Text:') && !msg.message.includes('EXPLAIN')) nested.push(msg.message);
        };
        try {
          if (c.write) {
            await client.query('BEGIN');
            if (autoExplain) {
              await client.query(
                "LOAD 'auto_explain'; SET LOCAL auto_explain.log_min_duration = 0; SET LOCAL auto_explain.log_nested_statements = on; SET LOCAL auto_explain.log_analyze = on; SET LOCAL client_min_messages = log",
              );
              client.on('notice', onNotice);
            }
          }
          plan = (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.query}`, statement.params)).rows
            .map((r: Record<string, string>) => r['QUERY PLAN'])
            .join('\n');
        } finally {
          client.off('notice', onNotice);
          if (c.write) await client.query('ROLLBACK');
          client.release();
        }
        if (nested.length) plan += `\n\n-- statements run by triggers (auto_explain):\n${nested.join('\n')}`;
        const seqScans = LARGE_TABLES.filter((t) => new RegExp(`Seq Scan on ${t}\\b`).test(plan));
        const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
        const buffers = /Buffers: shared hit=(\d+)(?: read=(\d+))?/.exec(plan);
        const pages = buffers ? Number(buffers[1]) + Number(buffers[2] ?? 0) : Number.NaN;
        const indexes = [
          ...new Set(
            [
              ...plan.matchAll(
                /(?:Index Scan(?: Backward)? using|Index Only Scan(?: Backward)? using|Bitmap Index Scan on) (\w+)/g,
              ),
            ].map((m) => m[1]),
          ),
        ];
        const triggers = [...plan.matchAll(/Trigger for constraint (\w+): time=([\d.]+)/g)].map(
          (m) => `${m[1]} ${m[2]} ms`,
        );
        const verdict = seqScans.length ? `SEQ SCAN on ${seqScans.join(', ')}` : 'indexes only';
        if (seqScans.length) failed = true;
        const label = `${c.name}${statements.length > 1 ? ` [${i + 1}/${statements.length}]` : ''}`;
        console.log(`## ${label}: ${rows} rows`);
        console.log(`${statement.query}\n-- params: ${JSON.stringify(statement.params)}\n`);
        console.log(`${plan}\n`);
        summary.push(
          `| ${label} | ${time} ms | ${pages} | ${indexes.join(', ') || '—'}${triggers.length ? `; triggers: ${triggers.join(', ')}` : ''} | ${verdict} |`,
        );
      }
    }
    console.log('\n| call | execution | buffers (8 kB pages) | indexes used | verdict |\n|---|---|---|---|---|');
    console.log(summary.join('\n'));
  } finally {
    await pool.end();
    if (!args.keep) await admin.query(`DROP DATABASE ${dbName}`);
    else console.log(`\nKept database ${dbName}`);
    await admin.end();
  }
  if (failed) {
    console.error('\nA list call reads a large table sequentially: see the plans above.');
    process.exit(1);
  }
}

interface Seeded {
  /** Follows 2,000 people. */
  heavy: number;
  /** Follows 50 (like everyone else). */
  typical: number;
  /** Follows 3 people who rarely post. */
  light: number;
  /** Follows nobody and never posted. */
  loner: number;
  /** The most prolific author. */
  prolific: number;
  /** A post with 5,000 replies. */
  hotPost: number;
  /** Has liked 50,000 posts. */
  liker: number;
  /** Has 50,000 notifications. */
  notified: number;
}

async function step(pool: pg.Pool, name: string, sql: string, params: unknown[] = []) {
  const start = performance.now();
  const res = await pool.query(sql, params);
  console.log(`  ${name.padEnd(32)} ${(performance.now() - start).toFixed(0).padStart(7)} ms  ${res.rowCount ?? ''}`);
}

/** A deterministic-enough data set: authors skewed (a few post a lot), times spread over a year at µs. */
async function seed(pool: pg.Pool): Promise<Seeded> {
  console.log(`Seeding ${dbName}`);
  await step(pool, 'setseed', 'SELECT setseed(0.42)');
  await step(
    pool,
    'users',
    `INSERT INTO users (email, username, name, password_hash, created_at)
     SELECT 'u' || g || '@example.com', 'u' || g, 'User ' || g, 'x', now() - interval '2 years' + g * interval '1 minute'
     FROM generate_series(1, $1) g`,
    [USERS],
  );
  const topLevel = Math.floor(POSTS * 0.8);
  // Users 9991–10000 post rarely (the light user's followees); user 1 is the most prolific.
  await step(
    pool,
    'posts (top level)',
    `INSERT INTO posts (author_id, text, created_at)
     SELECT 1 + floor(power(random(), 2) * ($2 - 10))::int, 'post ' || g, now() - random() * interval '365 days'
     FROM generate_series(1, $1) g`,
    [topLevel, USERS],
  );
  await step(
    pool,
    'posts (replies)',
    `INSERT INTO posts (author_id, parent_id, text, created_at)
     SELECT 1 + floor(random() * ($3 - 10))::int, 1 + floor(random() * $2)::int, 'reply ' || g, now() - random() * interval '365 days'
     FROM generate_series(1, $1) g`,
    [POSTS - topLevel - 5_000, topLevel, USERS],
  );
  await step(
    pool,
    'posts (hot thread)',
    `INSERT INTO posts (author_id, parent_id, text, created_at)
     SELECT 1 + floor(random() * ($1 - 10))::int, 42, 'hot reply ' || g, now() - random() * interval '30 days'
     FROM generate_series(1, 5000) g`,
    [USERS],
  );
  await step(
    pool,
    'posts (rare posters)',
    `INSERT INTO posts (author_id, text, created_at)
     SELECT $1 - 9 + (g % 10), 'rare ' || g, now() - random() * interval '365 days' FROM generate_series(1, 30) g`,
    [USERS],
  );
  await step(
    pool,
    'follows (50 each)',
    `INSERT INTO follows (follower_id, followee_id)
     SELECT f, t FROM (
       SELECT f, 1 + floor(random() * ($1 - 10))::int t FROM generate_series(1, $1 - 20) f, generate_series(1, 50)
     ) pairs WHERE f <> t
     ON CONFLICT DO NOTHING`,
    [USERS],
  );
  const heavy = USERS - 19;
  const light = USERS - 18;
  const loner = USERS - 17;
  await step(
    pool,
    'follows (heavy: 2,000)',
    `INSERT INTO follows (follower_id, followee_id) SELECT $1, g FROM generate_series(1, 2000) g`,
    [heavy],
  );
  await step(
    pool,
    'follows (light: 3 rare posters)',
    `INSERT INTO follows (follower_id, followee_id) SELECT $1, $2 - g FROM generate_series(0, 2) g`,
    [light, USERS],
  );
  await step(
    pool,
    'likes',
    `INSERT INTO likes (user_id, post_id)
     SELECT 1 + floor(random() * $1)::int, 1 + floor(power(random(), 3) * $2)::int FROM generate_series(1, $2) g
     ON CONFLICT DO NOTHING`,
    [USERS, POSTS],
  );
  const liker = USERS - 16;
  await step(
    pool,
    'likes (one person: 50,000)',
    `INSERT INTO likes (user_id, post_id) SELECT $1, g * ($2::int / 50000) FROM generate_series(1, 50000) g
     ON CONFLICT DO NOTHING`,
    [liker, POSTS],
  );
  const notified = 1;
  await step(
    pool,
    'notifications',
    `INSERT INTO notifications (user_id, actor_id, type, post_id, created_at, read_at)
     SELECT CASE WHEN g <= 50000 THEN $3 ELSE 1 + floor(random() * $1)::int END,
            2 + floor(random() * ($1 - 2))::int, 'like', 1 + floor(random() * $2)::int,
            now() - random() * interval '365 days', CASE WHEN random() < 0.9 THEN now() END
     FROM generate_series(1, 500000) g
     ON CONFLICT DO NOTHING`,
    [USERS, POSTS, notified],
  );
  await step(
    pool,
    'counters',
    `UPDATE posts p SET like_count = c.n FROM (SELECT post_id, count(*) n FROM likes GROUP BY 1) c WHERE c.post_id = p.id`,
  );
  await step(
    pool,
    'counters (replies)',
    `UPDATE posts p SET reply_count = c.n FROM (SELECT parent_id, count(*) n FROM posts WHERE parent_id IS NOT NULL GROUP BY 1) c WHERE c.parent_id = p.id`,
  );
  await step(pool, 'vacuum analyze', 'VACUUM ANALYZE');
  return { heavy, typical: 500, light, loner, liker, prolific: 1, hotPost: 42, notified };
}

interface Case {
  name: string;
  run: (db: Executor) => Promise<number>;
  /** Runs (and is explained) inside a transaction that is rolled back. */
  write?: boolean;
}

async function buildCases(db: Database, pool: pg.Pool, s: Seeded): Promise<Case[]> {
  const limit = 20;
  // A cursor halfway down a year of posts, and one deep in the heavy user's timeline.
  const middle = (
    await pool.query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') t, id FROM posts ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT 1`,
      [Math.floor(POSTS / 2)],
    )
  ).rows[0] as { t: string; id: string };
  const deep = decodeCursor(encodeCursor({ t: middle.t, id: Number(middle.id) }));
  const next = async (rows: { cursorTime: string; id: number }[]) => {
    const last = rows[Math.min(rows.length, limit) - 1];
    return last ? { t: last.cursorTime, id: last.id } : null;
  };
  const heavyFirst = await timelines.findFollowingPage(db, s.heavy, null, limit);
  const heavyCursor = await next(heavyFirst);
  const lightFirst = await timelines.findFollowingPage(db, s.light, null, limit);
  const lightCursor = await next(lightFirst);
  const notes = await notifications.findNotificationPage(db, s.notified, null, limit);
  const noteCursor = await next(notes);

  const count = (p: Promise<unknown[] | unknown>) => p.then((r) => (Array.isArray(r) ? r.length : r ? 1 : 0));
  return [
    { name: 'Everyone, first page (visitor)', run: (db) => count(timelines.findEveryonePage(db, null, null, limit)) },
    {
      name: 'Everyone, first page (member)',
      run: (db) => count(timelines.findEveryonePage(db, s.typical, null, limit)),
    },
    {
      name: 'Everyone, page at the median post',
      run: (db) => count(timelines.findEveryonePage(db, s.typical, deep, limit)),
    },
    {
      name: 'Everyone, viewer with 50,000 likes',
      run: (db) => count(timelines.findEveryonePage(db, s.liker, null, limit)),
    },
    { name: 'Following, follows 50', run: (db) => count(timelines.findFollowingPage(db, s.typical, null, limit)) },
    { name: 'Following, follows 2,000', run: (db) => count(timelines.findFollowingPage(db, s.heavy, null, limit)) },
    {
      name: 'Following, follows 2,000, next page',
      run: (db) => count(timelines.findFollowingPage(db, s.heavy, heavyCursor, limit)),
    },
    {
      name: 'Following, follows 3 rare posters',
      run: (db) => count(timelines.findFollowingPage(db, s.light, null, limit)),
    },
    {
      name: 'Following, 3 rare posters, next page',
      run: (db) => count(timelines.findFollowingPage(db, s.light, lightCursor, limit)),
    },
    { name: 'Following, follows nobody', run: (db) => count(timelines.findFollowingPage(db, s.loner, null, limit)) },
    {
      name: 'Replies of a 5,000-reply post',
      run: (db) =>
        count(posts.findPostPage(db, s.typical, posts.byParent(s.hotPost, s.typical), null, 'oldest', limit)),
    },
    {
      name: "A prolific author's posts",
      run: (db) => count(posts.findPostPage(db, s.typical, posts.byAuthor(s.prolific), null, 'newest', limit)),
    },
    {
      name: "A prolific author's posts, median page",
      run: (db) => count(posts.findPostPage(db, s.typical, posts.byAuthor(s.prolific), deep, 'newest', limit)),
    },
    { name: 'One post', run: (db) => count(posts.findPostView(db, s.typical, s.hotPost)) },
    {
      name: 'Notifications (50,000)',
      run: (db) => count(notifications.findNotificationPage(db, s.notified, null, limit)),
    },
    {
      name: 'Notifications, next page',
      run: (db) => count(notifications.findNotificationPage(db, s.notified, noteCursor, limit)),
    },
    // GET /api/current's hasNotification (modules/users), for someone with 5,000 unread and with none.
    { name: 'hasNotification, 5,000 unread', run: (db) => count(users.findCurrentUser(db, s.notified)) },
    { name: 'hasNotification, none unread', run: (db) => count(users.findCurrentUser(db, s.loner)) },
    {
      name: 'Followers of a popular user',
      run: (db) => count(follows.findFollowersPage(db, s.typical, 1, null, limit)),
    },
    {
      name: 'Followers of a popular user, viewer follows 2,000',
      run: (db) => count(follows.findFollowersPage(db, s.heavy, 1, null, limit)),
    },
    {
      name: 'Following list (2,000)',
      run: (db) => count(follows.findFollowingPage(db, s.typical, s.heavy, null, limit)),
    },
    { name: 'Mentions lookup', run: (db) => count(posts.findUserIdsByUsernames(db, ['u1', 'u77', 'nobody'])) },
    // Writes (each in a transaction rolled back): the statements of like, unlike, reply, delete, follow.
    {
      name: 'Like',
      write: true,
      run: async (db) => {
        await posts.insertLike(db, s.loner, s.hotPost);
        const author = await posts.bumpPostCount(db, s.hotPost, 'likeCount', 1);
        await notifications.insertNotifications(db, [
          { userId: author!, actorId: s.loner, type: 'like', postId: s.hotPost },
        ]);
        return 1;
      },
    },
    {
      name: 'Unlike',
      write: true,
      run: async (db) => {
        await posts.deleteLike(db, s.loner, s.hotPost);
        await notifications.deleteNotification(db, { userId: 1, actorId: s.loner, type: 'like', postId: s.hotPost });
        return 1;
      },
    },
    {
      name: 'Reply',
      write: true,
      run: async (db) => {
        await posts.bumpPostCount(db, s.hotPost, 'replyCount', 1);
        await posts.insertPost(db, {
          authorId: s.loner,
          parentId: s.hotPost,
          text: 'hello @u1',
          visibility: 'public',
          quotePolicy: 'anyone',
        });
        await posts.addToPostsCount(db, s.loner, 1);
        return 1;
      },
    },
    {
      name: 'Delete a post with 5,000 replies and its likes',
      write: true,
      run: async (db) => {
        const author = await posts.findPostAuthor(db, s.hotPost);
        return (await posts.deletePostBy(db, s.hotPost, author!)) ? 1 : 0;
      },
    },
    {
      name: 'Follow',
      write: true,
      run: async (db) => {
        await follows.insertFollow(db, s.loner, 1);
        await follows.addToFollowCounts(db, s.loner, 1, 1);
        return 1;
      },
    },
    { name: 'Unfollow', write: true, run: async (db) => ((await follows.deleteFollow(db, s.typical, 1)) ? 1 : 0) },
    {
      name: 'Mark notifications read',
      write: true,
      run: async (db) => {
        await notifications.markAllRead(db, s.notified);
        return 1;
      },
    },
  ];
}

await main();
