import { existsSync } from 'node:fs';
import path from 'node:path';
import type { MediaAttachment, Post } from '@pipit/contract';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { insertUser, PASSWORD, seedTrio, TestClient, useTestApp } from '../helpers/app.ts';
import { imageUpload } from '../helpers/multipart.ts';
import { createPost, follow, like } from '../helpers/social.ts';
import { photo } from '../media/fixtures.ts';
import { queryRows } from '../security/support.ts';

/** Every column of every table that names a person, as `table.column`. */
const PERSON_COLUMNS = [
  'users.id',
  'sessions.user_id',
  'password_resets.user_id',
  'posts.author_id',
  'likes.user_id',
  'bookmarks.user_id',
  'follows.follower_id',
  'follows.followee_id',
  'follow_requests.requester_id',
  'follow_requests.target_id',
  'notifications.user_id',
  'notifications.actor_id',
  'media_attachments.owner_id',
  'post_hashtags.author_id',
  'post_mentions.user_id',
  'blocks.blocker_id',
  'blocks.blocked_id',
  'mutes.muter_id',
  'mutes.muted_id',
  'muted_words.user_id',
  'followed_tags.user_id',
  'reports.reporter_id',
  'reports.subject_user_id',
  'reports.resolved_by',
  'audit_log.moderator_id',
  'audit_log.subject_user_id',
  'oauth_codes.user_id',
  'oauth_tokens.user_id',
  'lists.owner_id',
  'list_members.owner_id',
  'list_members.user_id',
  'conversations.user_id',
  'poll_votes.user_id',
  'drafts.author_id',
  'scheduled_posts.author_id',
  'remote_actors.user_id',
  'actor_keys.user_id',
  'two_factor.user_id',
  'recovery_codes.user_id',
  'passkeys.user_id',
  'domain_blocks.created_by',
  'webauthn_challenges.user_id',
  'push_subscriptions.user_id',
];

describe('the account as a whole', () => {
  const ctx = useTestApp();

  /** Alice with a bit of everything: an image post, a reply, likes, a repost, follows, a bookmark, a block, a mute, a conversation. */
  async function busyAlice() {
    const trio = await seedTrio(ctx);
    const { clients, bob, carol } = trio;
    const upload = await clients.alice.upload(imageUpload(await photo(320, 200), 'a red square'));
    expect(upload.statusCode, upload.body).toBe(201);
    const image = upload.json<MediaAttachment>();
    const res = await clients.alice.post('/api/posts', { text: 'my #garden', media: [{ id: image.id }] });
    expect(res.statusCode, res.body).toBe(201);
    const aliceImagePost = res.json<Post>();
    const bobsPost = await createPost(clients.bob, 'bob writes');
    await createPost(clients.alice, 'alice replies to bob', bobsPost.id);
    await like(clients.alice, bobsPost.id);
    expect((await clients.alice.put(`/api/posts/${bobsPost.id}/repost`)).statusCode).toBe(200);
    expect((await clients.alice.put(`/api/posts/${bobsPost.id}/bookmark`)).statusCode).toBe(200);
    await follow(clients.alice, bob.id);
    await follow(clients.bob, trio.alice.id);
    // Her list with bob on it, and bob's with her on it.
    for (const [owner, member] of [
      [clients.alice, bob.id],
      [clients.bob, trio.alice.id],
    ] as const) {
      const list = (await owner.post('/api/lists', { title: 'Friends' })).json<{ id: string }>().id;
      expect((await owner.put(`/api/lists/${list}/members/${member}`)).statusCode).toBe(200);
    }
    await like(clients.bob, aliceImagePost.id);
    const bobsReply = await createPost(clients.bob, 'bob replies to alice', aliceImagePost.id);
    // A conversation: hers, and bob's with her in it.
    const secret = await clients.bob.post('/api/posts', { text: '@alice just us', visibility: 'direct' });
    expect(secret.statusCode, secret.body).toBe(201);
    expect((await clients.alice.put(`/api/users/${carol.id}/block`)).statusCode).toBe(200);
    expect((await clients.carol.put(`/api/users/${bob.id}/mute`, {})).statusCode).toBe(200);
    expect((await clients.alice.post('/api/muted-words', { phrase: 'noise' })).statusCode).toBe(201);
    // A request of hers waits on a locked account, and one waits on her (she approves followers).
    const dana = await insertUser(ctx.db, { username: 'dana' });
    const danaClient = await new TestClient(ctx).signInAs(dana.id);
    expect((await danaClient.patch('/api/edit', { locked: true })).statusCode).toBe(200);
    expect(await follow(clients.alice, dana.id)).toMatchObject({ followRequested: true });
    expect((await clients.alice.patch('/api/edit', { locked: true })).statusCode).toBe(200);
    expect(await follow(danaClient, trio.alice.id)).toMatchObject({ followRequested: true });
    expect((await clients.alice.put('/api/hashtags/birds/follow')).statusCode).toBe(200);
    // She reports and is reported; as a moderator she closed a report (the audit log names her).
    expect((await clients.alice.post(`/api/users/${bob.id}/report`, { category: 'spam' })).statusCode).toBe(201);
    const aboutHer = await clients.bob.post(`/api/posts/${aliceImagePost.id}/report`, { category: 'spam' });
    expect(aboutHer.statusCode).toBe(201);
    const byCarol = await clients.carol.post(`/api/users/${bob.id}/report`, { category: 'spam' });
    await queryRows(ctx.db, `UPDATE users SET role = 'moderator' WHERE id = ${trio.alice.id}`);
    ctx.app.services.events.resync(); // her cached session carries the role
    const dismissed = await clients.alice.post(`/api/moderation/reports/${byCarol.json().id}/resolve`, {
      action: 'dismiss',
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    return { ...trio, image, aliceImagePost, bobsPost, bobsReply };
  }

  it('deletes the account with its password: no row of theirs is left, others’ counts are right, files go', async () => {
    const { alice, bob, clients, image, bobsPost, bobsReply } = await busyAlice();
    const wrong = await clients.alice.request('DELETE', '/api/account', { password: 'not it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'password' });
    expect((await clients.alice.get('/api/current')).statusCode).toBe(200);

    const res = await clients.alice.request('DELETE', '/api/account', { password: PASSWORD });
    expect(res.statusCode, res.body).toBe(204);
    await ctx.app.services.jobs.drain();

    // Every foreign key to users is one of the columns checked (a new table cannot be forgotten).
    const keys = await queryRows(
      ctx.db,
      `SELECT con.conrelid::regclass::text || '.' || a.attname AS c FROM pg_constraint con
         JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey)
        WHERE con.contype = 'f' AND con.confrelid = 'users'::regclass`,
    );
    expect(PERSON_COLUMNS).toEqual(expect.arrayContaining(keys.map((k) => k.c)));
    for (const column of PERSON_COLUMNS) {
      const [table, name] = column.split('.') as [string, string];
      const rows = await queryRows(ctx.db, `SELECT count(*)::int AS n FROM ${table} WHERE ${name} = ${alice.id}`);
      expect(rows[0]?.n, column).toBe(0);
    }
    // Every counter equals what it counts.
    const wrongCounts = await queryRows(
      ctx.db,
      `SELECT p.id FROM posts p
        WHERE p.like_count <> (SELECT count(*) FROM likes l WHERE l.post_id = p.id)
           OR p.reply_count <> (SELECT count(*) FROM posts c WHERE c.parent_id = p.id)
           OR p.repost_count <> (SELECT count(*) FROM posts r WHERE r.repost_of_id = p.id)
       UNION ALL
       SELECT u.id FROM users u
        WHERE u.followers_count <> (SELECT count(*) FROM follows f WHERE f.followee_id = u.id)
           OR u.following_count <> (SELECT count(*) FROM follows f WHERE f.follower_id = u.id)`,
    );
    expect(wrongCounts).toEqual([]);
    const bobsNow = (await clients.bob.get(`/api/posts/${bobsPost.id}`)).json<Post>();
    expect(bobsNow).toMatchObject({ likeCount: 0, replyCount: 0, repostCount: 0 });
    expect((await clients.bob.get(`/api/users/${bob.id}`)).json()).toMatchObject({
      followersCount: 0,
      followingCount: 0,
    });
    // Bob's reply to her post stays, now starting its own conversation.
    expect((await clients.bob.get(`/api/posts/${bobsReply.id}`)).json()).toMatchObject({ parentId: null });
    // Her images' files are gone; her session is over; her email can register again.
    const key = image.url.split('/').pop()!;
    expect(existsSync(path.join(ctx.config.mediaDir, key))).toBe(false);
    expect((await clients.alice.get('/api/current')).statusCode).toBe(401);
    expect((await clients.alice.get(`/api/users/${alice.id}`)).statusCode).toBe(404);
  });

  it('exports a zip: archive.json with profile, posts (and their images), follows, likes, bookmarks; the image files', async () => {
    const { clients, alice, image, bobsPost } = await busyAlice();
    const res = await clients.alice.get('/api/account/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="pipit-alice-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const archive = JSON.parse(strFromU8(files['archive.json']!));
    expect(archive).toMatchObject({
      format: 'pipit-archive',
      version: 1,
      profile: { id: String(alice.id), username: 'alice', email: 'alice@example.com' },
      following: [{ username: 'bob' }],
      followers: [{ username: 'bob' }],
      likes: [{ postId: bobsPost.id }],
      bookmarks: [{ postId: bobsPost.id }],
      mutedWords: ['noise'],
    });
    const texts = archive.posts.map((p: { text: string }) => p.text);
    expect(texts).toEqual(['my #garden', 'alice replies to bob', '']);
    const withImage = archive.posts[0];
    expect(withImage.images).toHaveLength(1);
    const file = withImage.images[0].file as string;
    expect(file).toBe(`media/${image.url.split('/').pop()}`);
    expect(files[file]?.byteLength).toBeGreaterThan(100);
    expect(archive.posts[2]).toMatchObject({ repostOf: bobsPost.id });
    // Nothing of anyone else's private: no other email, no password hash.
    const json = strFromU8(files['archive.json']!);
    expect(json).not.toContain('bob@example.com');
    expect(json).not.toContain('$argon2');
  });

  it('visitors get 401 for both; deleting needs a password in the body', async () => {
    const { clients } = await seedTrio(ctx);
    const visitor: TestClient = clients.visitor;
    expect((await visitor.get('/api/account/export')).statusCode).toBe(401);
    const del = await visitor.request('DELETE', '/api/account', { password: PASSWORD });
    expect(del.statusCode).toBe(401);
    const missing = await clients.alice.request('DELETE', '/api/account', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'password' });
    expect((await clients.alice.get('/api/current')).statusCode).toBe(200);
  });
});
