/**
 * Mastodon's scheduled statuses over the scheduled posts service: `scheduled_at` on POST
 * /api/v1/statuses answers a ScheduledStatus (params in the names the request used, its media), the
 * list paged by id with a Link header, one, a new time by PUT, cancel by DELETE; someone else's is 404
 * as absent; a time too soon is 422 naming scheduled_at. Every answer is validated against the
 * OpenAPI description (mastodonCall).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PUBLISH_JOB } from '../../src/modules/drafts/scheduled.service.ts';
import { authorizeApp, seedTrio, useTestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/multipart.ts';
import { createPost } from '../helpers/social.ts';
import { photo } from '../media/fixtures.ts';
import { fingerprint } from '../security/support.ts';
import { mastodonCall } from './openapi.ts';

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('Mastodon scheduled statuses', () => {
  const ctx = useTestApp();

  async function setup() {
    const trio = await seedTrio(ctx);
    const { token } = await authorizeApp(ctx.app, trio.alice.id, 'read write');
    const { token: bobToken } = await authorizeApp(ctx.app, trio.bob.id, 'read write');
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as = token) =>
      mastodonCall(ctx.app, {
        method,
        url,
        headers: { authorization: `Bearer ${as}` },
        ...(payload !== undefined ? { payload } : {}),
      });
    return { ...trio, call, token, bobToken };
  }

  it('schedules a status with its media and reply, shows, reschedules and cancels it', async () => {
    const { call, clients, token, bobToken } = await setup();
    const parent = await createPost(clients.bob, 'What are you reading?');
    const form = multipart([
      { name: 'description', value: 'a book cover' },
      { name: 'file', file: await photo(40, 30) },
    ]);
    const media = await mastodonCall(ctx.app, {
      method: 'POST',
      url: '/api/v2/media',
      headers: { authorization: `Bearer ${token}`, ...form.headers },
      payload: form.payload,
    });
    expect(media.statusCode, media.body).toBe(200);
    const at = inMinutes(60);
    const created = await call('POST', '/api/v1/statuses', {
      status: 'Reading this, tomorrow morning',
      in_reply_to_id: parent.id,
      media_ids: [media.json().id],
      visibility: 'private',
      scheduled_at: at,
    });
    expect(created.statusCode, created.body).toBe(200);
    const scheduled = created.json();
    expect(scheduled).toMatchObject({
      scheduled_at: at,
      params: {
        text: 'Reading this, tomorrow morning',
        visibility: 'private',
        in_reply_to_id: Number(parent.id),
        media_ids: [media.json().id],
        scheduled_at: null,
      },
      media_attachments: [{ id: media.json().id, description: 'a book cover', type: 'image' }],
    });
    // No status was posted.
    expect((await call('GET', `/api/v1/statuses/${parent.id}/context`)).json().descendants).toEqual([]);

    expect((await call('GET', `/api/v1/scheduled_statuses/${scheduled.id}`)).json()).toEqual(scheduled);
    const later = inMinutes(180);
    const moved = await call('PUT', `/api/v1/scheduled_statuses/${scheduled.id}`, { scheduled_at: later });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: scheduled.id, scheduled_at: later });
    expect(await ctx.app.services.timedJobs.dueAt(PUBLISH_JOB, scheduled.id)).toEqual(new Date(later));

    // Someone else's is not found, whatever is asked.
    const before = await fingerprint(ctx.db);
    for (const [method, payload] of [['GET'], ['PUT', { scheduled_at: inMinutes(90) }], ['DELETE']] as const) {
      const res = await call(method, `/api/v1/scheduled_statuses/${scheduled.id}`, payload, bobToken);
      expect([method, res.statusCode]).toEqual([method, 404]);
    }
    // Too soon, or not a time: refused by name, nothing changed.
    for (const scheduledAt of [inMinutes(2), 'next week']) {
      const res = await call('PUT', `/api/v1/scheduled_statuses/${scheduled.id}`, { scheduled_at: scheduledAt });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toContain('scheduled_at');
    }
    expect(await fingerprint(ctx.db)).toEqual(before);

    const cancelled = await call('DELETE', `/api/v1/scheduled_statuses/${scheduled.id}`);
    expect([cancelled.statusCode, cancelled.json()]).toEqual([200, {}]);
    expect((await call('GET', `/api/v1/scheduled_statuses/${scheduled.id}`)).statusCode).toBe(404);
    expect(await ctx.app.services.timedJobs.dueAt(PUBLISH_JOB, scheduled.id)).toBeNull();
  });

  it('lists them newest first, paged by id with a Link header', async () => {
    const { call } = await setup();
    const ids: string[] = [];
    for (const [i, text] of ['one', 'two', 'three'].entries()) {
      const res = await call('POST', '/api/v1/statuses', { status: text, scheduled_at: inMinutes(30 + i) });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().id);
    }
    const first = await call('GET', '/api/v1/scheduled_statuses?limit=2');
    expect(first.json().map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    expect(first.headers.link).toContain(`max_id=${ids[1]}`);
    const next = await call('GET', `/api/v1/scheduled_statuses?limit=2&max_id=${ids[1]}`);
    expect(next.json().map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    const newer = await call('GET', `/api/v1/scheduled_statuses?since_id=${ids[0]}`);
    expect(newer.json().map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
  });

  it('publishes it at its time as the status it describes', async () => {
    const { alice, call } = await setup();
    const res = await call('POST', '/api/v1/statuses', {
      status: 'hello from the past',
      visibility: 'unlisted',
      scheduled_at: inMinutes(30),
    });
    const id = res.json().id as string;
    await ctx.db.db.execute(sql`update scheduled_posts set scheduled_at = now() - interval '1 second'`);
    await ctx.db.db.execute(sql`update timed_jobs set run_at = now() - interval '1 second'`);
    expect(await ctx.app.services.timedJobs.runDue()).toBe(1);
    expect((await call('GET', '/api/v1/scheduled_statuses')).json()).toEqual([]);
    expect((await call('GET', `/api/v1/scheduled_statuses/${id}`)).statusCode).toBe(404);
    const [status] = (await call('GET', `/api/v1/accounts/${alice.id}/statuses`)).json();
    expect(status).toMatchObject({ content: expect.stringContaining('hello from the past'), visibility: 'unlisted' });
  });

  it('schedules a poll: its params say it, and at its time the status has it, its end scheduled', async () => {
    const { alice, call } = await setup();
    const res = await call('POST', '/api/v1/statuses', {
      status: 'Tea or coffee, tomorrow?',
      poll: { options: ['Tea', 'Coffee'], expires_in: 3600, multiple: true },
      scheduled_at: inMinutes(30),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().params.poll).toEqual({
      options: ['Tea', 'Coffee'],
      expires_in: 3600,
      multiple: true,
      hide_totals: false,
    });
    await ctx.db.db.execute(sql`update scheduled_posts set scheduled_at = now() - interval '1 second'`);
    await ctx.db.db.execute(sql`update timed_jobs set run_at = now() - interval '1 second'`);
    expect(await ctx.app.services.timedJobs.runDue()).toBe(1);
    const [status] = (await call('GET', `/api/v1/accounts/${alice.id}/statuses`)).json();
    expect(status.poll).toMatchObject({
      multiple: true,
      options: [{ title: 'Tea' }, { title: 'Coffee' }],
      expired: false,
    });
    // Its end is a timed job an hour after publication.
    expect(await ctx.app.services.timedJobs.dueAt('poll.end', String(status.id))).not.toBeNull();
  });
});
