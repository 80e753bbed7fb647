import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { executeRows } from '../../src/db/client.ts';
import { users } from '../../src/db/schema.ts';
import { type DomainEvent, Outbox } from '../../src/lib/events.ts';
import { TimedJobs } from '../../src/lib/timed-jobs.ts';
import { insertUser, useTestApp } from '../helpers/app.ts';

/**
 * The durable timed jobs (lib/timed-jobs.ts) on the real database: never before their time, once
 * even with two processes looking, a failure rolled back and retried later. The app's own runner
 * has no timer in tests (pollMs 0): each test runs due jobs by hand, except the one about the timer.
 */
describe('timed jobs', () => {
  const ctx = useTestApp();
  const past = () => new Date(Date.now() - 60_000);
  const future = () => new Date(Date.now() + 3_600_000);

  /** A runner as another process would have, on the same database. */
  function runner(pollMs = 0) {
    return new TimedJobs(ctx.db.db, ctx.app.services.events, ctx.app.log, { pollMs });
  }

  /** Registers `rename` on `jobs`: sets a user's name (a write in the job's transaction) and counts runs. */
  function renamer(jobs: TimedJobs, runs: string[]) {
    jobs.register('test.rename', async (tx, _outbox, payload) => {
      runs.push(String(payload.name));
      await tx
        .update(users)
        .set({ name: String(payload.name) })
        .where(eq(users.id, Number(payload.userId)));
    });
  }

  const nameOf = async (id: number) =>
    (await ctx.db.db.select({ name: users.name }).from(users).where(eq(users.id, id)))[0]?.name;
  const jobCount = async () =>
    Number((await executeRows<{ n: string }>(ctx.db.db, sql`select count(*) as n from timed_jobs`))[0]?.n);

  it('runs a due job once, with its writes, and deletes it; a job not yet due waits', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const jobs = runner();
    const runs: string[] = [];
    renamer(jobs, runs);
    await jobs.scheduleIn(ctx.db.db, new Outbox(), 'test.rename', 'due', past(), { userId: alice.id, name: 'Due' });
    await jobs.scheduleIn(ctx.db.db, new Outbox(), 'test.rename', 'later', future(), {
      userId: alice.id,
      name: 'Later',
    });

    expect(await jobs.runDue()).toBe(1);
    expect(runs).toEqual(['Due']);
    expect(await nameOf(alice.id)).toBe('Due');
    expect(await jobs.dueAt('test.rename', 'due')).toBeNull();
    expect(await jobs.dueAt('test.rename', 'later')).not.toBeNull();
    // Looking again runs nothing: the done job is gone, the other is not due.
    expect(await jobs.runDue()).toBe(0);
    expect(runs).toEqual(['Due']);
  });

  it('rescheduling a key replaces its job, and cancelling removes it', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const jobs = runner();
    const runs: string[] = [];
    renamer(jobs, runs);
    await jobs.scheduleIn(ctx.db.db, new Outbox(), 'test.rename', 'k', past(), { userId: alice.id, name: 'First' });
    const later = future();
    await jobs.scheduleIn(ctx.db.db, new Outbox(), 'test.rename', 'k', later, { userId: alice.id, name: 'Second' });
    expect(await jobCount()).toBe(1);
    expect((await jobs.dueAt('test.rename', 'k'))?.getTime()).toBe(later.getTime());
    expect(await jobs.runDue()).toBe(0);

    await jobs.scheduleIn(ctx.db.db, new Outbox(), 'test.rename', 'k', past(), { userId: alice.id, name: 'Third' });
    await jobs.cancelIn(ctx.db.db, 'test.rename', 'k');
    expect(await jobs.runDue()).toBe(0);
    expect(runs).toEqual([]);
    expect(await jobCount()).toBe(0);
  });

  it('a job scheduled in a transaction that rolls back does not exist', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const jobs = runner();
    const runs: string[] = [];
    renamer(jobs, runs);
    await expect(
      ctx.db.db.transaction(async (tx) => {
        await jobs.scheduleIn(tx, new Outbox(), 'test.rename', 'k', past(), { userId: alice.id, name: 'Ghost' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await jobs.runDue()).toBe(0);
    expect(runs).toEqual([]);
  });

  it('two processes looking at once run each job exactly once', async () => {
    const people = await Promise.all(
      ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'].map((username) => insertUser(ctx.db, { username })),
    );
    const runs: string[] = [];
    const [one, two] = [runner(), runner()];
    renamer(one, runs);
    renamer(two, runs);
    for (const [i, person] of people.entries())
      await one.scheduleIn(ctx.db.db, new Outbox(), 'test.rename', `k${i}`, past(), {
        userId: person.id,
        name: `Name ${i}`,
      });

    const [a, b] = await Promise.all([one.runDue(), two.runDue()]);
    expect(a + b).toBe(people.length);
    expect(runs.toSorted()).toEqual(people.map((_, i) => `Name ${i}`));
    expect(await jobCount()).toBe(0);
  });

  it('a failing job rolls back what it wrote, is kept with its error, and is retried later, not at once', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice', name: 'Alice' });
    const jobs = runner();
    let calls = 0;
    jobs.register('test.fail', async (tx, _outbox, payload) => {
      calls++;
      await tx
        .update(users)
        .set({ name: 'Half done' })
        .where(eq(users.id, Number(payload.userId)));
      throw new Error('the remote end said no');
    });
    await jobs.scheduleIn(ctx.db.db, new Outbox(), 'test.fail', 'k', past(), { userId: alice.id });

    expect(await jobs.runDue()).toBe(1);
    expect(calls).toBe(1);
    expect(await nameOf(alice.id)).toBe('Alice');
    const [row] = await executeRows<{ attempts: number; last_error: string; later: boolean }>(
      ctx.db.db,
      sql`select attempts, last_error, run_at > now() as later from timed_jobs where key = 'k'`,
    );
    expect(row).toEqual({ attempts: 1, last_error: 'Error: the remote end said no', later: true });
    expect(await jobs.runDue()).toBe(0);
    expect(calls).toBe(1);

    // Once its new time has come, it runs again.
    await ctx.db.db.execute(sql`update timed_jobs set run_at = now() - interval '1 second'`);
    expect(await jobs.runDue()).toBe(1);
    expect(calls).toBe(2);
  });

  it('leaves jobs of kinds this process does not know (another version) to the processes that do', async () => {
    const jobs = runner();
    jobs.register('test.known', async () => {});
    await jobs.scheduleIn(ctx.db.db, new Outbox(), 'test.unknown', 'k', past(), {});
    expect(await jobs.runDue()).toBe(0);
    expect(await jobCount()).toBe(1);
  });

  it('publishes what the job put in its outbox after the commit', async () => {
    const alice = await insertUser(ctx.db, { username: 'alice' });
    const seen: DomainEvent[] = [];
    const unsubscribe = ctx.app.services.events.subscribe((event) => void seen.push(event));
    try {
      const jobs = runner();
      jobs.register('test.event', async (_tx, outbox) => {
        outbox.add({ type: 'user.updated', userId: alice.id } as DomainEvent);
      });
      await jobs.scheduleIn(ctx.db.db, new Outbox(), 'test.event', 'k', past(), {});
      await jobs.runDue();
      expect(seen).toContainEqual(expect.objectContaining({ type: 'user.updated', userId: alice.id }));
    } finally {
      unsubscribe();
    }
  });

  it('with a timer, runs a job when its time comes once its change has committed, without a poll in between', async () => {
    const jobs = runner(3_600_000);
    let done: () => void = () => {};
    const ran = new Promise<void>((resolve) => {
      done = resolve;
    });
    const runAt = new Date(Date.now() + 200);
    jobs.register('test.timer', async () => {
      done();
    });
    jobs.start();
    try {
      // Scheduling asks the runner to look at the job's time once the change has committed.
      const outbox = new Outbox();
      await jobs.scheduleIn(ctx.db.db, outbox, 'test.timer', 'k', runAt, {});
      await outbox.publishTo(ctx.app.services.events);
      await ran;
      // Never before its time (the database's clock decides; the two clocks are the same machine's).
      expect(Date.now()).toBeGreaterThanOrEqual(runAt.getTime() - 50);
    } finally {
      await jobs.stop();
    }
  });
});
