/**
 * The embedded database's template (db/embedded.ts): a new data directory is a copy of it only when it
 * was made by the installed PGlite from this version's migrations and is marked as migrated to the
 * latest one; otherwise nothing is touched and initdb (the helper) creates the directory. The copy is
 * made aside and renamed into place, so a copy cut short is never taken for a database. Files only
 * here (a stand-in template); the real one, built and started, is in test/reliability/embedded-template.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createFromTemplate,
  currentTemplateKey,
  EmbeddedSetupError,
  MIGRATIONS_DIR,
  NO_TEMPLATE,
  setupNeeded,
  templateProblem,
} from '../../src/db/embedded.ts';

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};
const latest = journal.entries.at(-1)?.tag ?? '';

describe("the embedded database's template", () => {
  const root = mkdtempSync(path.join(tmpdir(), 'pipit-template-unit-'));
  let n = 0;
  const newDir = () => path.join(root, `dir${n++}`);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A stand-in for a template: a few files as a data directory has them, a mark and a key. */
  function fakeTemplate(overrides: { key?: object; mark?: string | null } = {}): string {
    const dir = newDir();
    mkdirSync(path.join(dir, 'base', '1'), { recursive: true });
    writeFileSync(path.join(dir, 'PG_VERSION'), '17\n');
    writeFileSync(path.join(dir, 'base', '1', '1259'), 'catalog');
    if (overrides.mark !== null) writeFileSync(path.join(dir, 'pipit-migrated'), `${overrides.mark ?? latest}\n`);
    writeFileSync(path.join(dir, 'pipit-template.json'), JSON.stringify(overrides.key ?? currentTemplateKey()));
    return dir;
  }

  it('its key names the installed PGlite and a hash of the migrations', () => {
    const key = currentTemplateKey();
    expect(key.pglite).toMatch(/^\d+\.\d+\.\d+/);
    expect(key.migrations).toMatch(/^[0-9a-f]{64}$/);
    expect(currentTemplateKey()).toEqual(key);
  });

  it('a fitting template is copied into pgdata, without its key, and needs no setup after', async () => {
    const template = fakeTemplate();
    const dataDir = newDir();
    expect(setupNeeded(dataDir)).toBe('create');
    expect(await createFromTemplate(dataDir, template)).toBeNull();
    expect(readFileSync(path.join(dataDir, 'pgdata', 'base', '1', '1259'), 'utf8')).toBe('catalog');
    expect(existsSync(path.join(dataDir, 'pgdata', 'pipit-template.json'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'pgdata.new'))).toBe(false);
    expect(setupNeeded(dataDir)).toBeNull();
  });

  it('what a copy cut short left (pgdata.new) is removed, never used', async () => {
    const template = fakeTemplate();
    const dataDir = newDir();
    mkdirSync(path.join(dataDir, 'pgdata.new', 'base'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pgdata.new', 'PG_VERSION'), '17\n');
    writeFileSync(path.join(dataDir, 'pgdata.new', 'base', 'half-written'), '');
    expect(setupNeeded(dataDir)).toBe('create');
    expect(await createFromTemplate(dataDir, template)).toBeNull();
    expect(existsSync(path.join(dataDir, 'pgdata', 'base', 'half-written'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'pgdata.new'))).toBe(false);
  });

  it('an empty pgdata is replaced; one holding files without a database is refused and left alone', async () => {
    const template = fakeTemplate();
    const empty = newDir();
    mkdirSync(path.join(empty, 'pgdata'), { recursive: true });
    expect(await createFromTemplate(empty, template)).toBeNull();
    expect(existsSync(path.join(empty, 'pgdata', 'PG_VERSION'))).toBe(true);

    const occupied = newDir();
    mkdirSync(path.join(occupied, 'pgdata'), { recursive: true });
    writeFileSync(path.join(occupied, 'pgdata', 'notes.txt'), 'mine');
    await expect(createFromTemplate(occupied, template)).rejects.toThrow(EmbeddedSetupError);
    await expect(createFromTemplate(occupied, template)).rejects.toThrow('holds files but no database');
    expect(readdirSync(path.join(occupied, 'pgdata'))).toEqual(['notes.txt']);
  });

  const unfit: [string, () => string, string][] = [
    ['missing', () => newDir(), NO_TEMPLATE],
    [
      'made by another PGlite',
      () => fakeTemplate({ key: { ...currentTemplateKey(), pglite: '0.0.1' } }),
      'made by PGlite 0.0.1, this is',
    ],
    [
      'made from other migrations',
      () => fakeTemplate({ key: { ...currentTemplateKey(), migrations: 'x' } }),
      'made from other migrations',
    ],
    ['without a key', () => fakeTemplate({ key: undefined }), ''],
    ['not marked as migrated', () => fakeTemplate({ mark: null }), `not migrated to ${latest}`],
    [
      'marked with an older migration',
      () => fakeTemplate({ mark: journal.entries[0]?.tag }),
      `not migrated to ${latest}`,
    ],
  ];
  it.each(unfit)('a template %s is not used, and nothing is touched', async (_, make, problem) => {
    const template = make();
    if (problem === '') rmSync(path.join(template, 'pipit-template.json'));
    const expected = problem === '' ? 'no readable pipit-template.json' : problem;
    expect(templateProblem(template)).toContain(expected);
    const dataDir = newDir();
    mkdirSync(dataDir);
    expect(await createFromTemplate(dataDir, template)).toContain(expected);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
