/**
 * Polls in edits (issue 28): PATCH /api/posts/:id takes `poll` (pollInput, or null to remove it) and
 * writes it through modules/polls `replacePollIn` in the edit's transaction. Other options (or single
 * and multiple choice swapped) reset the votes and tell the voters with an `update` notification; the
 * text alone keeps them; a poll sent again moves its end; a poll and pictures never go together; the
 * history keeps the options of each version. Runs on PGlite and on PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LiveEvent, Notification, Post, PostHistory } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { executeRows } from '../../src/db/client.ts';
import { POLL_END } from '../../src/modules/polls/polls.service.ts';
import type { StreamClient } from '../../src/modules/stream/stream.hub.ts';
import { seedTrio, type TestClient, useTestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/multipart.ts';
import { getPost, notificationsOf } from '../helpers/social.ts';
import { photo } from '../media/fixtures.ts';

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'pipit-edit-polls-'));
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

describe('editing a post’s poll', () => {
  const ctx = useTestApp({ mediaDir });

  const poll = (extra: object = {}) => ({ options: ['Wren', 'Robin', 'Finch'], expiresIn: 3600, ...extra });

  async function createPoll(client: TestClient, pollBody: object = poll()): Promise<Post> {
    const res = await client.post('/api/posts', { text: 'Which bird?', poll: pollBody });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Post>();
  }

  async function vote(client: TestClient, id: string, choices: number[]) {
    const res = await client.post(`/api/posts/${id}/poll/votes`, { choices });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function edit(client: TestClient, id: string, body: object): Promise<Post> {
    const res = await client.patch(`/api/posts/${id}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Post>();
  }

  async function history(client: TestClient, id: string): Promise<PostHistory> {
    const res = await client.get(`/api/posts/${id}/history`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PostHistory>();
  }

  const updates = async (client: TestClient) =>
    (await notificationsOf(client)).filter((n: Notification) => n.type === 'update');

  const voteRows = async (postId: string) =>
    Number(
      (
        await executeRows<{ n: string }>(
          ctx.db.db,
          sql`select count(*) as n from poll_votes where post_id = ${Number(postId)}`,
        )
      )[0]?.n,
    );

  const dueAt = (postId: string) => ctx.app.services.timedJobs.dueAt(POLL_END, postId);

  let uploads = 0;
  async function upload(client: TestClient): Promise<string> {
    const res = await client.upload(multipart([{ name: 'file', file: await photo(60 + ++uploads, 30) }]));
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  }

  it('new options reset every vote (the author’s too) and tell the voters, not the author; the history keeps both', async () => {
    const { clients, alice } = await seedTrio(ctx);
    const post = await createPoll(clients.alice);
    await vote(clients.bob, post.id, [0]);
    await vote(clients.carol, post.id, [1]);
    await vote(clients.alice, post.id, [2]);

    const edited = await edit(clients.alice, post.id, { poll: poll({ options: ['Wren', 'Robin', 'Swift'] }) });
    expect(edited.editedAt).not.toBeNull();
    expect(edited.poll).toMatchObject({
      votersCount: 0,
      votesCount: 0,
      voted: false,
      ownVotes: [],
      options: [
        { title: 'Wren', votesCount: 0 },
        { title: 'Robin', votesCount: 0 },
        { title: 'Swift', votesCount: 0 },
      ],
    });
    expect(await voteRows(post.id)).toBe(0);
    expect((await getPost(clients.bob, post.id)).poll).toMatchObject({ voted: false, ownVotes: [], votersCount: 0 });

    // Each voter is told once, by the author; the author is not told of their own edit.
    for (const voter of [clients.bob, clients.carol]) {
      expect(await updates(voter)).toMatchObject([{ actor: { id: String(alice.id) }, post: { id: post.id } }]);
    }
    expect(await updates(clients.alice)).toEqual([]);

    // They may vote again, in the new poll.
    await vote(clients.bob, post.id, [2]);
    expect((await getPost(clients.bob, post.id)).poll).toMatchObject({ votersCount: 1, ownVotes: [2] });

    const { items } = await history(clients.bob, post.id);
    expect(items.map((v) => [v.poll, v.changes?.poll ?? null])).toEqual([
      [{ options: ['Wren', 'Robin', 'Finch'], multiple: false }, null],
      [{ options: ['Wren', 'Robin', 'Swift'], multiple: false }, 'changed'],
    ]);
  });

  it('single to multiple choice resets the votes too', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPoll(clients.alice);
    await vote(clients.bob, post.id, [0]);
    const edited = await edit(clients.alice, post.id, { poll: poll({ multiple: true }) });
    expect(edited.poll).toMatchObject({ multiple: true, votersCount: 0 });
    expect(await updates(clients.bob)).toHaveLength(1);
    expect((await history(clients.alice, post.id)).items.at(-1)?.changes?.poll).toBe('changed');
  });

  it('editing only the text keeps the votes, tells no voter, and leaves the end where it was', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPoll(clients.alice);
    await vote(clients.bob, post.id, [1]);
    const ends = await dueAt(post.id);

    const edited = await edit(clients.alice, post.id, { text: 'Which bird, really?' });
    expect(edited).toMatchObject({
      text: 'Which bird, really?',
      poll: { votersCount: 1, expiresAt: post.poll!.expiresAt },
    });
    expect((await getPost(clients.bob, post.id)).poll).toMatchObject({ voted: true, ownVotes: [1], votersCount: 1 });
    expect(await voteRows(post.id)).toBe(1);
    expect(await updates(clients.bob)).toEqual([]);
    expect(await dueAt(post.id)).toEqual(ends);
    // Both versions have the same poll: nothing said of it.
    const { items } = await history(clients.alice, post.id);
    expect(items.map((v) => v.poll?.options)).toEqual([
      ['Wren', 'Robin', 'Finch'],
      ['Wren', 'Robin', 'Finch'],
    ]);
    expect(items[1]?.changes).toMatchObject({ text: true, poll: null });
  });

  it('the same options sent again keep the votes and move the end, without a new version', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPoll(clients.alice, poll({ expiresIn: 300 }));
    await vote(clients.bob, post.id, [0]);
    const edited = await edit(clients.alice, post.id, { poll: poll({ expiresIn: 86_400, hideTotals: true }) });
    expect(edited.editedAt).toBeNull();
    expect(edited.poll).toMatchObject({ votersCount: 1, hideTotals: true });
    const ends = new Date(edited.poll!.expiresAt).getTime();
    expect(ends).toBeGreaterThan(new Date(post.poll!.expiresAt).getTime() + 80_000_000);
    expect((await dueAt(post.id))?.toISOString()).toBe(edited.poll!.expiresAt);
    expect((await getPost(clients.bob, post.id)).poll).toMatchObject({ ownVotes: [0] });
    expect(await updates(clients.bob)).toEqual([]);
    expect((await history(clients.alice, post.id)).items).toHaveLength(1);
  });

  it('removing the poll takes its votes and its end away and tells the voters; a poll can be added back', async () => {
    const { clients } = await seedTrio(ctx);
    const post = await createPoll(clients.alice);
    await vote(clients.bob, post.id, [0]);

    const edited = await edit(clients.alice, post.id, { poll: null });
    expect(edited.poll).toBeNull();
    expect((await getPost(clients.visitor, post.id)).poll).toBeNull();
    expect(await voteRows(post.id)).toBe(0);
    expect(await dueAt(post.id)).toBeNull();
    expect(await updates(clients.bob)).toHaveLength(1);
    const voted = await clients.bob.post(`/api/posts/${post.id}/poll/votes`, { choices: [0] });
    expect(voted.statusCode).toBe(404);

    // Removing it again changes nothing; adding one schedules its end.
    expect((await edit(clients.alice, post.id, { poll: null })).editedAt).toBe(edited.editedAt);
    const added = await edit(clients.alice, post.id, { poll: poll({ options: ['Yes', 'No'] }) });
    expect(added.poll).toMatchObject({ options: [{ title: 'Yes' }, { title: 'No' }], votersCount: 0 });
    expect((await dueAt(post.id))?.toISOString()).toBe(added.poll!.expiresAt);

    const { items } = await history(clients.alice, post.id);
    expect(items.map((v) => [v.poll?.options ?? null, v.changes?.poll ?? null])).toEqual([
      [['Wren', 'Robin', 'Finch'], null],
      [null, 'removed'],
      [['Yes', 'No'], 'added'],
    ]);
  });

  it('refuses a poll with pictures either way, and a poll that breaks its limits, leaving the post as it was', async () => {
    const { clients } = await seedTrio(ctx);
    const withPoll = await createPoll(clients.alice);
    await vote(clients.bob, withPoll.id, [0]);
    const picture = await upload(clients.alice);
    const withPicture = await clients.alice.post('/api/posts', { text: 'A wren', media: [{ id: picture }] });
    expect(withPicture.statusCode, withPicture.body).toBe(201);
    const pictured = withPicture.json<Post>();
    const another = await upload(clients.alice);

    const refusals: [string, object, string, RegExp][] = [
      // Pictures added to a post that has a poll.
      [withPoll.id, { media: [{ id: another }] }, 'media', /poll cannot have images/],
      // A poll added to a post that has pictures (they are kept when media is left out).
      [pictured.id, { poll: poll() }, 'poll', /both a poll and images/],
      // Both in one edit.
      [withPoll.id, { poll: poll(), media: [{ id: another }] }, 'poll', /both a poll and images/],
      [withPoll.id, { poll: poll({ options: ['Only'] }) }, 'poll.options', /at least 2 options/],
      [withPoll.id, { poll: poll({ expiresIn: 10 }) }, 'poll.expiresIn', /at least 5 minutes/],
      [withPoll.id, { poll: 'yes' }, 'poll', /./],
    ];
    for (const [id, body, field, message] of refusals) {
      const before = await getPost(clients.alice, id);
      const res = await clients.alice.patch(`/api/posts/${id}`, body);
      expect([field, res.statusCode], res.body).toEqual([field, 400]);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field });
      expect(res.json().message).toMatch(message);
      expect(await getPost(clients.alice, id)).toEqual(before);
    }
    expect(await voteRows(withPoll.id)).toBe(1);
    // Pictures out and a poll in, in one edit, is fine.
    const swapped = await edit(clients.alice, pictured.id, { media: [], poll: poll() });
    expect(swapped).toMatchObject({ media: [], poll: { votersCount: 0 } });
  });

  it('an author’s open page and the voters’ are sent the reset counts and the edited post live', async () => {
    const { clients, alice, bob } = await seedTrio(ctx);
    const post = await createPoll(clients.alice);
    await vote(clients.bob, post.id, [0]);
    const got: LiveEvent[] = [];
    const client: StreamClient = {
      userId: bob.id,
      address: 'test-bob',
      send: (frame) => {
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (data) got.push(JSON.parse(data) as LiveEvent);
        return true;
      },
      close: () => {},
    };
    const opened = ctx.app.services.stream.open(client);
    if (!opened.ok) throw new Error('not admitted');
    try {
      await edit(clients.alice, post.id, { poll: poll({ options: ['Wren', 'Swift'] }) });
      await ctx.app.services.stream.idle();
      expect(got.filter((e) => e.type === 'poll')).toEqual([
        {
          type: 'poll',
          postId: post.id,
          counts: { votersCount: 0, votesCount: 0, options: [0, 0] },
          ended: false,
          reset: true,
        },
      ]);
      const updated = got.find((e) => e.type === 'post.updated');
      expect(updated).toMatchObject({
        post: {
          id: post.id,
          author: { id: String(alice.id) },
          poll: { options: [{ title: 'Wren' }, { title: 'Swift' }] },
        },
      });
    } finally {
      opened.close();
    }
  });
});
