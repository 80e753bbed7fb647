import { strToU8, type Zippable, zipSync } from 'fflate';
import type { Database } from '../../db/client.ts';
import { commitThenPublish, type EventBus } from '../../lib/events.ts';
import type { FederationLink } from '../../lib/federation-link.ts';
import type { Jobs } from '../../lib/jobs.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { mediaUrl } from '../media/media.service.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { findCurrentUser } from '../users/users.repository.ts';
import * as repo from './account.repository.ts';

/** The archive's format; bumped when its shape changes. */
const ARCHIVE_VERSION = 1;

/**
 * The member's account as a whole: take it with you (an archive of everything that is theirs) or
 * delete it (with every row of theirs and the images nothing else uses).
 */
export class AccountService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly auth: AuthService,
    private readonly media: MediaService,
    private readonly jobs: Jobs,
    /** Federation: followers elsewhere hear that the account is gone (lib/federation-link.ts). */
    private readonly federation: FederationLink | null = null,
  ) {}

  /**
   * Deletes the account, the password as proof (400 on `password` otherwise): in one transaction the
   * counters of others that counted its rows are taken down and the account goes, its posts, likes,
   * follows, bookmarks, notifications, sessions, blocks and mutes with it (foreign keys cascade).
   * Its image files are then deleted unless something else still uses them.
   */
  async delete(viewer: SessionUser, password: string): Promise<void> {
    await this.auth.confirmPassword(viewer, password, 'password', 'The password is not right.');
    // Read before the account goes (its keys sign the Delete); sent once the deletion has committed.
    const announceDeletion = (await this.federation?.current?.accountDeleting(viewer.userId)) ?? null;
    const files = await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      if (announceDeletion) outbox.afterCommit(announceDeletion);
      const found = await repo.findAccountFiles(tx, viewer.userId);
      await repo.uncountAccount(tx, viewer.userId);
      await repo.deleteAccount(tx, viewer.userId);
      // Sessions end at once (cached ones too); kept pages and caches showing their posts or name go.
      outbox.add({ type: 'sessions.ended', userId: viewer.userId }, { type: 'user.updated', userId: viewer.userId });
      return [...found.images, ...found.keys.map(mediaUrl)];
    });
    if (files.length > 0) this.jobs.run('media.collect', () => this.media.collect(files));
  }

  /**
   * Someone elsewhere whose own server says their account is gone (federation): what was kept of them goes as a
   * member's account would — the counters that counted them first, then every row of theirs. False when the id
   * is not someone elsewhere (a member's account is only ever deleted by its member, above).
   */
  async forgetRemote(userId: number): Promise<boolean> {
    return commitThenPublish(this.db, this.events, async (tx, outbox) => {
      if (!(await repo.isRemoteUser(tx, userId))) return false;
      await repo.uncountAccount(tx, userId);
      await repo.deleteAccount(tx, userId);
      outbox.add({ type: 'sessions.ended', userId }, { type: 'user.updated', userId });
      return true;
    });
  }

  /**
   * The member's data as a zip: `archive.json` (profile, posts with their images' file names,
   * following, followers, likes, bookmarks, muted words) and `media/` (every image file of theirs).
   */
  async export(viewer: SessionUser): Promise<Uint8Array> {
    const me = await findCurrentUser(this.db, viewer.userId);
    const { ownPosts, following, followers, liked, kept, words } = await repo.findArchive(this.db, viewer.userId);
    const keyOf = (url: string | null) => (url?.startsWith('/media/') ? url.slice('/media/'.length) : null);
    const archive = {
      format: 'pipit-archive',
      version: ARCHIVE_VERSION,
      exportedAt: new Date().toISOString(),
      profile: me && {
        id: String(me.id),
        username: me.username,
        name: me.name,
        email: me.email,
        bio: me.bio,
        createdAt: me.createdAt.toISOString(),
        profileImage: keyOf(me.profileImage) && `media/${keyOf(me.profileImage)}`,
        coverImage: keyOf(me.coverImage) && `media/${keyOf(me.coverImage)}`,
      },
      posts: ownPosts.map((p) => ({
        id: p.id,
        text: p.text,
        createdAt: new Date(p.created_at).toISOString(),
        replyTo: p.parent_id,
        quoteOf: p.quote_of_id,
        visibility: p.visibility,
        repostOf: p.repost_of_id,
        images: (p.media ?? []).map((m) => ({ file: `media/${m.key}`, alt: m.alt, width: m.width, height: m.height })),
      })),
      following: following.map((f) => ({ id: String(f.id), username: f.username, name: f.name, since: f.since })),
      followers: followers.map((f) => ({ id: String(f.id), username: f.username, name: f.name, since: f.since })),
      likes: liked.map((l) => ({ postId: String(l.postId), at: l.at })),
      bookmarks: kept.map((b) => ({ postId: String(b.postId), at: b.at })),
      mutedWords: words.map((w) => w.phrase),
    };
    const files: Zippable = { 'archive.json': [strToU8(JSON.stringify(archive, null, 2)), { level: 6 }] };
    const keys = new Set<string>();
    for (const url of [me?.profileImage ?? null, me?.coverImage ?? null]) if (keyOf(url)) keys.add(keyOf(url)!);
    for (const p of ownPosts) for (const m of p.media ?? []) keys.add(m.key);
    for (const key of keys) {
      const file = await this.media.open(key);
      if (!file) continue;
      const bytes = Buffer.concat((await file.body.toArray()) as Buffer[]);
      // Images are compressed already: stored as they are.
      files[`media/${key}`] = [new Uint8Array(bytes), { level: 0 }];
    }
    return zipSync(files);
  }
}
