/**
 * Scheduled posts (issue 28): checked as a post when scheduled, published by the timed job
 * `post.scheduled` at their time (never before: the job's row is due at `scheduled_at`), exactly
 * once with several processes, after a restart too; edited (rescheduled) or cancelled until then;
 * a publication refused at its time is kept with its reason. Due jobs are run by hand
 * (`timedJobs.runDue()`) after moving the time into the past in the database; the timer itself is
 * proved in scheduled-timer.test.ts.
 */
import { type Post, type ScheduledPost, UNSENT_LIMITS } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { DomainEvent } from '../../src/lib/events.ts';
import { TimedJobs } from '../../src/lib/timed-jobs.ts';
import { PUBLISH_JOB } from '../../src/modules/drafts/scheduled.service.ts';
import { seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { imageUpload } from '../helpers/multipart.ts';
import { createPost, follow, getPage, rowsOf } from '../helpers/social.ts';
import { photo } from '../media/fixtures.ts';
import { fingerprint } from '../security/support.ts';

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('scheduled posts', () => {
  const ctx = useTestApp();

  async function schedule(client: TestClient, post: Record<string, unknown>, at = inMinutes(60)) {
    const res = await client.post('/api/scheduled-posts', { post, scheduledAt: at });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ScheduledPost>();
  }

  /** Moves scheduled post `id` (and its job) to a second ago, on the database's clock. */
  async function makeDue(id: string): Promise<Date> {
    const [row] = rowsOf<{ at: string | Date }>(
      await ctx.db.db.execute(
        sql`update scheduled_posts set scheduled_at = now() - interval '1 second' where id = ${id} returning scheduled_at as at`,
      ),
    );
    await ctx.db.db.execute(
      sql`update timed_jobs set run_at = now() - interval '1 second' where kind = ${PUBLISH_JOB} and key = ${id}`,
    );
    return new Date(row!.at);
  }

  const postRows = async () =>
    rowsOf<{ id: string; text: string; created_at: string }>(
      await ctx.db.db.execute(sql`select id::text as id, text, created_at from posts order by id`),
    );

  it('publishes at its time with its visibility, reply parent, quote, images and alt text; nowhere before', async () => {
    const { bob, clients } = await seedTrio(ctx);
    await follow(clients.alice, bob.id);
    await follow(clients.carol, bob.id);
    const parent = await createPost(clients.alice, 'What are you up to tomorrow?');
    const quoted = await createPost(clients.carol, 'A quotable line');
    const uploaded = await clients.bob.upload(imageUpload(await photo(40, 30), 'first alt'));
    const image = uploaded.json<{ id: string }>();
    const seen: DomainEvent[] = [];
    const unsubscribe = ctx.app.services.events.subscribe((event) => void seen.push(event));
    try {
      const scheduled = await schedule(clients.bob, {
        text: 'Tomorrow: #gardening with @alice',
        parentId: parent.id,
        quoteOfId: quoted.id,
        media: [{ id: image.id, alt: 'a rake in the sun' }],
        visibility: 'followers',
      });
      expect(scheduled).toMatchObject({
        post: { text: 'Tomorrow: #gardening with @alice', parentId: parent.id, visibility: 'followers' },
        media: [{ id: image.id, alt: 'a rake in the sun' }],
        failure: null,
      });
      // The quote policy the check resolved is stored with it.
      expect(scheduled.post.quotePolicy).toBe('followers');
      expect(await ctx.app.services.timedJobs.dueAt(PUBLISH_JOB, scheduled.id)).toEqual(
        new Date(scheduled.scheduledAt),
      );

      // Before its time: no post anywhere, no count moved, no event for the streams, nobody told.
      const before = await postRows();
      expect(before.map((p) => p.text)).not.toContain('Tomorrow: #gardening with @alice');
      expect(await ctx.app.services.timedJobs.runDue()).toBe(0);
      for (const client of [clients.alice, clients.bob, clients.carol]) {
        expect((await getPage<Post>(client, '/api/timeline/following')).items.map((p) => p.text)).not.toContain(
          'Tomorrow: #gardening with @alice',
        );
        expect((await getPage<Post>(client, `/api/users/${bob.id}/posts`)).items).toEqual([]);
        expect((await getPage<Post>(client, '/api/search/posts?q=gardening')).items).toEqual([]);
        expect((await getPage<Post>(client, `/api/posts/${parent.id}/replies`)).items).toEqual([]);
      }
      expect((await clients.alice.get('/api/notifications/unread')).json()).toMatchObject({ count: 0 });
      expect(seen.filter((e) => e.type === 'post.created')).toEqual([]);

      const dueAt = await makeDue(scheduled.id);
      expect(await ctx.app.services.timedJobs.runDue()).toBe(1);
      const created = seen.find((e) => e.type === 'post.created') as Extract<DomainEvent, { type: 'post.created' }>;
      expect(created).toBeDefined();
      const published = (await clients.alice.get(`/api/posts/${created.postId}`)).json<Post>();
      expect(published).toMatchObject({
        text: 'Tomorrow: #gardening with @alice',
        parentId: parent.id,
        visibility: 'followers',
        quotePolicy: 'followers',
        author: { username: 'bob' },
        quote: { state: 'shown', post: { id: quoted.id } },
        media: [{ id: image.id, alt: 'a rake in the sun' }],
      });
      // Published at its time, not before (the post's time is the job's transaction's).
      expect(new Date(published.createdAt).getTime()).toBeGreaterThanOrEqual(dueAt.getTime());
      // Replying and mentioning notified Alice; followers see it; the scheduled post and its job are gone.
      expect((await clients.alice.get('/api/notifications/unread')).json().count).toBeGreaterThan(0);
      expect((await getPage<Post>(clients.carol, '/api/timeline/following')).items.map((p) => p.id)).toContain(
        created.postId.toString(),
      );
      expect((await clients.bob.get(`/api/scheduled-posts/${scheduled.id}`)).statusCode).toBe(404);
      expect((await clients.bob.get('/api/scheduled-posts')).json().items).toEqual([]);
      expect(await ctx.app.services.timedJobs.dueAt(PUBLISH_JOB, scheduled.id)).toBeNull();
      // Once: running again publishes nothing more.
      expect(await ctx.app.services.timedJobs.runDue()).toBe(0);
      expect((await postRows()).length).toBe(before.length + 1);
    } finally {
      unsubscribe();
    }
  });

  it('refuses what it cannot honour, naming the field, and stores nothing', async () => {
    const { clients } = await seedTrio(ctx);
    const hidden = (
      await clients.bob.post('/api/posts', { text: 'followers only', visibility: 'followers' })
    ).json<Post>();
    const unquotable = (
      await clients.carol.post('/api/posts', { text: 'no quotes', quotePolicy: 'nobody' })
    ).json<Post>();
    const narrow = (
      await clients.alice.post('/api/posts', { text: 'mine, narrow', visibility: 'followers' })
    ).json<Post>();
    const bobsUpload = (await clients.bob.upload(imageUpload(await photo(20, 20)))).json<{ id: string }>();
    const before = await fingerprint(ctx.db);
    const cases: [Record<string, unknown>, number, string, string | null][] = [
      [{ post: { text: 'soon' }, scheduledAt: inMinutes(1) }, 400, 'INVALID_INPUT', 'scheduledAt'],
      [{ post: { text: 'past' }, scheduledAt: inMinutes(-60) }, 400, 'INVALID_INPUT', 'scheduledAt'],
      [{ post: { text: 'far' }, scheduledAt: inMinutes(60 * 24 * 400) }, 400, 'INVALID_INPUT', 'scheduledAt'],
      [{ post: { text: 'when?' }, scheduledAt: 'tomorrow' }, 400, 'INVALID_INPUT', 'scheduledAt'],
      [{ post: { text: 'when?' }, scheduledAt: '2030-13-01T10:00:00Z' }, 400, 'INVALID_INPUT', 'scheduledAt'],
      [{ post: { text: 'which zone?' }, scheduledAt: '2030-01-01T10:00:00' }, 400, 'INVALID_INPUT', 'scheduledAt'],
      [{ post: { text: 'no time' } }, 400, 'INVALID_INPUT', 'scheduledAt'],
      [{ post: { text: '' }, scheduledAt: inMinutes(60) }, 400, 'INVALID_INPUT', 'post.text'],
      [{ post: { text: 'hi', parentId: hidden.id }, scheduledAt: inMinutes(60) }, 404, 'NOT_FOUND', null],
      [{ post: { text: 'hi', quoteOfId: unquotable.id }, scheduledAt: inMinutes(60) }, 403, 'FORBIDDEN', null],
      [
        { post: { text: 'hi', media: [{ id: bobsUpload.id }] }, scheduledAt: inMinutes(60) },
        400,
        'INVALID_INPUT',
        'post.media',
      ],
      [
        { post: { text: 'hi', parentId: narrow.id, visibility: 'public' }, scheduledAt: inMinutes(60) },
        400,
        'INVALID_INPUT',
        'post.visibility',
      ],
      [
        { post: { text: 'hi', visibility: 'direct', quotePolicy: 'anyone' }, scheduledAt: inMinutes(60) },
        400,
        'INVALID_INPUT',
        'post.quotePolicy',
      ],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await clients.alice.post('/api/scheduled-posts', body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(status);
      expect(res.json().code).toBe(code);
      if (field) expect(res.json().field, JSON.stringify(body)).toBe(field);
      expect(res.json().message.length).toBeGreaterThan(10);
    }
    expect(
      (await clients.visitor.post('/api/scheduled-posts', { post: { text: 'x' }, scheduledAt: inMinutes(60) }))
        .statusCode,
    ).toBe(401);
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it("someone else's scheduled post is not found: read, edit, cancel", async () => {
    const { clients } = await seedTrio(ctx);
    const mine = await schedule(clients.alice, { text: 'mine' });
    const before = await fingerprint(ctx.db);
    for (const res of [
      await clients.bob.get(`/api/scheduled-posts/${mine.id}`),
      await clients.bob.patch(`/api/scheduled-posts/${mine.id}`, { scheduledAt: inMinutes(90) }),
      await clients.bob.delete(`/api/scheduled-posts/${mine.id}`),
      await clients.alice.get('/api/scheduled-posts/123456'),
      await clients.alice.delete('/api/scheduled-posts/x1'),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await clients.bob.get('/api/scheduled-posts')).json().items).toEqual([]);
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it('editing reschedules (the job moves), with the same checks; cancelling removes it and its job', async () => {
    const { clients } = await seedTrio(ctx);
    const first = await schedule(clients.alice, { text: 'first words' }, inMinutes(60));
    const second = await schedule(clients.alice, { text: 'sooner' }, inMinutes(30));
    // Soonest first.
    expect((await clients.alice.get('/api/scheduled-posts')).json().items.map((s: ScheduledPost) => s.id)).toEqual([
      second.id,
      first.id,
    ]);

    const later = inMinutes(120);
    const edited = await clients.alice.patch(`/api/scheduled-posts/${first.id}`, {
      post: { text: 'better words', visibility: 'unlisted' },
      scheduledAt: later,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ scheduledAt: later, post: { text: 'better words', visibility: 'unlisted' } });
    expect(await ctx.app.services.timedJobs.dueAt(PUBLISH_JOB, first.id)).toEqual(new Date(later));
    // The text alone: the time stays.
    const retexted = await clients.alice.patch(`/api/scheduled-posts/${first.id}`, { post: { text: 'best words' } });
    expect(retexted.json()).toMatchObject({ scheduledAt: later, post: { text: 'best words' } });

    const before = await fingerprint(ctx.db);
    for (const [body, field] of [
      [{}, ''],
      [{ scheduledAt: inMinutes(2) }, 'scheduledAt'],
      [{ post: { text: '' } }, 'post.text'],
      [{ post: { text: 'x', media: [{ id: '424242' }] } }, 'post.media'],
    ] as const) {
      const res = await clients.alice.patch(`/api/scheduled-posts/${first.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('INVALID_INPUT');
      if (field) expect(res.json().field).toBe(field);
    }
    expect(await fingerprint(ctx.db)).toEqual(before);

    expect((await clients.alice.delete(`/api/scheduled-posts/${second.id}`)).statusCode).toBe(204);
    expect(await ctx.app.services.timedJobs.dueAt(PUBLISH_JOB, second.id)).toBeNull();
    expect((await clients.alice.get(`/api/scheduled-posts/${second.id}`)).statusCode).toBe(404);
    expect((await clients.alice.delete(`/api/scheduled-posts/${second.id}`)).statusCode).toBe(404);

    await makeDue(first.id);
    expect(await ctx.app.services.timedJobs.runDue()).toBe(1);
    expect((await postRows()).map((p) => p.text)).toEqual(['best words']);
  });

  it('holds its images from the uploads’ sweep until published; cancelling lets them go', async () => {
    const { clients } = await seedTrio(ctx);
    const a = (await clients.alice.upload(imageUpload(await photo(30, 30)))).json<{ id: string }>();
    const b = (await clients.alice.upload(imageUpload(await photo(31, 31)))).json<{ id: string }>();
    const kept = await schedule(clients.alice, { text: 'with a', media: [{ id: a.id }] });
    const dropped = await schedule(clients.alice, { text: 'with b', media: [{ id: b.id }] });
    await ctx.db.db.execute(sql`update media_attachments set created_at = now() - interval '2 days'`);
    expect(await ctx.app.services.media.expireUploads()).toBe(0);
    await clients.alice.delete(`/api/scheduled-posts/${dropped.id}`);
    expect(await ctx.app.services.media.expireUploads()).toBe(1);
    await makeDue(kept.id);
    await ctx.app.services.timedJobs.runDue();
    const [post] = await postRows();
    expect((await clients.alice.get(`/api/posts/${post!.id}`)).json().media).toMatchObject([{ id: a.id }]);
  });

  it('a publication refused at its time is kept with the reason; editing it schedules it again', async () => {
    const { clients } = await seedTrio(ctx);
    const parent = await createPost(clients.bob, 'ask me anything');
    const reply = await schedule(clients.alice, { text: 'a late answer', parentId: parent.id });
    const upload = (await clients.alice.upload(imageUpload(await photo(30, 30)))).json<{ id: string }>();
    const pictured = await schedule(clients.alice, { text: 'a picture', media: [{ id: upload.id }] });
    // Meanwhile the parent is deleted, and the image goes into another post.
    expect((await clients.bob.delete(`/api/posts/${parent.id}`)).statusCode).toBe(204);
    expect((await clients.alice.post('/api/posts', { text: 'now', media: [{ id: upload.id }] })).statusCode).toBe(201);
    const postsBefore = await postRows();

    await makeDue(reply.id);
    await makeDue(pictured.id);
    expect(await ctx.app.services.timedJobs.runDue()).toBe(2);
    expect(await postRows()).toEqual(postsBefore);
    const listed = (await clients.alice.get('/api/scheduled-posts')).json().items as ScheduledPost[];
    expect(listed.find((s) => s.id === reply.id)?.failure).toMatchObject({ code: 'NOT_FOUND' });
    expect(listed.find((s) => s.id === pictured.id)?.failure).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/upload/),
    });
    // Done with: no job left to retry it.
    expect(await ctx.app.services.timedJobs.dueAt(PUBLISH_JOB, reply.id)).toBeNull();

    // Its time has passed: a text-only edit must choose a new time; the reply's parent is still gone.
    const stale = await clients.alice.patch(`/api/scheduled-posts/${reply.id}`, { post: { text: 'x' } });
    expect(stale.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'scheduledAt' });
    const stillGone = await clients.alice.patch(`/api/scheduled-posts/${reply.id}`, { scheduledAt: inMinutes(10) });
    expect(stillGone.statusCode).toBe(404);
    const fixed = await clients.alice.patch(`/api/scheduled-posts/${reply.id}`, {
      post: { text: 'an answer to nobody in particular' },
      scheduledAt: inMinutes(10),
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().failure).toBeNull();
    await makeDue(reply.id);
    expect(await ctx.app.services.timedJobs.runDue()).toBe(1);
    expect((await postRows()).map((p) => p.text)).toContain('an answer to nobody in particular');
  });

  it('a suspended author’s scheduled post is not published', async () => {
    const { alice, clients } = await seedTrio(ctx);
    const scheduled = await schedule(clients.alice, { text: 'from the shadows' });
    await ctx.db.db.execute(sql`update users set suspended_at = now() where id = ${alice.id}`);
    await makeDue(scheduled.id);
    expect(await ctx.app.services.timedJobs.runDue()).toBe(1);
    expect(await postRows()).toEqual([]);
    const [row] = rowsOf<{ failure: { code: string } }>(
      await ctx.db.db.execute(sql`select failure from scheduled_posts where id = ${scheduled.id}`),
    );
    expect(row?.failure.code).toBe('FORBIDDEN');
  });

  it('is published exactly once when two processes look at once', async () => {
    const { clients } = await seedTrio(ctx);
    const ids = [];
    for (const text of ['one', 'two', 'three', 'four']) ids.push((await schedule(clients.alice, { text })).id);
    for (const id of ids) await makeDue(id);
    const other = new TimedJobs(ctx.db.db, ctx.app.services.events, ctx.app.log, { pollMs: 0 });
    other.register(PUBLISH_JOB, (tx, outbox, payload) =>
      ctx.app.services.scheduledPosts.publishWithin(tx, outbox, payload),
    );
    const [a, b] = await Promise.all([ctx.app.services.timedJobs.runDue(), other.runDue()]);
    expect(a + b).toBe(4);
    expect((await postRows()).map((p) => p.text).sort()).toEqual(['four', 'one', 'three', 'two']);
  });

  it('survives a restart: another app on the same database publishes it', async () => {
    const { clients } = await seedTrio(ctx);
    const scheduled = await schedule(clients.alice, { text: 'after the restart' });
    await makeDue(scheduled.id);
    const next = await buildApp(ctx.config, { db: ctx.db });
    try {
      await next.ready();
      expect(await next.services.timedJobs.runDue()).toBe(1);
    } finally {
      await next.close();
    }
    expect((await postRows()).map((p) => p.text)).toEqual(['after the restart']);
  });

  it(`refuses more than ${UNSENT_LIMITS.scheduled} waiting or ${UNSENT_LIMITS.scheduledPerDay} on one day`, async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const day = new Date(Date.now() + 3 * 86_400_000);
    day.setUTCHours(12, 0, 0, 0);
    await ctx.db.db.execute(
      sql`insert into scheduled_posts (author_id, body, scheduled_at)
          select ${alice.id}, '{"text":"x"}'::jsonb, ${day.toISOString()}::timestamptz from generate_series(1, ${UNSENT_LIMITS.scheduledPerDay})`,
    );
    const sameDay = new Date(day.getTime() + 3_600_000).toISOString();
    const full = await clients.alice.post('/api/scheduled-posts', { post: { text: 'one more' }, scheduledAt: sameDay });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ code: 'LIMIT_REACHED', message: expect.stringMatching(/one day/) });
    const nextDay = new Date(day.getTime() + 86_400_000).toISOString();
    expect(
      (await clients.alice.post('/api/scheduled-posts', { post: { text: 'ok' }, scheduledAt: nextDay })).statusCode,
    ).toBe(201);

    await ctx.db.db.execute(
      sql`insert into scheduled_posts (author_id, body, scheduled_at)
          select ${bob.id}, '{"text":"x"}'::jsonb, now() + make_interval(days => 2 + g) from generate_series(1, ${UNSENT_LIMITS.scheduled}) g`,
    );
    const many = await clients.bob.post('/api/scheduled-posts', {
      post: { text: 'too many' },
      scheduledAt: inMinutes(60),
    });
    expect(many.statusCode).toBe(409);
    expect(many.json()).toMatchObject({ code: 'LIMIT_REACHED', message: expect.stringMatching(/300/) });
  });
});
