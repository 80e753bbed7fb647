// npm run bench:growth [-- --small full --big xl --rounds 3 --only everyone,following,…]
//
// How the pages grow with the posts: the same scenarios on two seeded PostgreSQL data sets that differ
// in their posts only (`full`, 1M, and `xl`, 10M: the same people, follows and members), both servers
// running side by side, the loads alternating round by round so that what else the machine does weighs
// on both alike; the medians of the rounds are compared. Without Redis: Following is the per-followee
// query, the path that could grow (home feeds read the same 21 ids at any size). 127.0.0.1 only.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type LoadStat, runLoad } from './lib/load.ts';
import { manifestPath, parseArgs, pgUrl, RESULTS_DIR, SCALES } from './lib/options.ts';
import { buildScenarios } from './lib/scenarios.ts';
import { type RunningServer, startServer } from './lib/server.ts';
import type { Manifest } from './seed.ts';

const args = parseArgs(process.argv.slice(2));
const small = args.get('small') ?? 'full';
const big = args.get('big') ?? 'xl';
const rounds = Number(args.get('rounds') ?? 3);
const names = (
  args.get('only') ?? 'everyone,following,profile,profile-posts,post,replies,hashtag,search-rare,search-common'
).split(',');
const load = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  durationS: Number(process.env.BENCH_DURATION ?? 5),
  warmupS: Number(process.env.BENCH_WARMUP ?? 1),
};
for (const name of [small, big]) if (!SCALES[name]) throw new Error(`unknown scale ${name}`);

const readManifest = (dataset: string): Manifest => {
  const file = manifestPath(dataset, 'pg');
  if (!existsSync(file))
    throw new Error(`${dataset} is not seeded: npm run bench:seed -- --scale ${dataset} --target pg`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
};

const runDir = path.join(RESULTS_DIR, `growth-${new Date().toISOString().replace(/[:.]/g, '-')}`);
mkdirSync(runDir, { recursive: true });
const sides: { dataset: string; manifest: Manifest; server: RunningServer; secret: string }[] = [];
const stats = new Map<string, LoadStat[]>();
try {
  for (const dataset of [small, big]) {
    const secret = randomBytes(32).toString('hex');
    const server = await startServer({
      databaseUrl: pgUrl(dataset),
      dataDir: path.join(runDir, `data-${dataset}`),
      authSecret: secret,
    });
    sides.push({ dataset, manifest: readManifest(dataset), server, secret });
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      for (const side of sides) {
        const scenario = buildScenarios({ manifest: side.manifest, authSecret: side.secret, deepCursor: '' }).find(
          (s) => s.name === name,
        );
        if (!scenario || scenario.write || scenario.prepare) throw new Error(`${name}: not a read scenario`);
        const stat = await runLoad(side.server.url, (client) => scenario.requests(client), load);
        const key = `${name}\u0000${side.dataset}`;
        stats.set(key, [...(stats.get(key) ?? []), stat]);
        console.log(
          `round ${round + 1} ${name.padEnd(16)} ${side.dataset.padEnd(5)} p50 ${stat.p50} ms, mean ${stat.mean.toFixed(2)} ms, ${stat.rps.toFixed(0)} req/s, errors ${stat.errors}`,
        );
      }
    }
  }
} finally {
  for (const side of sides) await side.server.stop();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const rows = names.map((name) => {
  const of = (dataset: string) => stats.get(`${name}\u0000${dataset}`) ?? [];
  const [s, b] = [of(small), of(big)];
  const summary = (list: LoadStat[]) => ({
    p50: median(list.map((x) => x.p50)),
    mean: median(list.map((x) => x.mean)),
    p99: median(list.map((x) => x.p99)),
    rps: median(list.map((x) => x.rps)),
    errors: list.reduce((n, x) => n + x.errors, 0),
  });
  const [a, z] = [summary(s), summary(b)];
  return { name, [small]: a, [big]: z, meanRatio: z.mean / a.mean, rpsRatio: a.rps / z.rps };
});
const posts = (dataset: string) => sides.find((s) => s.dataset === dataset)?.manifest.counts.posts ?? 0;
const table = [
  `| scenario | ${small} (${posts(small).toLocaleString('en')} posts) mean / p99 ms, req/s | ${big} (${posts(big).toLocaleString('en')} posts) mean / p99 ms, req/s | mean ${big} / ${small} | within 1.3× |`,
  '|---|---|---|---|---|',
  ...rows.map((r) => {
    const a = r[small] as { mean: number; p99: number; rps: number };
    const z = r[big] as { mean: number; p99: number; rps: number };
    return `| ${r.name} | ${a.mean.toFixed(2)} / ${a.p99} / ${a.rps.toFixed(0)} | ${z.mean.toFixed(2)} / ${z.p99} / ${z.rps.toFixed(0)} | ${r.meanRatio.toFixed(2)}× | ${r.meanRatio <= 1.3 ? 'yes' : '**no**'} |`;
  }),
].join('\n');
writeFileSync(path.join(runDir, 'growth.json'), `${JSON.stringify({ small, big, rounds, load, rows }, null, 2)}\n`);
writeFileSync(path.join(runDir, 'growth.md'), `${table}\n`);
console.log(`\n${table}\n→ ${path.relative(process.cwd(), runDir)}`);
