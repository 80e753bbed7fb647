/**
 * Polls (issue 28) through the product API on the real database: a post written with a poll (every
 * limit refused with its message, nothing written), one vote per person (every refusal), hidden
 * counts, who may see and vote (the post's audience), the end — a timed job that tells the author and
 * the voters once, even with two runners or after a restart — and the live counts on the stream.
 */
import type { LiveEvent, Notification, Post } from '@pipit/contract';
import { POLL_LIMITS } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { executeRows } from '../../src/db/client.ts';
import { TimedJobs } from '../../src/lib/timed-jobs.ts';
import { Notifier } from '../../src/modules/notifications/notifier.ts';
import { POLL_END, PollsService } from '../../src/modules/polls/polls.service.ts';
import type { StreamClient } from '../../src/modules/stream/stream.hub.ts';
import { seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { follow, getPost, notificationsOf } from '../helpers/social.ts';

describe('polls', () => {
  const ctx = useTestApp();

  const poll = (extra: object = {}) => ({ options: ['Wren', 'Robin', 'Finch'], expiresIn: 3600, ...extra });

  async function createPoll(client: TestClient, pollBody: object = poll(), more: object = {}): Promise<Post> {
    const res = await client.post('/api/posts', { text: 'Which bird?', poll: pollBody, ...more });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Post;
  }

  const vote = (client: TestClient, id: string, choices: unknown) =>
    client.post(`/api/posts/${id}/poll/votes`, { choices });

  /** Ends the poll now: its end and its job's time moved into the past (the job runs only when driven). */
  async function endNow(postId: string) {
    await ctx.db.db.execute(sql`update polls set expires_at = now() - interval '1 second' where post_id = ${postId}`);
    await ctx.db.db.execute(
      sql`update timed_jobs set run_at = now() - interval '1 second' where kind = ${POLL_END} and key = ${postId}`,
    );
  }

  const countRows = async (table: string) =>
    Number(
      (await executeRows<{ n: string }>(ctx.db.db, sql`select count(*) as n from ${sql.identifier(table)}`))[0]?.n,
    );

  const pollNotifications = async (client: TestClient) =>
    (await notificationsOf(client)).filter((n: Notification) => n.type === 'poll');

  describe('writing a post with a poll', () => {
    it('answers the post with its poll, open for the time asked; defaults: single choice, counts shown', async () => {
      const { clients } = await seedTrio(ctx);
      const before = Date.now();
      const post = await createPoll(clients.alice);
      expect(post.poll).toEqual({
        id: post.id,
        expiresAt: expect.any(String),
        expired: false,
        multiple: false,
        hideTotals: false,
        votersCount: 0,
        votesCount: 0,
        options: [
          { title: 'Wren', votesCount: 0 },
          { title: 'Robin', votesCount: 0 },
          { title: 'Finch', votesCount: 0 },
        ],
        voted: false,
        ownVotes: [],
      });
      const ends = new Date(post.poll!.expiresAt).getTime();
      expect(ends).toBeGreaterThanOrEqual(before + 3_600_000 - 5_000);
      expect(ends).toBeLessThanOrEqual(Date.now() + 3_600_000 + 5_000);
      // Read back by anyone, with its job scheduled at its end.
      expect((await getPost(clients.visitor, post.id)).poll).toEqual(post.poll);
      expect((await ctx.app.services.timedJobs.dueAt(POLL_END, post.id))?.toISOString()).toBe(post.poll!.expiresAt);
      // Posts without a poll say so.
      const plain = await clients.bob.post('/api/posts', { text: 'no poll here' });
      expect(plain.json().poll).toBeNull();
    });

    it('trims options and keeps multiple choice and hidden counts as asked', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPoll(clients.alice, {
        options: ['  Yes ', 'No'],
        expiresIn: POLL_LIMITS.minExpiresIn,
        multiple: true,
        hideTotals: true,
      });
      expect(post.poll).toMatchObject({
        multiple: true,
        hideTotals: true,
        options: [{ title: 'Yes' }, { title: 'No' }],
      });
    });

    it('refuses every limit with a message that says what is wrong, and writes nothing', async () => {
      const { clients } = await seedTrio(ctx);
      const image = { id: '1' };
      const refused: [object, string, RegExp][] = [
        [{ poll: poll({ options: ['Only one'] }) }, 'poll.options', /at least 2 options/],
        [{ poll: poll({ options: ['a', 'b', 'c', 'd', 'e'] }) }, 'poll.options', /at most 4 options/],
        [{ poll: poll({ options: ['a', '   '] }) }, 'poll.options.1', /must not be empty/],
        [{ poll: poll({ options: ['a', 'x'.repeat(51)] }) }, 'poll.options.1', /at most 50 characters/],
        [{ poll: poll({ options: ['Same', 'same'] }) }, 'poll.options', /all be different/],
        [{ poll: poll({ expiresIn: 299 }) }, 'poll.expiresIn', /at least 5 minutes/],
        [{ poll: poll({ expiresIn: 604_801 }) }, 'poll.expiresIn', /at most 7 days/],
        [{ poll: poll({ expiresIn: 3600.5 }) }, 'poll.expiresIn', /whole number/],
        [{ poll: poll({ expiresIn: '3600' }) }, 'poll.expiresIn', /number of seconds/],
        [{ poll: { options: ['a', 'b'] } }, 'poll.expiresIn', /./],
        [{ poll: poll({ multiple: 'yes' }) }, 'poll.multiple', /./],
        [{ poll: poll({ colour: 'red' }) }, 'poll', /colour/],
        [{ poll: poll(), media: [image] }, 'poll', /both a poll and images/],
        [{ text: '', poll: poll() }, 'text', /must not be empty/],
      ];
      for (const [body, field, message] of refused) {
        const res = await clients.alice.post('/api/posts', { text: 'Which?', ...body });
        expect([field, res.statusCode], res.body).toEqual([field, 400]);
        const error = res.json();
        expect(error.code).toBe('INVALID_INPUT');
        const issue = error.issues.find((i: { field: string }) => i.field === field);
        expect(issue?.message, `${field}: ${res.body}`).toMatch(message);
      }
      expect(await countRows('posts')).toBe(0);
      expect(await countRows('polls')).toBe(0);
      expect(await countRows('timed_jobs')).toBe(0);
    });
  });

  describe('voting', () => {
    it('counts one vote per person, answers the post with the voter’s choices, and the author may vote too', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPoll(clients.alice);
      const bobVoted = await vote(clients.bob, post.id, [1]);
      expect(bobVoted.statusCode, bobVoted.body).toBe(200);
      expect(bobVoted.json().poll).toMatchObject({
        votersCount: 1,
        votesCount: 1,
        options: [{ votesCount: 0 }, { votesCount: 1 }, { votesCount: 0 }],
        voted: true,
        ownVotes: [1],
      });
      // The author votes in their own poll (allowed); each reader sees their own choices only.
      expect((await vote(clients.alice, post.id, [0])).statusCode).toBe(200);
      expect((await getPost(clients.carol, post.id)).poll).toMatchObject({
        votersCount: 2,
        votesCount: 2,
        options: [{ votesCount: 1 }, { votesCount: 1 }, { votesCount: 0 }],
        voted: false,
        ownVotes: [],
      });
      expect((await getPost(clients.alice, post.id)).poll).toMatchObject({ voted: true, ownVotes: [0] });
      expect((await getPost(clients.visitor, post.id)).poll).toMatchObject({ voted: false, ownVotes: [] });
    });

    it('takes several choices on a multiple-choice poll: one voter, a vote for each', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPoll(clients.alice, poll({ multiple: true }));
      const res = await vote(clients.bob, post.id, [2, 0]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().poll).toMatchObject({
        votersCount: 1,
        votesCount: 2,
        options: [{ votesCount: 1 }, { votesCount: 0 }, { votesCount: 1 }],
        ownVotes: [0, 2],
      });
    });

    it('refuses a second vote (422 ALREADY_VOTED), even two at once, and counts the first only', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPoll(clients.alice, poll({ multiple: true }));
      expect((await vote(clients.bob, post.id, [0])).statusCode).toBe(200);
      for (const choices of [[0], [1], [1, 2]]) {
        const again = await vote(clients.bob, post.id, choices);
        expect(again.statusCode).toBe(422);
        expect(again.json()).toMatchObject({ code: 'ALREADY_VOTED', message: 'You have already voted in this poll.' });
      }
      // Two votes of one person at the same moment: the poll's lock makes one of them the second.
      const both = await Promise.all([vote(clients.carol, post.id, [1]), vote(clients.carol, post.id, [2])]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 422]);
      expect((await getPost(clients.alice, post.id)).poll).toMatchObject({ votersCount: 2, votesCount: 2 });
      expect(await countRows('poll_votes')).toBe(2);
    });

    it('refuses options that are not there, several on a single-choice poll, and malformed choices (400), writing nothing', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPoll(clients.alice);
      const refused: [unknown, RegExp][] = [
        [[3], /no option 3 in this poll: its options are numbered 0 to 2/],
        [[0, 1], /takes one choice only/],
        [[1, 1], /at most once/],
        [[], /at least one option/],
        [[-1], /option index/],
        [[0.5], /option index/],
        [['0'], /./],
        [[0, 1, 2, 0, 1], /at most 4/],
      ];
      for (const [choices, message] of refused) {
        const res = await vote(clients.bob, post.id, choices);
        expect([choices, res.statusCode], res.body).toEqual([choices, 400]);
        expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: expect.stringMatching(/^choices/) });
        expect(res.json().message, res.body).toMatch(message);
      }
      expect(await countRows('poll_votes')).toBe(0);
      expect((await getPost(clients.bob, post.id)).poll).toMatchObject({ votersCount: 0, voted: false });
    });

    it('refuses a vote once the poll has ended (422 POLL_ENDED)', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPoll(clients.alice);
      await endNow(post.id);
      const res = await vote(clients.bob, post.id, [0]);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'POLL_ENDED' });
      expect((await getPost(clients.bob, post.id)).poll).toMatchObject({ expired: true, votersCount: 0 });
    });

    it('answers 404 for a post without a poll or no post, and 401 to visitors', async () => {
      const { clients } = await seedTrio(ctx);
      const plain = (await clients.alice.post('/api/posts', { text: 'no poll' })).json() as Post;
      for (const id of [plain.id, '987654']) {
        const res = await vote(clients.bob, id, [0]);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
      const post = await createPoll(clients.alice);
      const visitor = await vote(clients.visitor, post.id, [0]);
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    });
  });

  it('hides the option counts from all but the author until it ends, then shows them to everyone', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPoll(clients.alice, poll({ hideTotals: true }));
    await vote(clients.bob, post.id, [1]);
    const hidden = {
      votersCount: 1,
      votesCount: 1,
      options: [{ votesCount: null }, { votesCount: null }, { votesCount: null }],
    };
    expect((await vote(clients.carol, post.id, [1])).json().poll).toMatchObject({
      ...hidden,
      votersCount: 2,
      votesCount: 2,
    });
    expect((await getPost(clients.bob, post.id)).poll).toMatchObject({ ...hidden, votersCount: 2, votesCount: 2 });
    expect((await getPost(clients.visitor, post.id)).poll).toMatchObject({ options: hidden.options });
    expect((await getPost(clients.alice, post.id)).poll).toMatchObject({
      options: [{ votesCount: 0 }, { votesCount: 2 }, { votesCount: 0 }],
    });
    await endNow(post.id);
    for (const client of [clients.bob, clients.visitor]) {
      expect((await getPost(client, post.id)).poll).toMatchObject({
        expired: true,
        options: [{ votesCount: 0 }, { votesCount: 2 }, { votesCount: 0 }],
      });
    }
  });

  it('a followers-only post’s poll: its followers see and vote; anyone else gets 404, as if it were not there', async () => {
    const { clients, alice } = await seedTrio(ctx);
    await follow(clients.bob, alice.id);
    const post = await createPoll(clients.alice, poll(), { visibility: 'followers' });
    expect((await vote(clients.bob, post.id, [0])).statusCode).toBe(200);
    for (const client of [clients.carol, clients.visitor]) {
      expect((await client.get(`/api/posts/${post.id}`)).statusCode).toBe(404);
    }
    const carol = await vote(clients.carol, post.id, [0]);
    expect(carol.statusCode).toBe(404);
    expect(carol.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await getPost(clients.alice, post.id)).poll).toMatchObject({ votersCount: 1 });
  });

  describe('the end', () => {
    it('tells the author and every voter once, when its job runs at its end; never before', async () => {
      const { clients, alice } = await seedTrio(ctx);
      const post = await createPoll(clients.alice);
      await vote(clients.bob, post.id, [0]);
      await vote(clients.carol, post.id, [1]);
      // Not yet due: nothing runs.
      expect(await ctx.app.services.timedJobs.runDue()).toBe(0);
      expect(await pollNotifications(clients.bob)).toEqual([]);

      await endNow(post.id);
      expect(await ctx.app.services.timedJobs.runDue()).toBe(1);
      for (const client of [clients.alice, clients.bob, clients.carol]) {
        const told = await pollNotifications(client);
        expect(told).toHaveLength(1);
        expect(told[0]).toMatchObject({
          actor: { id: String(alice.id) },
          post: { id: post.id, poll: { expired: true } },
        });
      }
      expect(await ctx.app.services.timedJobs.dueAt(POLL_END, post.id)).toBeNull();
      expect(await ctx.app.services.timedJobs.runDue()).toBe(0);
      expect(await countRows('notifications')).toBe(3);
    });

    it('does not tell a voter the post is now hidden from (they unfollowed a followers-only author)', async () => {
      const { clients, alice } = await seedTrio(ctx);
      await follow(clients.bob, alice.id);
      await follow(clients.carol, alice.id);
      const post = await createPoll(clients.alice, poll(), { visibility: 'followers' });
      await vote(clients.bob, post.id, [0]);
      await vote(clients.carol, post.id, [0]);
      expect((await clients.carol.delete(`/api/users/${alice.id}/follow`)).statusCode).toBe(200);
      await endNow(post.id);
      await ctx.app.services.timedJobs.runDue();
      expect(await pollNotifications(clients.bob)).toHaveLength(1);
      expect(await pollNotifications(clients.alice)).toHaveLength(1);
      expect(await pollNotifications(clients.carol)).toEqual([]);
      const [told] = await executeRows<{ n: string }>(
        ctx.db.db,
        sql`select count(*) as n from notifications where type = 'poll'`,
      );
      expect(Number(told?.n)).toBe(2);
    });

    it('runs once with two runners on the same database (two processes): one notification each', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPoll(clients.alice);
      await vote(clients.bob, post.id, [0]);
      const other = new TimedJobs(ctx.db.db, ctx.app.services.events, ctx.app.log, { pollMs: 0 });
      new PollsService(ctx.db.db, ctx.app.services.events, new Notifier(), other);
      await endNow(post.id);
      const [a, b] = await Promise.all([ctx.app.services.timedJobs.runDue(), other.runDue()]);
      expect(a + b).toBe(1);
      expect(await pollNotifications(clients.alice)).toHaveLength(1);
      expect(await pollNotifications(clients.bob)).toHaveLength(1);
      expect(await countRows('notifications')).toBe(2);
    });

    it('survives a restart: the job is a row, and another app on the same database runs it', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPoll(clients.alice);
      await vote(clients.bob, post.id, [0]);
      await endNow(post.id);
      const restarted = await buildApp(ctx.config, { db: ctx.db });
      try {
        await restarted.ready();
        expect(await restarted.services.timedJobs.runDue()).toBe(1);
      } finally {
        await restarted.close();
      }
      expect(await pollNotifications(clients.alice)).toHaveLength(1);
      expect(await pollNotifications(clients.bob)).toHaveLength(1);
    });

    it('deleting the post cancels its end', async () => {
      const { clients } = await seedTrio(ctx);
      const post = await createPoll(clients.alice);
      await vote(clients.bob, post.id, [0]);
      expect(await ctx.app.services.timedJobs.dueAt(POLL_END, post.id)).not.toBeNull();
      expect((await clients.alice.delete(`/api/posts/${post.id}`)).statusCode).toBe(204);
      expect(await ctx.app.services.timedJobs.dueAt(POLL_END, post.id)).toBeNull();
      expect(await countRows('polls')).toBe(0);
      expect(await countRows('poll_votes')).toBe(0);
    });
  });

  describe('live counts', () => {
    /** A stream on the hub as a browser tab has one: what it is sent, parsed. */
    function listen(userId: number | null) {
      const got: LiveEvent[] = [];
      const client: StreamClient = {
        userId,
        address: `test-${userId}`,
        send: (frame) => {
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (data) got.push(JSON.parse(data) as LiveEvent);
          return true;
        },
        close: () => {},
      };
      const opened = ctx.app.services.stream.open(client);
      if (!opened.ok) throw new Error('not admitted');
      return { polls: () => got.filter((e) => e.type === 'poll'), close: opened.close };
    }

    it('sends each vote’s counts to whoever may see the post, the hidden ones hidden, and the final ones at the end', async () => {
      const { clients, alice, bob, carol } = await seedTrio(ctx);
      const post = await createPoll(clients.alice, poll({ hideTotals: true }));
      const [author, voter, other, visitor] = [listen(alice.id), listen(bob.id), listen(carol.id), listen(null)];
      try {
        await vote(clients.bob, post.id, [2]);
        await ctx.app.services.stream.idle();
        const counts = { votersCount: 1, votesCount: 1 };
        expect(author.polls()).toEqual([
          { type: 'poll', postId: post.id, counts: { ...counts, options: [0, 0, 1] }, ended: false, reset: false },
        ]);
        for (const reader of [voter, other, visitor]) {
          expect(reader.polls()).toEqual([
            {
              type: 'poll',
              postId: post.id,
              counts: { ...counts, options: [null, null, null] },
              ended: false,
              reset: false,
            },
          ]);
        }
        await endNow(post.id);
        await ctx.app.services.timedJobs.runDue();
        await ctx.app.services.stream.idle();
        for (const reader of [author, voter, other, visitor]) {
          expect(reader.polls().at(-1)).toEqual({
            type: 'poll',
            postId: post.id,
            counts: { ...counts, options: [0, 0, 1] },
            ended: true,
            reset: false,
          });
        }
      } finally {
        for (const s of [author, voter, other, visitor]) s.close();
      }
    });

    it('sends a followers-only post’s counts to its audience only', async () => {
      const { clients, alice, bob, carol } = await seedTrio(ctx);
      await follow(clients.bob, alice.id);
      const post = await createPoll(clients.alice, poll(), { visibility: 'followers' });
      const [author, follower, other, visitor] = [listen(alice.id), listen(bob.id), listen(carol.id), listen(null)];
      try {
        await vote(clients.bob, post.id, [0]);
        await ctx.app.services.stream.idle();
        expect(author.polls()).toHaveLength(1);
        expect(follower.polls()).toHaveLength(1);
        expect(other.polls()).toEqual([]);
        expect(visitor.polls()).toEqual([]);
      } finally {
        for (const s of [author, follower, other, visitor]) s.close();
      }
    });
  });
});
