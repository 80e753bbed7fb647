/**
 * "Features never import each other" is a lint rule (web/biome.json: noRestrictedImports per feature
 * folder), run by `npm run lint` in CI. This proves the rule bites: a feature importing another
 * feature's component fails the lint, the same import from shared code does not.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(import.meta.dirname, '../..');
const BIOME = path.resolve(WEB, '../node_modules/.bin/biome');

function lint(relativeFile: string, source: string) {
  const file = path.join(WEB, relativeFile);
  writeFileSync(file, source);
  try {
    const run = spawnSync(BIOME, ['lint', '--colors=off', relativeFile], { cwd: WEB, encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(file, { force: true });
  }
}

describe('feature boundaries', () => {
  it('refuses an import of another feature', () => {
    const { status, output } = lint(
      `src/features/auth/boundary-probe-${process.pid}.ts`,
      "import { PostCard } from '../../posts/components/post-card.tsx';\nexport const probe = PostCard;\n",
    );
    expect(status).toBe(1);
    expect(output).toContain('Features never import each other');
  });

  it('allows shared code and the feature itself', () => {
    const { status, output } = lint(
      `src/features/posts/boundary-probe-${process.pid}.ts`,
      "import { PostCard } from './components/post-card.tsx';\nimport { cn } from '../../lib/cn.ts';\nexport const probe = [PostCard, cn];\n",
    );
    expect(output).not.toContain('Features never import each other');
    expect(status).toBe(0);
  });
});
