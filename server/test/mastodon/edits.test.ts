/**
 * Content warnings and edits in the Mastodon API (issue 28): spoiler_text and sensitive on create and on
 * the Status; PUT /api/v1/statuses/:id (Mastodon's whole-status edit, media_attributes for alt text),
 * its history (StatusEdit, oldest first) and source (StatusSource); `update` notifications; the
 * preference reading:expand:spoilers. Every answer is checked against the OpenAPI description.
 */
import { describe, expect, it } from 'vitest';
import { authorizeApp, inject, seedTrio, useTestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/multipart.ts';
import { photo } from '../media/fixtures.ts';
import { fingerprint } from '../security/support.ts';
import { expectValid, templateOf } from './openapi.ts';

type Json = Record<string, unknown> & { id: string };

describe('Mastodon: content warnings and edits', () => {
  const ctx = useTestApp();

  async function as(userId: number) {
    const { token } = await authorizeApp(ctx.app, userId, 'read write follow');
    return Object.assign(
      async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) => {
        const res = await inject(ctx.app, {
          method,
          url,
          headers: { authorization: `Bearer ${token}` },
          ...(payload ? { payload } : {}),
        });
        const body = res.body === '' ? null : res.json();
        expectValid(method, templateOf(url.split('?')[0] ?? url), res.statusCode, body);
        return { status: res.statusCode, body };
      },
      { token },
    );
  }

  async function uploadAs(token: string, width: number) {
    const form = multipart([{ name: 'file', file: await photo(width, 30) }]);
    const res = await inject(ctx.app, {
      method: 'POST',
      url: '/api/v2/media',
      headers: { authorization: `Bearer ${token}`, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }>().id;
  }

  it('writes spoiler_text and sensitive, edits the whole status, and lists its versions and source', async () => {
    const { alice, bob } = await seedTrio(ctx);
    const call = await as(alice.id);
    const created = await call('POST', '/api/v1/statuses', { status: 'It was the butler', spoiler_text: 'Plot' });
    expect(created.status).toBe(200);
    const status = created.body as Json;
    expect(status).toMatchObject({ spoiler_text: 'Plot', sensitive: true, edited_at: null });

    const [first, second] = [await uploadAs(call.token, 41), await uploadAs(call.token, 42)];
    const edited = await call('PUT', `/api/v1/statuses/${status.id}`, {
      status: 'It was the gardener',
      spoiler_text: 'Plot, corrected',
      media_ids: [first, second],
      media_attributes: [{ id: second, description: 'The garden', focus: '0.0,0.0' }],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({
      id: status.id,
      content: '<p>It was the gardener</p>',
      spoiler_text: 'Plot, corrected',
      sensitive: true,
      media_attachments: [
        { id: first, description: null },
        { id: second, description: 'The garden' },
      ],
    });
    expect((edited.body as Json).edited_at).not.toBeNull();

    // Mastodon's PUT is the whole status: what is left out is gone (the warning, one picture).
    const again = await call('PUT', `/api/v1/statuses/${status.id}`, {
      status: 'It was the gardener',
      media_ids: [second],
    });
    expect(again.body).toMatchObject({ spoiler_text: '', sensitive: false, media_attachments: [{ id: second }] });

    const history = await call('GET', `/api/v1/statuses/${status.id}/history`);
    expect(history.status).toBe(200);
    const versions = history.body as Json[];
    expect(
      versions.map((v) => [v.content, v.spoiler_text, v.sensitive, (v.media_attachments as unknown[]).length]),
    ).toEqual([
      ['<p>It was the butler</p>', 'Plot', true, 0],
      ['<p>It was the gardener</p>', 'Plot, corrected', true, 2],
      ['<p>It was the gardener</p>', '', false, 1],
    ]);
    // The removed picture keeps its place in the version that had it; its file is gone (url null).
    expect(((versions[1]?.media_attachments ?? []) as Json[]).map((m) => [m.id, m.url === null])).toEqual([
      [first, true],
      [second, false],
    ]);
    expect(versions[0]).toMatchObject({ created_at: status.created_at, account: { id: String(alice.id) } });
    // Anyone who sees it reads the history, a visitor too.
    const visitor = await inject(ctx.app, { method: 'GET', url: `/api/v1/statuses/${status.id}/history` });
    expect(visitor.statusCode).toBe(200);

    const source = await call('GET', `/api/v1/statuses/${status.id}/source`);
    expect(source.body).toEqual({ id: status.id, text: 'It was the gardener', spoiler_text: '' });
    const bobs = await (await as(bob.id))('GET', `/api/v1/statuses/${status.id}/source`);
    expect(bobs.status).toBe(200);
  });

  it('refuses, by name and writing nothing: a poll with pictures or past its limits, a change of quote policy, an off-centre focus, attributes of other media, a long warning; 403 for another’s status, 404 for an unseen one', async () => {
    const { alice, bob } = await seedTrio(ctx);
    const call = await as(alice.id);
    const status = (await call('POST', '/api/v1/statuses', { status: 'Steady' })).body as Json;
    const picture = await uploadAs(call.token, 43);
    const before = await fingerprint(ctx.db, ctx.config.mediaDir);
    const refused: [object, string][] = [
      [{ status: 'which?', poll: { options: ['a', 'b'], expires_in: 3600 }, media_ids: [picture] }, 'poll'],
      [{ status: 'which?', poll: { options: ['a'], expires_in: 3600 } }, 'poll[options]'],
      [{ status: 'which?', poll: { options: ['a', 'b'], expires_in: 60 } }, 'poll[expires_in]'],
      [{ status: 'which?', poll: { options: ['a', 'b'] } }, 'poll[expires_in]'],
      [{ status: 'Steady', quote_approval_policy: 'nobody' }, 'quote_approval_policy'],
      [
        { status: 'Steady', media_ids: [picture], media_attributes: [{ id: picture, focus: '0.5,-0.2' }] },
        'media_attributes',
      ],
      [{ status: 'Steady', media_attributes: [{ id: picture, description: 'x' }] }, 'media_attributes'],
      [{ status: 'Steady', spoiler_text: 'x'.repeat(101) }, 'spoiler_text'],
      [{ status: 'x'.repeat(281) }, 'status'],
      [{ status: '' }, 'status'],
      [{ status: 'Steady', media_ids: ['999999'] }, 'media_ids'],
    ];
    for (const [body, field] of refused) {
      const res = await call('PUT', `/api/v1/statuses/${status.id}`, body);
      expect([field, res.status]).toEqual([field, 422]);
      expect((res.body as { error: string }).error).toContain(field);
    }
    expect(await fingerprint(ctx.db, ctx.config.mediaDir)).toEqual(before);
    const bobs = await as(bob.id);
    expect((await bobs('PUT', `/api/v1/statuses/${status.id}`, { status: 'mine now' })).status).toBe(403);
    const hidden = (await call('POST', '/api/v1/statuses', { status: 'inner circle', visibility: 'private' }))
      .body as Json;
    expect((await bobs('PUT', `/api/v1/statuses/${hidden.id}`, { status: 'x' })).status).toBe(404);
    expect((await bobs('GET', `/api/v1/statuses/${hidden.id}/history`)).status).toBe(404);
    expect((await bobs('GET', `/api/v1/statuses/${hidden.id}/source`)).status).toBe(404);
  });

  it('edits a status’s poll: other options reset its votes and tell the voters; left out, it goes; history keeps its options', async () => {
    const { alice, bob } = await seedTrio(ctx);
    const call = await as(alice.id);
    const bobs = await as(bob.id);
    const created = await call('POST', '/api/v1/statuses', {
      status: 'Which bird?',
      poll: { options: ['Wren', 'Robin'], expires_in: 3600 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const status = created.body as Json;
    expect((await bobs('POST', `/api/v1/polls/${status.id}/votes`, { choices: [0] })).status).toBe(200);

    // The same poll sent with new words (as apps send the whole status): the votes stay.
    const worded = await call('PUT', `/api/v1/statuses/${status.id}`, {
      status: 'Which bird is it?',
      poll: { options: ['Wren', 'Robin'], expires_in: 3600 },
    });
    expect(worded.status, JSON.stringify(worded.body)).toBe(200);
    expect(worded.body).toMatchObject({ poll: { votes_count: 1, voters_count: 1 } });
    expect((await bobs('GET', `/api/v1/polls/${status.id}`)).body).toMatchObject({ voted: true, own_votes: [0] });

    // Other options, as a form sends them: the votes go, and the voter is told.
    const changed = await call('PUT', `/api/v1/statuses/${status.id}`, {
      status: 'Which bird is it?',
      poll: { options: ['Wren', 'Robin', 'Swift'], expires_in: '7200', multiple: 'true' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      poll: {
        multiple: true,
        votes_count: 0,
        voters_count: 0,
        options: [{ title: 'Wren' }, { title: 'Robin' }, { title: 'Swift' }],
      },
    });
    expect((await bobs('GET', `/api/v1/polls/${status.id}`)).body).toMatchObject({ voted: false, own_votes: [] });
    const told = ((await bobs('GET', '/api/v1/notifications')).body as Json[]).filter((n) => n.type === 'update');
    expect(told).toMatchObject([{ account: { id: String(alice.id) }, status: { id: status.id } }]);

    // Mastodon's PUT is the whole status: a poll left out is removed.
    const gone = await call('PUT', `/api/v1/statuses/${status.id}`, { status: 'It was a wren' });
    expect(gone.body).toMatchObject({ poll: null });
    expect((await bobs('GET', `/api/v1/polls/${status.id}`)).status).toBe(404);

    const history = (await call('GET', `/api/v1/statuses/${status.id}/history`)).body as Json[];
    expect(history.map((v) => [v.content, v.poll])).toEqual([
      ['<p>Which bird?</p>', { options: [{ title: 'Wren' }, { title: 'Robin' }] }],
      ['<p>Which bird is it?</p>', { options: [{ title: 'Wren' }, { title: 'Robin' }] }],
      ['<p>Which bird is it?</p>', { options: [{ title: 'Wren' }, { title: 'Robin' }, { title: 'Swift' }] }],
      ['<p>It was a wren</p>', null],
    ]);
  });

  it('schedules a status behind a warning: the ScheduledStatus says it (null without one)', async () => {
    const { alice } = await seedTrio(ctx);
    const call = await as(alice.id);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await call('POST', '/api/v1/statuses', {
      status: 'It was the butler',
      spoiler_text: 'Plot',
      scheduled_at: at,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect(scheduled.body).toMatchObject({
      params: { text: 'It was the butler', spoiler_text: 'Plot', sensitive: true },
    });
    const plain = await call('POST', '/api/v1/statuses', { status: 'Later', scheduled_at: at });
    expect(plain.body).toMatchObject({ params: { spoiler_text: null, sensitive: null } });
  });

  it('tells a reblogger with an `update` notification, and reading:expand:spoilers follows the setting', async () => {
    const { alice, bob, clients } = await seedTrio(ctx);
    const call = await as(alice.id);
    const bobs = await as(bob.id);
    const status = (await call('POST', '/api/v1/statuses', { status: 'Share me' })).body as Json;
    expect((await bobs('POST', `/api/v1/statuses/${status.id}/reblog`)).status).toBe(200);
    expect((await call('PUT', `/api/v1/statuses/${status.id}`, { status: 'Share me, edited' })).status).toBe(200);
    const notifications = (await bobs('GET', '/api/v1/notifications')).body as Json[];
    expect(notifications.filter((n) => n.type === 'update')).toMatchObject([
      { account: { id: String(alice.id) }, status: { id: status.id, content: '<p>Share me, edited</p>' } },
    ]);

    expect((await bobs('GET', '/api/v1/preferences')).body).toMatchObject({ 'reading:expand:spoilers': false });
    expect((await clients.bob.patch('/api/edit', { expandSpoilers: true })).statusCode).toBe(200);
    expect((await bobs('GET', '/api/v1/preferences')).body).toMatchObject({ 'reading:expand:spoilers': true });
    expect((await clients.bob.get('/api/current')).json()).toMatchObject({ expandSpoilers: true });
  });
});
