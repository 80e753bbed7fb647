// npm run bench:seed [-- --scale full|smoke] [--target pg|pglite|all] [--seed N] [--no-curve] [--no-verify]
//
// Generates the benchmark data set from a seed and bulk-loads it into PostgreSQL (database
// pipit_bench_<scale>, COPY FROM STDIN) and/or PGlite (bench/.data/pglite-<scale>, COPY FROM a blob).
// Also seeds the small twin of the scale curve (same users and follows, fewer posts) on PostgreSQL.
import { mkdirSync, writeFileSync } from 'node:fs';
import { bearerToken, benchPasswordHash, memberToken, tokenHash } from './lib/auth.ts';
import { type Dataset, describe, generate, pickTargets } from './lib/dataset.ts';
import {
  dropConstraintsAndIndexes,
  migrate,
  openTarget,
  type RawDb,
  recreatePgDatabase,
  removePgliteDir,
  restoreConstraintsAndIndexes,
} from './lib/db.ts';
import {
  DATA_DIR,
  type DatasetSpec,
  datasetSpec,
  formatMs,
  manifestPath,
  parseArgs,
  pgliteDir,
  pgUrl,
  resolveScale,
  resolveSeed,
  resolveTargets,
  type Target,
} from './lib/options.ts';
import {
  FOLLOW_COLUMNS,
  followLines,
  HASHTAG_COLUMNS,
  hashtagLines,
  LIKE_COLUMNS,
  likeLines,
  MENTION_COLUMNS,
  mentionLines,
  NOTIFICATION_COLUMNS,
  notificationLines,
  POST_COLUMNS,
  postLines,
  SESSION_COLUMNS,
  USER_COLUMNS,
  userLines,
} from './lib/rows.ts';

export interface Manifest {
  dataset: string;
  target: Target;
  spec: DatasetSpec;
  database: string;
  counts: ReturnType<typeof describe>;
  targets: ReturnType<typeof pickTargets>;
  members: { userId: number; username: string; following: number; token: string }[];
  seededAt: string;
  timingsMs: Record<string, number>;
}

const SESSION_DAYS = 30;

async function timed<T>(timings: Record<string, number>, name: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  timings[name] = Math.round(performance.now() - start);
  console.log(`  ${name.padEnd(28)} ${formatMs(timings[name])}`);
  return result;
}

/** Counters must equal the rows they count; one query per counter, 0 mismatches expected. */
async function verifyCounters(db: RawDb): Promise<Record<string, number>> {
  const checks: Record<string, string> = {
    followers_count: `SELECT count(*)::int AS n FROM users u LEFT JOIN (SELECT followee_id, count(*) c FROM follows GROUP BY 1) f ON f.followee_id = u.id WHERE u.followers_count <> coalesce(f.c, 0)`,
    following_count: `SELECT count(*)::int AS n FROM users u LEFT JOIN (SELECT follower_id, count(*) c FROM follows GROUP BY 1) f ON f.follower_id = u.id WHERE u.following_count <> coalesce(f.c, 0)`,
    posts_count: `SELECT count(*)::int AS n FROM users u LEFT JOIN (SELECT author_id, count(*) c FROM posts WHERE repost_of_id IS NULL GROUP BY 1) p ON p.author_id = u.id WHERE u.posts_count <> coalesce(p.c, 0)`,
    reply_count: `SELECT count(*)::int AS n FROM posts p LEFT JOIN (SELECT parent_id, count(*) c FROM posts WHERE parent_id IS NOT NULL GROUP BY 1) r ON r.parent_id = p.id WHERE p.reply_count <> coalesce(r.c, 0)`,
    like_count: `SELECT count(*)::int AS n FROM posts p LEFT JOIN (SELECT post_id, count(*) c FROM likes GROUP BY 1) l ON l.post_id = p.id WHERE p.like_count <> coalesce(l.c, 0)`,
  };
  const mismatches: Record<string, number> = {};
  for (const [name, sql] of Object.entries(checks)) {
    mismatches[name] = (await db.query<{ n: number }>(sql))[0]?.n ?? -1;
  }
  return mismatches;
}

async function load(dataset: Dataset, target: Target, passwordHash: string, verify: boolean): Promise<Manifest> {
  const { spec } = dataset;
  const timings: Record<string, number> = {};
  const total = performance.now();
  console.log(`\n${spec.name} → ${target === 'pg' ? pgUrl(spec.name) : pgliteDir(spec.name)}`);

  await timed(timings, 'create + migrate', async () => {
    if (target === 'pg') await recreatePgDatabase(spec.name);
    else removePgliteDir(spec.name);
    await migrate(spec.name, target);
  });
  const db = await openTarget(spec.name, target);
  const members: Manifest['members'] = [];
  try {
    if (target === 'pg') await db.exec(`SET synchronous_commit = off; SET maintenance_work_mem = '1GB'`);
    else await db.exec(`SET maintenance_work_mem = '256MB'`);
    const defs = await dropConstraintsAndIndexes(db);
    await timed(timings, 'copy users', () => db.copy('users', USER_COLUMNS, userLines(dataset, passwordHash)));
    await timed(timings, 'copy follows', () => db.copy('follows', FOLLOW_COLUMNS, followLines(dataset)));
    await timed(timings, 'copy posts', () => db.copy('posts', POST_COLUMNS, postLines(dataset)));
    await timed(timings, 'copy hashtags', () => db.copy('post_hashtags', HASHTAG_COLUMNS, hashtagLines(dataset)));
    await timed(timings, 'copy mentions', () => db.copy('post_mentions', MENTION_COLUMNS, mentionLines(dataset)));
    await timed(timings, 'copy likes', () => db.copy('likes', LIKE_COLUMNS, likeLines(dataset)));
    await timed(timings, 'copy notifications', () =>
      db.copy('notifications', NOTIFICATION_COLUMNS, notificationLines(dataset)),
    );
    const now = Date.now();
    const expires = new Date(now + SESSION_DAYS * 86_400_000).toISOString();
    const nowIso = new Date(now).toISOString();
    dataset.members.forEach((userId, index) => {
      members.push({
        userId,
        username: dataset.usernames[userId - 1] as string,
        following: dataset.followingCount[userId - 1] as number,
        token: memberToken(spec.seed, index),
      });
    });
    await timed(timings, 'copy sessions', () =>
      db.copy(
        'sessions',
        SESSION_COLUMNS,
        members.map((m) => `${tokenHash(m.token)}\t${m.userId}\t${expires}\t${nowIso}\t${nowIso}\n`),
      ),
    );
    await db.exec(
      `SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT max(id) FROM users));
       SELECT setval(pg_get_serial_sequence('posts', 'id'), (SELECT max(id) FROM posts));`,
    );
    const indexStart = performance.now();
    await restoreConstraintsAndIndexes(db, defs, (what, ms) => {
      timings[`index ${what}`] = Math.round(ms);
    });
    timings['keys, indexes, foreign keys'] = Math.round(performance.now() - indexStart);
    // A Mastodon app the members authorized: one bearer token each (the mastodon-home scenario).
    await db.exec(
      `INSERT INTO oauth_apps (client_id, client_secret_hash, name, redirect_uris, scopes)
         VALUES ('pipit-bench', '${tokenHash('pipit-bench-secret')}', 'Bench', ARRAY['urn:ietf:wg:oauth:2.0:oob'], 'read write follow');
       INSERT INTO oauth_tokens (token_hash, app_id, user_id, scopes)
         SELECT v.h, (SELECT id FROM oauth_apps WHERE client_id = 'pipit-bench'), v.u, 'read write follow'
         FROM (VALUES ${members.map((m, i) => `('${tokenHash(bearerToken(spec.seed, i))}', ${m.userId})`).join(', ')}) AS v(h, u);`,
    );
    console.log(`  ${'keys, indexes, foreign keys'.padEnd(28)} ${formatMs(timings['keys, indexes, foreign keys'])}`);
    await timed(timings, 'vacuum analyze', () => db.exec('VACUUM (ANALYZE)'));
    if (verify) {
      const mismatches = await timed(timings, 'verify counters', () => verifyCounters(db));
      const bad = Object.entries(mismatches).filter(([, n]) => n !== 0);
      if (bad.length) throw new Error(`Counter mismatches: ${JSON.stringify(mismatches)}`);
    }
    const sizes = await db.query<{ size: string }>(
      'SELECT pg_size_pretty(pg_database_size(current_database())) AS size',
    );
    console.log(`  database size                ${sizes[0]?.size}`);
  } finally {
    await db.close();
  }
  timings.total = Math.round(performance.now() - total);
  console.log(`  ${'load total'.padEnd(28)} ${formatMs(timings.total)}`);
  return {
    dataset: spec.name,
    target,
    spec,
    database: target === 'pg' ? pgUrl(spec.name) : pgliteDir(spec.name),
    counts: describe(dataset),
    targets: pickTargets(dataset),
    members,
    seededAt: new Date().toISOString(),
    timingsMs: timings,
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const scale = resolveScale(args);
  const seed = resolveSeed(args);
  const targets = resolveTargets(args);
  const verify = args.get('no-verify') !== 'true';
  const variants: ('main' | 'curve')[] = args.get('no-curve') === 'true' ? ['main'] : ['main', 'curve'];
  mkdirSync(DATA_DIR, { recursive: true });
  const started = performance.now();
  const passwordHash = await benchPasswordHash();

  for (const variant of variants) {
    const spec = datasetSpec(scale, seed, variant);
    const genStart = performance.now();
    const dataset = generate(spec);
    const generateMs = Math.round(performance.now() - genStart);
    console.log(`\ngenerated ${spec.name} (seed ${seed}) in ${formatMs(generateMs)}`);
    console.log(`  ${JSON.stringify(describe(dataset))}`);
    // The scale curve is a PostgreSQL target; its twin on the embedded database is optional.
    const variantTargets =
      variant === 'curve' && args.get('curve-pglite') !== 'true' ? targets.filter((t) => t === 'pg') : targets;
    for (const target of variantTargets) {
      const manifest = await load(dataset, target, passwordHash, verify);
      manifest.timingsMs.generate = generateMs;
      writeFileSync(manifestPath(spec.name, target), `${JSON.stringify(manifest, null, 2)}\n`);
    }
  }
  console.log(`\nbench:seed done in ${formatMs(performance.now() - started)}`);
}

main().then(
  // A lingering handle (a keep-alive socket, a pool) must not keep a finished run alive.
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
