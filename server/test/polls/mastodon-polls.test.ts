/**
 * Polls in the Mastodon API: a status written with `poll` (JSON, or a form's `poll[options][]`), the
 * Poll entity on statuses and at GET /api/v1/polls/:id, votes by `choices[]`, the refusals as
 * Mastodon's 422 with the reason (a limit naming its `poll[…]` field, a second vote, an ended poll,
 * an option that is not there), a poll the viewer may not see as 404, and the instance's limits.
 * Every answer is validated against the OpenAPI description (mastodonCall).
 */
import { POLL_LIMITS } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { executeRows } from '../../src/db/client.ts';
import { authorizeApp, seedTrio, useTestApp } from '../helpers/app.ts';
import { follow } from '../helpers/social.ts';
import { mastodonCall } from '../mastodon/openapi.ts';

describe('Mastodon polls', () => {
  const ctx = useTestApp();

  async function setup() {
    const trio = await seedTrio(ctx);
    const tokens = {
      alice: (await authorizeApp(ctx.app, trio.alice.id, 'read write')).token,
      bob: (await authorizeApp(ctx.app, trio.bob.id, 'read write')).token,
      carol: (await authorizeApp(ctx.app, trio.carol.id, 'read write')).token,
    };
    const call = (method: 'GET' | 'POST', url: string, payload?: object | string, as: string | null = tokens.alice) =>
      mastodonCall(ctx.app, {
        method,
        url,
        headers: {
          ...(as ? { authorization: `Bearer ${as}` } : {}),
          ...(typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(payload !== undefined ? { payload } : {}),
      });
    return { ...trio, tokens, call };
  }

  it('writes a status with a poll (JSON or form) and shows it as the Poll entity', async () => {
    const { call, tokens } = await setup();
    const json = await call('POST', '/api/v1/statuses', {
      status: 'Which bird?',
      poll: { options: ['Wren', 'Robin'], expires_in: 3600, multiple: true, hide_totals: false },
    });
    expect(json.statusCode, json.body).toBe(200);
    const status = json.json();
    expect(status.poll).toEqual({
      id: status.id,
      expires_at: expect.any(String),
      expired: false,
      multiple: true,
      votes_count: 0,
      voters_count: 0,
      options: [
        { title: 'Wren', votes_count: 0 },
        { title: 'Robin', votes_count: 0 },
      ],
      emojis: [],
      voted: false,
      own_votes: [],
    });

    const form = await call(
      'POST',
      '/api/v1/statuses',
      'status=Tea%3F&poll[options][]=Yes&poll[options][]=No&poll[options][]=Later&poll[expires_in]=300&poll[hide_totals]=true',
    );
    expect(form.statusCode, form.body).toBe(200);
    const formPoll = form.json().poll;
    expect(formPoll).toMatchObject({
      multiple: false,
      options: [{ title: 'Yes' }, { title: 'No' }, { title: 'Later' }],
    });

    // Read back by id, by another person: the counts hidden from them until it ends.
    const read = await call('GET', `/api/v1/polls/${formPoll.id}`, undefined, tokens.bob);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().options).toEqual([
      { title: 'Yes', votes_count: null },
      { title: 'No', votes_count: null },
      { title: 'Later', votes_count: null },
    ]);
    // Visitors read public polls too.
    expect((await call('GET', `/api/v1/polls/${status.id}`, undefined, null)).statusCode).toBe(200);
  });

  it('votes by choices[] (JSON or form) and answers the Poll with the voter’s choices', async () => {
    const { call, tokens } = await setup();
    const status = (
      await call('POST', '/api/v1/statuses', {
        status: 'Pick',
        poll: { options: ['a', 'b', 'c'], expires_in: 600, multiple: true },
      })
    ).json();
    const bob = await call('POST', `/api/v1/polls/${status.id}/votes`, 'choices[]=0&choices[]=2', tokens.bob);
    expect(bob.statusCode, bob.body).toBe(200);
    expect(bob.json()).toMatchObject({
      id: status.id,
      votes_count: 2,
      voters_count: 1,
      voted: true,
      own_votes: [0, 2],
      options: [{ votes_count: 1 }, { votes_count: 0 }, { votes_count: 1 }],
    });
    const carol = await call('POST', `/api/v1/polls/${status.id}/votes`, { choices: ['1'] }, tokens.carol);
    expect(carol.statusCode, carol.body).toBe(200);
    expect(carol.json()).toMatchObject({ voters_count: 2, own_votes: [1] });
    // The status carries the same Poll.
    const again = await call('GET', `/api/v1/statuses/${status.id}`, undefined, tokens.carol);
    expect(again.json().poll).toMatchObject({ voters_count: 2, voted: true, own_votes: [1] });
  });

  it('refuses what it cannot take as Mastodon does: 422 with the reason, naming the poll field', async () => {
    const { call, tokens } = await setup();
    const refusedStatuses: [object | string, string][] = [
      [{ status: 'x', poll: { options: ['only'], expires_in: 3600 } }, 'poll[options]'],
      [{ status: 'x', poll: { options: ['a', 'b', 'c', 'd', 'e'], expires_in: 3600 } }, 'poll[options]'],
      [{ status: 'x', poll: { options: ['a', 'b'], expires_in: POLL_LIMITS.minExpiresIn - 1 } }, 'poll[expires_in]'],
      [{ status: 'x', poll: { options: ['a', 'b'], expires_in: POLL_LIMITS.maxExpiresIn + 1 } }, 'poll[expires_in]'],
      [{ status: 'x', poll: { options: ['a', 'b'] } }, 'poll[expires_in]'],
      [{ status: 'x', poll: { options: ['a', 'b'], expires_in: 'soon' } }, 'poll[expires_in]'],
      ['status=x&poll[options][]=a&poll[options][]=a&poll[expires_in]=3600', 'poll[options]'],
      [
        { status: 'x', poll: { options: ['a', 'y'.repeat(POLL_LIMITS.optionMax + 1)], expires_in: 3600 } },
        'poll[options]',
      ],
    ];
    for (const [body, field] of refusedStatuses) {
      const res = await call('POST', '/api/v1/statuses', body);
      expect([field, res.statusCode], res.body).toEqual([field, 422]);
      expect(res.json().error).toContain(field);
    }
    // A poll and images together: refused, as Mastodon does.
    const withMedia = await call('POST', '/api/v1/statuses', {
      status: 'x',
      media_ids: ['1'],
      poll: { options: ['a', 'b'], expires_in: 3600 },
    });
    expect(withMedia.statusCode).toBe(422);
    expect(withMedia.json().error).toMatch(/both a poll and images/);
    const [polls] = await executeRows<{ n: string }>(ctx.db.db, sql`select count(*) as n from polls`);
    expect(Number(polls?.n)).toBe(0);

    const status = (
      await call('POST', '/api/v1/statuses', { status: 'Pick', poll: { options: ['a', 'b'], expires_in: 600 } })
    ).json();
    const votes = `/api/v1/polls/${status.id}/votes`;
    expect((await call('POST', votes, { choices: [0] }, tokens.bob)).statusCode).toBe(200);
    const twice = await call('POST', votes, { choices: [1] }, tokens.bob);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().error).toBe('You have already voted in this poll.');
    for (const choices of [[2], [0, 1], []]) {
      const res = await call('POST', votes, { choices }, tokens.carol);
      expect([choices, res.statusCode]).toEqual([choices, 422]);
    }
    await ctx.db.db.execute(sql`update polls set expires_at = now() - interval '1 second'`);
    const ended = await call('POST', votes, { choices: [0] }, tokens.carol);
    expect(ended.statusCode).toBe(422);
    expect(ended.json().error).toMatch(/ended/);
    // An app's token without a person: refused as Mastodon does; no token: 401.
    expect((await call('POST', votes, { choices: [0] }, null)).statusCode).toBe(401);
  });

  it('answers 404 for a poll the viewer may not see (a followers-only post), and for a status without one', async () => {
    const { call, tokens, alice, clients } = await setup();
    await follow(clients.bob, alice.id);
    const status = (
      await call('POST', '/api/v1/statuses', {
        status: 'friends only',
        visibility: 'private',
        poll: { options: ['a', 'b'], expires_in: 600 },
      })
    ).json();
    expect((await call('GET', `/api/v1/polls/${status.id}`, undefined, tokens.bob)).statusCode).toBe(200);
    for (const as of [tokens.carol, null]) {
      expect((await call('GET', `/api/v1/polls/${status.id}`, undefined, as)).statusCode).toBe(404);
    }
    expect((await call('POST', `/api/v1/polls/${status.id}/votes`, { choices: [0] }, tokens.carol)).statusCode).toBe(
      404,
    );
    const plain = (await call('POST', '/api/v1/statuses', { status: 'no poll' })).json();
    expect((await call('GET', `/api/v1/polls/${plain.id}`)).statusCode).toBe(404);
  });

  it('tells apps the poll limits in the instance configuration', async () => {
    // (Read plainly: the test configuration's contact address is no email, which the OpenAPI checks.)
    for (const url of ['/api/v2/instance', '/api/v1/instance']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.json().configuration.polls).toEqual({
        max_options: 4,
        max_characters_per_option: 50,
        min_expiration: 300,
        max_expiration: 604_800,
      });
    }
  });

  it('sends the poll notification to the author and the voters as Mastodon’s `poll` type', async () => {
    const { call, tokens } = await setup();
    const status = (
      await call('POST', '/api/v1/statuses', { status: 'Pick', poll: { options: ['a', 'b'], expires_in: 600 } })
    ).json();
    await call('POST', `/api/v1/polls/${status.id}/votes`, { choices: [1] }, tokens.bob);
    await ctx.db.db.execute(sql`update polls set expires_at = now() - interval '1 second'`);
    await ctx.db.db.execute(sql`update timed_jobs set run_at = now() - interval '1 second'`);
    await ctx.app.services.timedJobs.runDue();
    for (const token of [tokens.alice, tokens.bob]) {
      const res = await call('GET', '/api/v1/notifications', undefined, token);
      expect(res.statusCode, res.body).toBe(200);
      const [n] = res.json();
      expect(n).toMatchObject({ type: 'poll', status: { id: status.id, poll: { expired: true } } });
    }
  });
});
