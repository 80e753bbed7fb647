// Where the benchmark data lives and how big it is. Command-line flags win over environment variables.
import path from 'node:path';

export const BENCH_DIR = path.resolve(import.meta.dirname, '..');
export const ROOT_DIR = path.resolve(BENCH_DIR, '..');
export const DATA_DIR = path.join(BENCH_DIR, '.data');
export const RESULTS_DIR = path.join(BENCH_DIR, 'results');

export type Target = 'pg' | 'pglite';

export interface Scale {
  name: string;
  users: number;
  posts: number;
  likes: number;
  /** Post count of the small data set of the scale curve (same users and follows). */
  curvePosts: number;
  /** Run defaults (env BENCH_DURATION, BENCH_WARMUP, BENCH_FLOOR_DURATION, BENCH_LIGHTHOUSE_RUNS win). */
  run: { durationS: number; warmupS: number; floorDurationS: number; lighthouseRuns: number; curveRounds: number };
}

export const SCALES: Record<string, Scale> = {
  full: {
    name: 'full',
    users: 10_000,
    posts: 1_000_000,
    likes: 3_000_000,
    curvePosts: 10_000,
    run: { durationS: 10, warmupS: 2, floorDurationS: 5, lighthouseRuns: 3, curveRounds: 3 },
  },
  // Ten times the posts (and likes) of `full`, the same people, follows and members: how the pages grow
  // with the posts alone (issue 31). Seeded on PostgreSQL only (`--target pg --no-curve`): ~6 GB.
  xl: {
    name: 'xl',
    users: 10_000,
    posts: 10_000_000,
    likes: 30_000_000,
    curvePosts: 1_000_000,
    run: { durationS: 10, warmupS: 2, floorDurationS: 5, lighthouseRuns: 3, curveRounds: 3 },
  },
  // A sanity check of the whole pipeline in about a minute; its figures mean little.
  smoke: {
    name: 'smoke',
    users: 1_000,
    posts: 20_000,
    likes: 60_000,
    curvePosts: 2_000,
    run: { durationS: 1, warmupS: 0, floorDurationS: 0.25, lighthouseRuns: 0, curveRounds: 1 },
  },
};

/** One concrete data set: a scale, or its small-posts twin for the scale curve. */
export interface DatasetSpec {
  /** 'full', 'full-curve', 'smoke', … — names the database, the data directory and the manifest. */
  name: string;
  seed: number;
  users: number;
  posts: number;
  likes: number;
  /** Members with a session and exactly `memberFollows` followees; one per load connection. */
  members: number;
  memberFollows: number;
}

export const MEMBERS = 20;
export const MEMBER_FOLLOWS = 200;

export function datasetSpec(scale: Scale, seed: number, variant: 'main' | 'curve'): DatasetSpec {
  const posts = variant === 'main' ? scale.posts : scale.curvePosts;
  return {
    name: variant === 'main' ? scale.name : `${scale.name}-curve`,
    seed,
    users: scale.users,
    posts,
    likes: Math.round((scale.likes * posts) / scale.posts),
    members: MEMBERS,
    memberFollows: MEMBER_FOLLOWS,
  };
}

export const pgAdminUrl = () => process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export function pgDatabaseName(dataset: string): string {
  return `pipit_bench_${dataset.replace(/[^a-z0-9]/g, '_')}`;
}

export function pgUrl(dataset: string): string {
  const url = new URL(pgAdminUrl());
  url.pathname = `/${pgDatabaseName(dataset)}`;
  return url.toString();
}

export const pgliteDir = (dataset: string) => path.join(DATA_DIR, `pglite-${dataset}`);
export const manifestPath = (dataset: string, target: Target) => path.join(DATA_DIR, `${dataset}.${target}.json`);

/** Minimal flag parser: `--name value`, `--name=value` and bare `--flag` (true). */
export function parseArgs(argv: string[]): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    if (eq > 0) {
      args.set(arg.slice(2, eq), arg.slice(eq + 1));
    } else if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) {
      args.set(arg.slice(2), argv[++i] as string);
    } else {
      args.set(arg.slice(2), 'true');
    }
  }
  return args;
}

export function resolveScale(args: Map<string, string>): Scale {
  const name = args.get('scale') || process.env.BENCH_SCALE || 'full';
  const scale = SCALES[name];
  if (!scale) throw new Error(`Unknown scale "${name}" (known: ${Object.keys(SCALES).join(', ')})`);
  return scale;
}

export function resolveTargets(args: Map<string, string>): Target[] {
  const value = args.get('target') || process.env.BENCH_TARGET || 'all';
  if (value === 'all') return ['pg', 'pglite'];
  const targets = value.split(',');
  for (const t of targets) if (t !== 'pg' && t !== 'pglite') throw new Error(`Unknown target "${t}" (pg, pglite, all)`);
  return targets as Target[];
}

export function resolveSeed(args: Map<string, string>): number {
  const seed = Number(args.get('seed') || process.env.BENCH_SEED || 1);
  if (!Number.isInteger(seed) || seed < 0) throw new Error('--seed must be a non-negative integer');
  return seed;
}

export const formatMs = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`);
