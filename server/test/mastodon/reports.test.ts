/**
 * Mastodon's reports (POST /api/v1/reports) over the moderation service: a person with the posts of theirs
 * attached (one Pipit report per post, or one about the person), Mastodon's categories mapped to Pipit's,
 * and the refusals — what Pipit cannot honour (a `violation`, rule or collection ids, forwarding a member's
 * report or to another server) and posts of someone else — each a 422 naming the field that writes nothing.
 * Every answer is validated against the OpenAPI description (mastodonCall).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { executeRows } from '../../src/db/client.ts';
import { authorizeApp, seedTrio, useTestApp } from '../helpers/app.ts';
import { createPost } from '../helpers/social.ts';
import { mastodonCall } from './openapi.ts';

describe('Mastodon reports', () => {
  const ctx = useTestApp();

  async function setup() {
    const trio = await seedTrio(ctx);
    const { token } = await authorizeApp(ctx.app, trio.alice.id, 'read write');
    const report = (payload: object | string) =>
      mastodonCall(ctx.app, {
        method: 'POST',
        url: '/api/v1/reports',
        headers: {
          authorization: `Bearer ${token}`,
          ...(typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        payload,
      });
    return { ...trio, report };
  }
  const filed = () =>
    executeRows<{ subject_user_id: string; post_id: string | null; category: string; comment: string }>(
      ctx.db.db,
      sql`select subject_user_id::text, post_id::text, category, comment from reports order by id`,
    );

  it('files one report per attached post (as a form, as Mastodon apps send it) and answers the Report entity', async () => {
    const { bob, clients, report } = await setup();
    const first = await createPost(clients.bob, 'first');
    const second = await createPost(clients.bob, 'second');
    const res = await report(
      `account_id=${bob.id}&status_ids[]=${first.id}&status_ids[]=${second.id}&comment=Spam+links&category=spam`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      action_taken: false,
      action_taken_at: null,
      category: 'spam',
      comment: 'Spam links',
      forwarded: false,
      status_ids: [first.id, second.id],
      rule_ids: null,
      target_account: { id: String(bob.id), acct: 'bob' },
    });
    expect(await filed()).toEqual([
      { subject_user_id: String(bob.id), post_id: first.id, category: 'spam', comment: 'Spam links' },
      { subject_user_id: String(bob.id), post_id: second.id, category: 'spam', comment: 'Spam links' },
    ]);
    // No post attached: one report about the person; `legal` is Pipit's "Something illegal"; no category: other.
    const legal = await report({ account_id: String(bob.id), category: 'legal' });
    expect(legal.json()).toMatchObject({ category: 'legal', status_ids: null });
    const plain = await report({ account_id: String(bob.id) });
    expect(plain.json()).toMatchObject({ category: 'other' });
    expect((await filed()).slice(2)).toEqual([
      { subject_user_id: String(bob.id), post_id: null, category: 'other', comment: '' },
    ]);
  });

  it('refuses what it cannot honour with a 422 naming the field, and files nothing', async () => {
    const { bob, clients, report } = await setup();
    const bobs = await createPost(clients.bob, 'bob');
    const carols = await createPost(clients.carol, 'carol');
    for (const [payload, field] of [
      [{ account_id: String(bob.id), category: 'violation' }, 'category'],
      [{ account_id: String(bob.id), rule_ids: ['1'] }, 'rule_ids'],
      [{ account_id: String(bob.id), collection_ids: ['1'] }, 'collection_ids'],
      // A member is reported here only: nothing to forward to.
      [{ account_id: String(bob.id), forward: true }, 'forward'],
      [{ account_id: String(bob.id), forward: true, forward_to_domains: ['elsewhere.example'] }, 'forward_to_domains'],
      // Carol's post attached to a report about bob (the first post bob's, so a partial write would show).
      [{ account_id: String(bob.id), status_ids: [bobs.id, carols.id] }, 'status_ids'],
      [{ account_id: String(bob.id), comment: 'x'.repeat(1001) }, 'comment'],
    ] as const) {
      const res = await report(payload);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(422);
      expect(res.json().error, field).toContain(field);
    }
    expect(await filed()).toEqual([]);
    // Nobody by that id, or a post nobody has: 404.
    expect((await report({ account_id: '999999' })).statusCode).toBe(404);
    expect((await report({ account_id: String(bob.id), status_ids: ['999999'] })).statusCode).toBe(404);
    expect(await filed()).toEqual([]);
  });
});
