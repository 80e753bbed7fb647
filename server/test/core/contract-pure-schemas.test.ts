/**
 * The web bundle leaves zod out only because web/vite.config.ts (pureContractSchemas) marks each
 * *exported* `const x = <call>` pure. A module-level call that is not exported stays in the bundle,
 * and zod with it (+16 kB gzip on the first visit, found by the web budget): every top-level
 * `const … = <call>` here must be exported.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(import.meta.dirname, '../../../packages/contract/src');

describe('contract modules', () => {
  it('have no unexported module-level calls (they would pull zod into the web bundle)', () => {
    const offenders: string[] = [];
    for (const file of readdirSync(SRC).filter((f) => f.endsWith('.ts'))) {
      const lines = readFileSync(path.join(SRC, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        // `const name = something(` or `const name = a.b.c(` at the top level.
        if (/^const \w+(: [^=]+)? = [\w.]+\(/.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
