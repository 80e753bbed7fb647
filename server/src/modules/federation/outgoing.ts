import type { Context, Federation, KvKey, KvStore } from '@fedify/fedify';
import {
  Accept,
  Create,
  Delete,
  Endpoints,
  Follow,
  PUBLIC_COLLECTION,
  Reject,
  Tombstone,
  Undo,
  Update,
} from '@fedify/vocab';
import { extractHashtags } from '@pipit/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { FederationPort } from '../../lib/federation-link.ts';
import * as repo from './federation.repository.ts';
import { type NoteMention, noteOf } from './federation.ts';

/** Where the id of a Follow is kept: ours to a remote person (for its Undo), theirs to a member (for the answer). */
export const followKey = (direction: 'out' | 'in', followerId: number, followeeId: number): KvKey => [
  'pipit',
  `follow-${direction}`,
  String(followerId),
  String(followeeId),
];

/** A follow's activity id: under the follower's actor, `#follows/<followee>/<uuid>` (parsed back from an Accept). */
export function followIdOf(ctx: Context<void>, followerId: number, followeeId: number): URL {
  return new URL(`${ctx.getActorUri(String(followerId)).href}#follows/${followeeId}/${crypto.randomUUID()}`);
}

/** The member and the person followed, from one of our Follow ids (an Accept's or Reject's object); else null. */
export function parseFollowId(publicUrl: string, id: URL | null): { followerId: number; followeeId: number } | null {
  if (!id || id.origin !== new URL(publicUrl).origin) return null;
  const path = /^\/users\/([1-9]\d{0,15})$/.exec(id.pathname);
  const hash = /^#follows\/([1-9]\d{0,15})\/[0-9a-f-]{36}$/.exec(id.hash);
  if (!path || !hash) return null;
  return { followerId: Number(path[1]), followeeId: Number(hash[1]) };
}

/**
 * The federation's side of lib/federation-link.ts: each call reads who is concerned, and when someone
 * elsewhere is, enqueues the activity (Fedify signs it with the member's key and delivers it through
 * the durable queue, retried with backoff). Called after the change committed; failures are logged,
 * never thrown at the member's request, which has already succeeded.
 */
export class OutgoingFederation implements FederationPort {
  constructor(
    private readonly federation: Federation<void>,
    private readonly db: Database,
    private readonly kv: KvStore,
    private readonly publicUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Work still under way (tests wait for it before running the queue). */
  private readonly pending = new Set<Promise<void>>();

  /** Resolves once every call made so far has enqueued what it sends. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private run(what: string, work: () => Promise<void>): void {
    const task = work()
      .catch((error: unknown) => this.log.error({ err: error }, `federation: ${what} was not sent`))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  private context(): Context<void> {
    return this.federation.createContext(new URL(this.publicUrl), undefined);
  }

  followed(followerId: number, followeeId: number): void {
    this.run('a Follow', async () => {
      const remote = await repo.findRemoteActor(this.db, followeeId);
      if (!remote || (await repo.findLocalActor(this.db, followerId)) === null) return;
      const ctx = this.context();
      const id = followIdOf(ctx, followerId, followeeId);
      await this.kv.set(followKey('out', followerId, followeeId), id.href);
      await ctx.sendActivity(
        { identifier: String(followerId) },
        recipientOf(remote),
        new Follow({ id, actor: ctx.getActorUri(String(followerId)), object: new URL(remote.uri) }),
        { orderingKey: `follow:${followerId}:${followeeId}` },
      );
    });
  }

  unfollowed(followerId: number, followeeId: number): void {
    this.run('an Undo(Follow)', async () => {
      const remote = await repo.findRemoteActor(this.db, followeeId);
      if (!remote || (await repo.findLocalActor(this.db, followerId)) === null) return;
      const ctx = this.context();
      const key = followKey('out', followerId, followeeId);
      const kept = await this.kv.get<string>(key);
      await this.kv.delete(key);
      const actor = ctx.getActorUri(String(followerId));
      const follow = new Follow({
        id: kept ? new URL(kept) : followIdOf(ctx, followerId, followeeId),
        actor,
        object: new URL(remote.uri),
      });
      await ctx.sendActivity(
        { identifier: String(followerId) },
        recipientOf(remote),
        new Undo({ id: new URL(`${actor.href}#undo/${crypto.randomUUID()}`), actor, object: follow }),
        { orderingKey: `follow:${followerId}:${followeeId}` },
      );
    });
  }

  answeredFollow(memberId: number, requesterId: number, accepted: boolean): void {
    this.run(accepted ? 'an Accept' : 'a Reject', async () => {
      const remote = await repo.findRemoteActor(this.db, requesterId);
      if (!remote || (await repo.findLocalActor(this.db, memberId)) === null) return;
      const ctx = this.context();
      const key = followKey('in', requesterId, memberId);
      const followId = await this.kv.get<string>(key);
      await this.kv.delete(key);
      const actor = ctx.getActorUri(String(memberId));
      const follow = new Follow({ id: followId ? new URL(followId) : null, actor: new URL(remote.uri), object: actor });
      const Answer = accepted ? Accept : Reject;
      await ctx.sendActivity(
        { identifier: String(memberId) },
        recipientOf(remote),
        new Answer({
          id: new URL(`${actor.href}#${accepted ? 'accept' : 'reject'}/${crypto.randomUUID()}`),
          actor,
          object: follow,
        }),
      );
    });
  }

  postCreated(postId: number): void {
    this.run('a Create(Note)', () => this.sendNote(postId, 'create'));
  }

  postUpdated(postId: number): void {
    this.run('an Update(Note)', () => this.sendNote(postId, 'update'));
  }

  postDeleted(postId: number, authorId: number): void {
    this.run('a Delete', async () => {
      // The post is gone: whoever may have it hears of it — the author's followers elsewhere.
      const followers = await repo.findRemoteFollowers(this.db, authorId);
      if (followers.length === 0 || (await repo.findLocalActor(this.db, authorId)) === null) return;
      const ctx = this.context();
      const author = String(authorId);
      const noteId = new URL(`/posts/${postId}`, this.publicUrl);
      await ctx.sendActivity(
        { identifier: author },
        followers.map(recipientOf),
        new Delete({
          id: new URL(`${noteId.href}#delete`),
          actor: ctx.getActorUri(author),
          object: new Tombstone({ id: noteId }),
          to: PUBLIC_COLLECTION,
        }),
        { preferSharedInbox: true, orderingKey: `post:${postId}` },
      );
    });
  }

  /**
   * A member's post (or its edit) to whoever elsewhere is in its audience: their followers elsewhere
   * unless it is direct, and the people elsewhere it mentions or answers. One delivery per server
   * (shared inboxes); the post's ordering key keeps its Create, Updates and Delete in order.
   */
  private async sendNote(postId: number, kind: 'create' | 'update'): Promise<void> {
    const post = await repo.findFederatedPost(this.db, postId);
    if (!post) return;
    const people = await repo.findMentionedPeople(this.db, postId);
    const remoteMentioned = people.filter(
      (p): p is typeof p & { uri: string; inbox: string } => p.uri !== null && p.inbox !== null,
    );
    const followers = post.visibility === 'direct' ? [] : await repo.findRemoteFollowers(this.db, post.authorId);
    const recipients = [...followers, ...remoteMentioned];
    if (recipients.length === 0) return;
    const ctx = this.context();
    const author = String(post.authorId);
    const host = new URL(this.publicUrl).host;
    const mentions: NoteMention[] = people.map((p) => ({
      uri: p.uri ? new URL(p.uri) : ctx.getActorUri(String(p.userId)),
      handle: `@${p.username}@${p.domain ?? host}`,
    }));
    const hashtags = post.visibility === 'direct' ? [] : extractHashtags(post.text);
    const note = noteOf(ctx, this.publicUrl, author, post, { mentions, hashtags });
    const noteId = note.id as URL;
    const addressing = { tos: note.toIds, ccs: note.ccIds };
    const activity =
      kind === 'create'
        ? new Create({
            id: new URL(`${noteId.href}#create`),
            actor: ctx.getActorUri(author),
            object: note,
            published: note.published,
            ...addressing,
          })
        : new Update({
            id: new URL(`${noteId.href}#update/${post.editedAt?.getTime() ?? Date.now()}`),
            actor: ctx.getActorUri(author),
            object: note,
            updated: note.updated,
            ...addressing,
          });
    await ctx.sendActivity({ identifier: author }, recipients.map(recipientOf), activity, {
      preferSharedInbox: true,
      orderingKey: `post:${postId}`,
    });
  }
}

/** A remote person as Fedify's sendActivity takes a recipient (their inbox, and their server's shared one). */
export function recipientOf(remote: { uri: string; inbox: string; sharedInbox: string | null }) {
  return {
    id: new URL(remote.uri),
    inboxId: new URL(remote.inbox),
    endpoints: remote.sharedInbox ? new Endpoints({ sharedInbox: new URL(remote.sharedInbox) }) : null,
  };
}
