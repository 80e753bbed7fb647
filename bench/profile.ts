// npx tsx bench/profile.ts <file.cpuprofile> [--top 30]
//
// Summarises a V8 CPU profile (from `npm run bench -- --cpu-prof`): self time by package or area
// (node_modules/<pkg>, server/src/<dir>, node internals, GC, idle) and the hottest functions.
import { readFileSync } from 'node:fs';
import { parseArgs } from './lib/options.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function areaOf(url: string, name: string): string {
  if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') return name;
  if (!url) return '(native / V8)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1] as string;
  const src = /\/(server|packages)\/([^/]+)\/(?:src\/)?([^/]+)/.exec(url);
  if (src) return `${src[1]}/${src[2]}/${src[3]}`;
  if (url.startsWith('node:')) return 'node internals';
  return url;
}

function main() {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) throw new Error('Usage: npx tsx bench/profile.ts <file.cpuprofile> [--top 30]');
  const top = Number(parseArgs(rest).get('top') || 30);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let total = 0;
  let idle = 0;
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const area = areaOf(url, functionName);
    if (area === '(idle)') {
      idle += us;
      continue;
    }
    total += us;
    areas.set(area, (areas.get(area) ?? 0) + us);
    const key = `${functionName || '(anonymous)'}  ${area}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  console.log(`busy ${(total / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s\n\nself time by area:`);
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${area}`);
  console.log('\nhottest functions (self time):');
  for (const [fn, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${fn}`);
}

main();
