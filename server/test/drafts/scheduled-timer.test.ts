/**
 * A scheduled post goes out within 5 seconds after its time and never before, by the app's own timer
 * (timed jobs polling every second, as in production; the other suites run jobs by hand). No clock is
 * guessed: the test waits for the post's `post.created` event (bounded by the test's timeout) and
 * compares the post's time with the scheduled time, both on the database's clock.
 */
import type { ScheduledPost } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/lib/events.ts';
import { PUBLISH_JOB } from '../../src/modules/drafts/scheduled.service.ts';
import { seedTrio, useTestApp } from '../helpers/app.ts';
import { rowsOf } from '../helpers/social.ts';

describe('scheduled posts on the timer', () => {
  const ctx = useTestApp({ timedJobs: { pollMs: 1_000 } });

  it('publishes within 5 s after its time, never before', { timeout: 30_000 }, async () => {
    const { alice, clients } = await seedTrio(ctx);
    const res = await clients.alice.post('/api/scheduled-posts', {
      post: { text: 'right on time' },
      scheduledAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const scheduled = res.json<ScheduledPost>();
    const published = new Promise<number>((resolve) => {
      const unsubscribe = ctx.app.services.events.subscribe((event: DomainEvent) => {
        if (event.type === 'post.created' && event.authorId === alice.id) {
          unsubscribe();
          resolve(event.postId);
        }
      });
    });
    // The 5-minute minimum is for people; here the time is moved 2 s ahead on the database's clock.
    const [due] = rowsOf<{ at: string | Date }>(
      await ctx.db.db.execute(
        sql`update scheduled_posts set scheduled_at = now() + interval '2 seconds' where id = ${scheduled.id} returning scheduled_at as at`,
      ),
    );
    await ctx.db.db.execute(
      sql`update timed_jobs set run_at = ${new Date(due!.at).toISOString()}::timestamptz where kind = ${PUBLISH_JOB} and key = ${scheduled.id}`,
    );

    const postId = await published;
    const [row] = rowsOf<{ after: boolean; within: boolean }>(
      await ctx.db.db.execute(
        sql`select created_at >= ${new Date(due!.at).toISOString()}::timestamptz as after,
                   created_at <= ${new Date(due!.at).toISOString()}::timestamptz + interval '5 seconds' as within
            from posts where id = ${postId}`,
      ),
    );
    expect(row).toEqual({ after: true, within: true });
    expect((await clients.alice.get(`/api/scheduled-posts/${scheduled.id}`)).statusCode).toBe(404);
  });
});
