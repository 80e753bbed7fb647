// Result shapes, the console tables and the Markdown written next to the JSON.
import type { FloorStat } from './floors.ts';
import type { LoadOptions, LoadStat } from './load.ts';
import type { Target } from './options.ts';
import type { Budget, LighthouseResult } from './web.ts';

export interface ScenarioResult extends LoadStat {
  name: string;
  title: string;
  peakRssMb: number;
  /** 1-minute load average of the machine when the scenario ended (other work distorts figures). */
  loadAvg: number;
  /** The scenario's own statements replayed through the bare driver (null for like/unlike). */
  raw: FloorStat | null;
  statements: string[];
}

export interface TargetResult {
  target: Target;
  dataset: string;
  counts: { posts: number } & Record<string, unknown>;
  serverStartMs: number;
  serverPeakRssMb: number;
  floors: { bare: LoadStat; rawEveryone: FloorStat; rawInsert: FloorStat; insertSql: string };
  scenarios: ScenarioResult[];
  /** Mastodon home against Following in alternating loads (run.ts pairRounds); null when not run. */
  mastodonPair?: PairResult | null;
  /** Create post against the raw INSERT in alternating loads (run.ts createRounds); null when not run. */
  createPair?: CreatePairResult | null;
}

export interface CreatePairResult {
  rounds: { create: number; insert: number }[];
  /** Median of the rounds' ratios (create / raw INSERT). */
  ratio: number;
}

export interface PairResult {
  rounds: { following: number; mastodon: number; followingIdentity: number; mastodonIdentity: number }[];
  /** Medians of the rounds' ratios (Mastodon / Following), compressed as asked, and uncompressed. */
  ratio: number;
  identityRatio: number;
}

export interface CurveSide {
  dataset: string;
  posts: number;
  /** Medians over the rounds. */
  p50: number;
  mean: number;
  p99: number;
  rps: number;
  dbCpuMs: number;
  serverCpuMs: number;
  rounds: { p50: number; mean: number; rps: number }[];
}

export interface CurveResult {
  big: CurveSide;
  small: CurveSide;
  /** big p50 / small p50 (autocannon's p50 is in whole ms). */
  ratio: number;
  meanRatio: number;
}

export interface RunResult {
  date: string;
  scale: string;
  seed: number;
  command: string;
  env: Record<string, string>;
  load: LoadOptions;
  machine: Record<string, string | number>;
  loadAvgAtStart: number;
  targets: TargetResult[];
  curve: CurveResult | null;
  web: { budget: Budget; lighthouse: LighthouseResult[]; dataset: string } | null;
}

export const n0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : '–');
const cpu = (n: number | null | undefined) => (n === null || n === undefined ? '–' : n.toFixed(2));
const x = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');

const TARGET_NAMES: Record<Target, string> = { pg: 'PostgreSQL', pglite: 'PGlite (embedded)' };

function scenarioRows(t: TargetResult): string[][] {
  const bare = t.floors.bare.rps;
  const floor = (
    name: string,
    stat: { rps: number; p50: number; p99: number },
    errors: number,
    serverMs: number | undefined,
    dbMs: number | null | undefined,
  ) => [
    name,
    n0(stat.rps),
    ms(stat.p50),
    ms(stat.p99),
    String(errors),
    '–',
    x(stat.rps / bare),
    '–',
    '–',
    '–',
    cpu(serverMs),
    cpu(dbMs),
    '',
  ];
  const f = t.floors;
  const rows: string[][] = [
    floor('floor: bare node:http, same bytes as Everyone', f.bare, f.bare.errors, f.bare.cpu?.serverMs, null),
    floor('floor: raw Everyone query via driver', f.rawEveryone, 0, f.rawEveryone.cpu.clientMs, f.rawEveryone.cpu.dbMs),
    floor('floor: raw INSERT of the post via driver', f.rawInsert, 0, f.rawInsert.cpu.clientMs, f.rawInsert.cpu.dbMs),
  ];
  for (const s of t.scenarios) {
    const floor =
      s.name === 'create-post' || s.name === 'like-unlike' ? t.floors.rawInsert.rps : t.floors.rawEveryone.rps;
    rows.push([
      s.title,
      n0(s.rps),
      ms(s.p50),
      ms(s.p99),
      String(s.errors),
      n0(s.peakRssMb),
      x(s.rps / bare),
      x(s.rps / floor),
      s.raw ? `${n0(s.raw.rps)} (${s.raw.statements} stmt)` : '–',
      s.raw ? x(s.rps / s.raw.rps) : '–',
      cpu(s.cpu?.serverMs),
      cpu(s.cpu?.dbMs),
      s.loadAvg.toFixed(1),
    ]);
  }
  return rows;
}

const HEADER = [
  'scenario',
  'req/s',
  'p50 ms',
  'p99 ms',
  'errors',
  'peak RSS MB',
  '× bare',
  '× raw floor',
  'own SQL via driver, /s',
  '× own SQL',
  'CPU ms/req: node',
  'CPU ms/req: PostgreSQL',
  'load avg',
];

export interface Check {
  what: string;
  goal: string;
  measured: string;
  pass: boolean | null;
}

export function checks(r: RunResult): Check[] {
  const out: Check[] = [];
  const pg = r.targets.find((t) => t.target === 'pg');
  const get = (t: TargetResult | undefined, name: string) => t?.scenarios.find((s) => s.name === name);
  if (pg) {
    const bare = pg.floors.bare.rps;
    const everyone = get(pg, 'everyone');
    if (everyone)
      out.push({
        what: 'Everyone, visitor (PostgreSQL)',
        goal: '≥ 0.5× bare',
        measured: x(everyone.rps / bare),
        pass: everyone.rps / bare >= 0.5,
      });
    const following = get(pg, 'following');
    if (following)
      out.push({
        what: 'Following first page (PostgreSQL)',
        goal: '≥ 0.1× bare, 0 errors',
        measured: `${x(following.rps / bare)}, ${following.errors} errors`,
        pass: following.rps / bare >= 0.1 && following.errors === 0,
      });
    const mastodonHome = get(pg, 'mastodon-home');
    const pair = pg.mastodonPair;
    if (pair)
      out.push({
        what: 'Mastodon home with a bearer token (PostgreSQL)',
        goal: '≥ 0.8× the web Following page, same run',
        measured: `${x(pair.ratio)}, median of ${pair.rounds.length} alternating rounds (uncompressed ${x(pair.identityRatio)})`,
        pass: pair.ratio >= 0.8,
      });
    else if (mastodonHome && following)
      out.push({
        what: 'Mastodon home with a bearer token (PostgreSQL)',
        goal: '≥ 0.8× the web Following page, same run',
        measured: `${x(mastodonHome.rps / following.rps)} (${Math.round(mastodonHome.rps)} vs ${Math.round(following.rps)} req/s)`,
        pass: mastodonHome.rps / following.rps >= 0.8,
      });
    const create = get(pg, 'create-post');
    const createPair = pg.createPair;
    if (createPair)
      out.push({
        what: 'Create post (PostgreSQL)',
        goal: '≥ 0.5× raw INSERT',
        measured: `${x(createPair.ratio)}, median of ${createPair.rounds.length} alternating rounds (${createPair.rounds.map((r) => x(r.create / r.insert)).join(', ')}); main loop ${create ? x(create.rps / pg.floors.rawInsert.rps) : '–'}`,
        pass: createPair.ratio >= 0.5,
      });
    else if (create)
      out.push({
        what: 'Create post (PostgreSQL)',
        goal: '≥ 0.5× raw INSERT',
        measured: x(create.rps / pg.floors.rawInsert.rps),
        pass: create.rps / pg.floors.rawInsert.rps >= 0.5,
      });
    for (const [name, what, goal] of [
      ['search-rare', 'Search posts, a rare word (PostgreSQL)', 100],
      ['search-common', 'Search posts, a common word (PostgreSQL)', 100],
      ['people-typeahead', 'People typeahead (PostgreSQL)', 20],
      ['search-common-burst', 'Search, a common word right after 20,000 posts without it (PostgreSQL)', 100],
      ['search-rare-burst', 'Search, a rare word after the burst (PostgreSQL)', 100],
    ] as const) {
      const scenario = get(pg, name);
      if (scenario)
        out.push({
          what,
          goal: `p99 ≤ ${goal} ms, 0 errors`,
          measured: `p99 ${scenario.p99} ms, ${scenario.errors} errors`,
          pass: scenario.p99 <= goal && scenario.errors === 0,
        });
    }
    out.push({
      what: 'Server peak memory (PostgreSQL)',
      goal: '≤ 300 MB',
      measured: `${n0(pg.serverPeakRssMb)} MB`,
      pass: pg.serverPeakRssMb <= 300,
    });
  }
  if (r.curve) {
    out.push({
      what: `Following p50, ${n0(r.curve.big.posts)} vs ${n0(r.curve.small.posts)} posts`,
      goal: '≤ 1.5×',
      measured: `${ms(r.curve.big.p50)} / ${ms(r.curve.small.p50)} ms = ${x(r.curve.ratio)} (means: ${x(r.curve.meanRatio)})`,
      pass: r.curve.ratio <= 1.5,
    });
  }
  const pglite = r.targets.find((t) => t.target === 'pglite');
  if (pglite) {
    out.push({
      what: 'Server peak memory (PGlite)',
      goal: 'report',
      measured: `${n0(pglite.serverPeakRssMb)} MB`,
      pass: null,
    });
  }
  if (r.web) {
    const { budget, lighthouse } = r.web;
    const fcp = budget.beforeFcp
      ? ` (${(budget.beforeFcp.jsGzip / 1000).toFixed(1)} kB requested before first paint)`
      : '';
    out.push({
      what: 'Home first visit JS',
      goal: '≤ 150 kB gzip',
      measured: `${(budget.jsGzip / 1000).toFixed(1)} kB${fcp}`,
      pass: budget.jsGzip <= 150_000,
    });
    out.push({
      what: 'Home first visit CSS',
      goal: '≤ 20 kB gzip',
      measured: `${(budget.cssGzip / 1000).toFixed(1)} kB`,
      pass: budget.cssGzip <= 20_000,
    });
    for (const l of lighthouse) {
      const runs = l.allScores && l.allScores.length > 1 ? ` (median of ${l.allScores.join(', ')})` : '';
      out.push({
        what: `Lighthouse performance, Home (${l.preset})`,
        goal: '≥ 95',
        measured: `${l.score}${runs}`,
        pass: l.score >= 95,
      });
    }
  }
  return out;
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

export function writeMarkdown(r: RunResult): string {
  const m = r.machine;
  const parts = [
    `Run ${r.date} · scale ${r.scale} (seed ${r.seed}) · ${r.load.connections} connections, ${r.load.durationS} s per scenario after ${r.load.warmupS} s warm-up`,
    `Load average at start: ${r.loadAvgAtStart.toFixed(1)} (scenario rows show it at their end)`,
    `Machine: ${m.cpus} cores (${m.cpuModel}), ${m.memoryGb} GB, ${m.os}, Node ${m.node}, PostgreSQL ${m.postgres}, PGlite ${m.pglite}`,
    `Command: \`${r.command}\``,
  ];
  for (const t of r.targets) {
    parts.push(
      `### ${TARGET_NAMES[t.target]} — ${t.dataset}\n\nServer start ${(t.serverStartMs / 1000).toFixed(1)} s, peak RSS (VmHWM) ${n0(t.serverPeakRssMb)} MB.\n\n${table(HEADER, scenarioRows(t))}`,
    );
  }
  for (const t of r.targets) {
    const pair = t.mastodonPair;
    if (!pair) continue;
    parts.push(
      `### Mastodon home against Following (${TARGET_NAMES[t.target]}; alternating loads on one server, req/s)\n\n${table(
        ['round', 'Mastodon home', 'Following', '×', 'uncompressed: Mastodon home', 'Following', '×'],
        pair.rounds.map((p, i) => [
          String(i + 1),
          n0(p.mastodon),
          n0(p.following),
          x(p.mastodon / p.following),
          n0(p.mastodonIdentity),
          n0(p.followingIdentity),
          x(p.mastodonIdentity / p.followingIdentity),
        ]),
      )}\n\nMedian of the rounds' ratios: ${x(pair.ratio)} (uncompressed ${x(pair.identityRatio)}).`,
    );
  }
  if (r.curve) {
    const row = (c: CurveSide) => [
      n0(c.posts),
      ms(c.p50),
      ms(c.mean),
      ms(c.p99),
      n0(c.rps),
      cpu(c.serverCpuMs),
      cpu(c.dbCpuMs),
      c.rounds.map((round) => `${ms(round.p50)}`).join(' / '),
    ];
    parts.push(
      `### Scale curve (PostgreSQL, Following first page; both servers side by side, alternating rounds, medians)\n\n${table(
        [
          'posts',
          'p50 ms',
          'mean ms',
          'p99 ms',
          'req/s',
          'CPU ms/req: node',
          'CPU ms/req: PostgreSQL',
          'p50 per round',
        ],
        [row(r.curve.small), row(r.curve.big)],
      )}\n\nRatio of medians: ${x(r.curve.ratio)}; of means: ${x(r.curve.meanRatio)}`,
    );
  }
  if (r.web) {
    const rows = r.web.budget.assets.map((a) => [a.path, a.type, n0(a.bytes), n0(a.gzipBytes)]);
    if (r.web.budget.missing?.length) {
      parts.push(
        `**Warning**: web/dist changed during the run; ${r.web.budget.missing.length} requested files were gone, the sums are short.`,
      );
    }
    parts.push(
      `### Web (Home, first visit; files from ${r.web.budget.source})\n\n${table(['file', 'type', 'bytes', 'gzip bytes'], rows)}`,
    );
    for (const l of r.web.lighthouse) {
      parts.push(
        `Lighthouse ${l.preset}: performance ${l.score}; ${Object.entries(l.metrics)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}; estimated savings (ms): ${
          Object.entries(l.opportunities ?? {})
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || 'none'
        }`,
      );
    }
  }
  parts.push(
    `### Targets\n\n${table(
      ['what', 'goal', 'measured', 'met'],
      checks(r).map((c) => [c.what, c.goal, c.measured, c.pass === null ? '–' : c.pass ? 'yes' : '**no**']),
    )}`,
  );
  return `${parts.join('\n\n')}\n`;
}

export function printReport(r: RunResult): void {
  console.log(`\n${writeMarkdown(r)}`);
}
