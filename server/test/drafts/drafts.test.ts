/**
 * Drafts (issue 28): posts not sent yet, kept on the server. Saved, listed, resumed (read), replaced
 * and deleted by their author only; at most 100 per member; the images they name stay uploads of the
 * author's that the sweep of uploads no post took leaves alone while a draft holds them.
 */
import { type Draft, UNSENT_LIMITS } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seedTrio, useTestApp } from '../helpers/app.ts';
import { imageUpload } from '../helpers/multipart.ts';
import { rowsOf } from '../helpers/social.ts';
import { photo } from '../media/fixtures.ts';
import { fingerprint } from '../security/support.ts';

describe('drafts', () => {
  const ctx = useTestApp();

  const upload = async (client: Awaited<ReturnType<typeof seedTrio>>['clients']['alice'], alt = '') => {
    const res = await client.upload(imageUpload(await photo(40, 30), alt));
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; url: string }>();
  };

  it('saves, lists (latest edited first), reads, replaces and deletes a draft', async () => {
    const { clients } = await seedTrio(ctx);
    const empty = await clients.alice.post('/api/drafts', { post: { text: 'a start' } });
    expect(empty.statusCode, empty.body).toBe(201);
    const first = await clients.alice.post('/api/drafts', {
      post: { text: '  half a thought  ', visibility: 'followers', quotePolicy: 'nobody' },
    });
    expect(first.statusCode, first.body).toBe(201);
    const draft = first.json<Draft>();
    // Stored as the contract parsed it (trimmed), whole.
    expect(draft).toMatchObject({
      post: { text: 'half a thought', visibility: 'followers', quotePolicy: 'nobody' },
      media: [],
    });

    const list = await clients.alice.get('/api/drafts');
    expect(list.json().items.map((d: Draft) => d.id)).toEqual([draft.id, empty.json().id]);
    expect((await clients.alice.get(`/api/drafts/${draft.id}`)).json()).toEqual(draft);

    const replaced = await clients.alice.patch(`/api/drafts/${draft.id}`, { post: { text: 'a whole thought' } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().post).toEqual({ text: 'a whole thought' });
    // The edited one moves to the top.
    await clients.alice.patch(`/api/drafts/${empty.json().id}`, { post: { text: 'now something' } });
    expect((await clients.alice.get('/api/drafts')).json().items[0].id).toBe(empty.json().id);

    expect((await clients.alice.delete(`/api/drafts/${draft.id}`)).statusCode).toBe(204);
    expect((await clients.alice.get(`/api/drafts/${draft.id}`)).statusCode).toBe(404);
    expect((await clients.alice.get('/api/drafts')).json().items).toHaveLength(1);
    // Nothing was posted.
    expect(rowsOf(await ctx.db.db.execute(sql`select id from posts`))).toEqual([]);
  });

  it("someone else's draft is not found, for every call; a visitor must sign in", async () => {
    const { clients } = await seedTrio(ctx);
    const draft = (await clients.alice.post('/api/drafts', { post: { text: 'mine' } })).json<Draft>();
    const before = await fingerprint(ctx.db);
    for (const res of [
      await clients.bob.get(`/api/drafts/${draft.id}`),
      await clients.bob.patch(`/api/drafts/${draft.id}`, { post: { text: 'theirs' } }),
      await clients.bob.delete(`/api/drafts/${draft.id}`),
      await clients.bob.get('/api/drafts/99999'),
      await clients.bob.get('/api/drafts/abc'),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await clients.bob.get('/api/drafts')).json().items).toEqual([]);
    for (const res of [
      await clients.visitor.get('/api/drafts'),
      await clients.visitor.post('/api/drafts', { post: { text: 'x' } }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHENTICATED');
    }
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it('refuses a body that is not a post in the making, naming the field, and stores nothing', async () => {
    const { clients } = await seedTrio(ctx);
    const before = await fingerprint(ctx.db);
    for (const [body, field] of [
      [{}, 'post'],
      [{ post: {} }, 'post.text'],
      [{ post: { text: '   ', visibility: 'public' } }, 'post.text'],
      [{ post: { text: 'x'.repeat(281) } }, 'post.text'],
      [{ post: { visibility: 'everyone' } }, 'post.visibility'],
      [{ post: { media: [{ id: '1' }, { id: '1' }] } }, 'post.media'],
      [{ post: { text: 'x', colour: 'red' } }, 'post'],
      [{ post: { text: 'x' }, scheduledAt: '2030-01-01T00:00:00Z' }, ''],
    ] as const) {
      const res = await clients.alice.post('/api/drafts', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('INVALID_INPUT');
      if (field) expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it('holds only the author’s own uploads not in a post, and keeps them from the uploads’ sweep', async () => {
    const { clients } = await seedTrio(ctx);
    const mine = await upload(clients.alice, 'a cat');
    const other = await upload(clients.alice);
    const bobs = await upload(clients.bob);
    const posted = await upload(clients.alice);
    expect((await clients.alice.post('/api/posts', { text: 'x', media: [{ id: posted.id }] })).statusCode).toBe(201);

    for (const id of [bobs.id, posted.id, '999999']) {
      const res = await clients.alice.post('/api/drafts', { post: { media: [{ id }] } });
      expect(res.statusCode, id).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'post.media' });
    }

    const res = await clients.alice.post('/api/drafts', {
      post: { text: 'with a picture', media: [{ id: mine.id, alt: 'a cat asleep' }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const draft = res.json<Draft>();
    expect(draft.media).toEqual([expect.objectContaining({ id: mine.id, url: mine.url, alt: 'a cat asleep' })]);

    // A day later the sweep deletes the upload nobody holds, and leaves the draft's.
    await ctx.db.db.execute(sql`update media_attachments set created_at = now() - interval '25 hours'`);
    expect(await ctx.app.services.media.expireUploads()).toBe(2);
    const left = rowsOf<{ id: string }>(await ctx.db.db.execute(sql`select id::text as id from media_attachments`));
    expect(left.map((r) => r.id).sort()).toEqual([mine.id, posted.id].sort());
    expect(left.map((r) => r.id)).not.toContain(other.id);
    expect((await clients.alice.get(`/api/drafts/${draft.id}`)).json().media).toHaveLength(1);
    // A file the draft holds is still served.
    expect((await ctx.app.inject({ url: mine.url })).statusCode).toBe(200);

    // Sending it: the post takes the upload; the draft is then deleted, and nothing is swept.
    const sent = await clients.alice.post('/api/posts', { text: 'with a picture', media: [{ id: mine.id }] });
    expect(sent.statusCode, sent.body).toBe(201);
    expect((await clients.alice.delete(`/api/drafts/${draft.id}`)).statusCode).toBe(204);
    expect(await ctx.app.services.media.expireUploads()).toBe(0);

    // A deleted draft holds nothing: its uploads are swept like any other.
    const later = await upload(clients.alice);
    const held = (await clients.alice.post('/api/drafts', { post: { media: [{ id: later.id }] } })).json<Draft>();
    await ctx.db.db.execute(sql`update media_attachments set created_at = now() - interval '25 hours'`);
    expect(await ctx.app.services.media.expireUploads()).toBe(0);
    await clients.alice.delete(`/api/drafts/${held.id}`);
    expect(await ctx.app.services.media.expireUploads()).toBe(1);
  });

  it(`refuses the ${UNSENT_LIMITS.drafts + 1}st draft with LIMIT_REACHED; deleting one makes room`, async () => {
    const { alice, clients } = await seedTrio(ctx);
    await ctx.db.db.execute(
      sql`insert into drafts (author_id, body) select ${alice.id}, '{"text":"old"}'::jsonb from generate_series(1, ${UNSENT_LIMITS.drafts})`,
    );
    const before = await fingerprint(ctx.db);
    const res = await clients.alice.post('/api/drafts', { post: { text: 'one too many' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'LIMIT_REACHED', message: expect.stringMatching(/100 drafts/) });
    expect(await fingerprint(ctx.db)).toEqual(before);
    // Others are not limited by Alice's drafts.
    expect((await clients.bob.post('/api/drafts', { post: { text: 'mine' } })).statusCode).toBe(201);
    const oldest = (await clients.alice.get('/api/drafts')).json().items.at(-1) as Draft;
    await clients.alice.delete(`/api/drafts/${oldest.id}`);
    expect((await clients.alice.post('/api/drafts', { post: { text: 'now it fits' } })).statusCode).toBe(201);
  });
});
