// npx tsx bench/explain.ts [--scale full|smoke] [--target pg|pglite] [--only a,b]
//
// Prints the statements each scenario sends (captured from the app in-process) with their
// EXPLAIN (ANALYZE, BUFFERS) plans on the seeded data set, and times a few runs of each.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { InProcess } from './lib/floors.ts';
import { datasetSpec, manifestPath, parseArgs, pgliteDir, pgUrl, RESULTS_DIR, resolveScale } from './lib/options.ts';
import { buildScenarios } from './lib/scenarios.ts';
import type { Manifest } from './seed.ts';

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const scale = resolveScale(args);
  const target = args.get('target') === 'pglite' ? 'pglite' : 'pg';
  const dataset = datasetSpec(scale, Number(args.get('seed') || 1), args.get('curve') === 'true' ? 'curve' : 'main');
  const file = manifestPath(dataset.name, target);
  if (!existsSync(file)) throw new Error(`Seed first: npm run bench:seed -- --scale ${scale.name} --target ${target}`);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  const only = args.get('only')?.split(',');
  const secret = randomBytes(32).toString('hex');
  const app = await InProcess.open(
    target === 'pg' ? pgUrl(dataset.name) : null,
    target === 'pg' ? path.join(RESULTS_DIR, 'explain-data') : pgliteDir(dataset.name),
    secret,
    2,
  );
  try {
    const at = new Date(Date.UTC(2026, 4, 3)).toISOString().replace('Z', '000Z');
    const deepCursor = Buffer.from(`${at}_999999999`, 'utf8').toString('base64url');
    for (const scenario of buildScenarios({ manifest, authSecret: secret, deepCursor })) {
      if (!scenario.sample || (only && !only.includes(scenario.name))) continue;
      const captured = await app.capture(scenario.sample);
      console.log(`\n######## ${scenario.name}: ${scenario.sample.method} ${scenario.sample.url} → ${captured.status}`);
      for (const statement of captured.statements) {
        console.log(`\n-- ${statement.text}\n-- params: ${JSON.stringify(statement.params)}`);
        if (!/^\s*(select|with)/i.test(statement.text)) continue;
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const t = performance.now();
          await app.query(statement.text, statement.params);
          times.push(performance.now() - t);
        }
        console.log(`-- 5 runs (ms): ${times.map((t) => t.toFixed(2)).join(' ')}`);
        const plan = await app.query<Record<string, string>>(
          `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
          statement.params,
        );
        for (const row of plan) console.log(Object.values(row)[0]);
      }
    }
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
