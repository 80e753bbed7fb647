/**
 * The embedded data directory's lock (db/embedded.ts): one owner, plus the helper process that sets the
 * directory up for it while the helper runs. A lock is taken over only when every process it names is
 * gone, so a helper still working after its server was killed keeps the next server out.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { assertLockedBy, DataDirLockedError, lockDataDir, setupNeeded } from '../../src/db/embedded.ts';

/** A process that stays alive until killed. */
function sleeper(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
}

/** The pid of a process that has exited (and been reaped): nobody answers to it. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('the data directory lock', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'pipit-lock-unit-'));
  const alive: ChildProcess[] = [];
  let n = 0;
  const newDir = () => path.join(root, `dir${n++}`);
  const lockFile = (dir: string) => path.join(dir, 'pipit.lock');
  const pidsIn = (dir: string) => readFileSync(lockFile(dir), 'utf8').split(/\s+/).map(Number);

  afterEach(() => {
    for (const child of alive.splice(0)) child.kill('SIGKILL');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names its owner, then the helper it shares with, until unshared and released', () => {
    const dir = newDir();
    const lock = lockDataDir(dir);
    expect(pidsIn(dir)).toEqual([process.pid]);
    lock.share(4242);
    expect(pidsIn(dir)).toEqual([process.pid, 4242]);
    lock.unshare();
    expect(pidsIn(dir)).toEqual([process.pid]);
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('refuses while the owner is gone but its helper still runs, and names the helper', async () => {
    const dir = newDir();
    const helper = sleeper();
    alive.push(helper);
    lockDataDir(dir).release();
    writeFileSync(lockFile(dir), `${await deadPid()}\n${helper.pid}`);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`in use by another Pipit process (pid ${helper.pid})`);
  });

  it('is taken over when every process it names is gone (kill -9 of a server and its helper)', async () => {
    const dir = newDir();
    lockDataDir(dir).release();
    writeFileSync(lockFile(dir), `${await deadPid()}\n${await deadPid()}`);
    const lock = lockDataDir(dir);
    expect(pidsIn(dir)).toEqual([process.pid]);
    lock.release();
  });

  it('the helper runs only under its own server’s lock', () => {
    const dir = newDir();
    expect(() => assertLockedBy(dir, process.pid)).toThrow('is not locked by the server that started this helper');
    const lock = lockDataDir(dir);
    expect(() => assertLockedBy(dir, process.pid)).not.toThrow();
    expect(() => assertLockedBy(dir, process.pid + 1)).toThrow('is not locked by the server that started this helper');
    lock.release();
  });

  it('a directory without a database needs one created', () => {
    expect(setupNeeded(newDir())).toBe('create');
  });
});
