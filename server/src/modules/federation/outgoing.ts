import type { Context, Federation, KvKey, KvStore, SenderKeyPair } from '@fedify/fedify';
import {
  Accept,
  Announce,
  Block,
  Create,
  Delete,
  Endpoints,
  Flag,
  Follow,
  Like,
  Note,
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
import { findPoll } from '../polls/polls.repository.ts';
import * as repo from './federation.repository.ts';
import { INSTANCE_ACTOR, memberActor, type NoteMention, noteOf } from './federation.ts';

/** Where the id of a Follow is kept: ours to a remote person (for its Undo), theirs to a member (for the answer). */
export const followKey = (direction: 'out' | 'in', followerId: number, followeeId: number): KvKey => [
  'pipit',
  `follow-${direction}`,
  String(followerId),
  String(followeeId),
];

/** Where the id of a member's Like of a post is kept (for its Undo). */
const likeKey = (userId: number, postId: number): KvKey => ['pipit', 'like', String(userId), String(postId)];
/** Where the id of a member's Block of someone elsewhere is kept (for its Undo). */
const blockKey = (userId: number, targetId: number): KvKey => ['pipit', 'block', String(userId), String(targetId)];

/** A fresh id for an activity of a member's: under their actor, `#<kind>/<uuid>`. */
const activityId = (actor: URL, kind: string) => new URL(`${actor.href}#${kind}/${crypto.randomUUID()}`);

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

  liked(userId: number, postId: number): void {
    this.run('a Like', async () => {
      const target = await this.remotelyAuthored(userId, postId);
      if (target) await this.sendOrUndo(userId, likeKey(userId, postId), target.recipient, false, Like, target.object);
    });
  }

  unliked(userId: number, postId: number): void {
    this.run('an Undo(Like)', async () => {
      const target = await this.remotelyAuthored(userId, postId);
      if (target) await this.sendOrUndo(userId, likeKey(userId, postId), target.recipient, true, Like, target.object);
    });
  }

  reposted(userId: number, postId: number, repostId: number): void {
    this.run('an Announce', () => this.sendAnnounce(userId, postId, repostId, false));
  }

  unreposted(userId: number, postId: number, repostId: number): void {
    this.run('an Undo(Announce)', () => this.sendAnnounce(userId, postId, repostId, true));
  }

  blocked(userId: number, targetId: number): void {
    this.run('a Block', () => this.sendBlock(userId, targetId, false));
  }

  unblocked(userId: number, targetId: number): void {
    this.run('an Undo(Block)', () => this.sendBlock(userId, targetId, true));
  }

  private async sendBlock(userId: number, targetId: number, undo: boolean): Promise<void> {
    const remote = await repo.findRemoteActor(this.db, targetId);
    if (!remote || (await repo.findLocalActor(this.db, userId)) === null) return;
    const key = blockKey(userId, targetId);
    await this.sendOrUndo(userId, key, recipientOf(remote), undo, Block, new URL(remote.uri));
  }

  /**
   * A member's Like or Block of `object`, sent to `recipient` alone, its id kept under `key` — or (`undo`) its Undo,
   * naming the Like or Block by the id kept (the key then forgotten). One ordering key for both, so an Undo never
   * overtakes what it undoes.
   */
  private async sendOrUndo(
    userId: number,
    key: KvKey,
    recipient: ReturnType<typeof recipientOf>,
    undo: boolean,
    Kind: typeof Like | typeof Block,
    object: URL,
  ): Promise<void> {
    const ctx = this.context();
    const actor = ctx.getActorUri(String(userId));
    const to = recipient.id;
    let id: URL | null;
    if (undo) {
      const kept = await this.kv.get<string>(key);
      await this.kv.delete(key);
      id = kept ? new URL(kept) : null;
    } else {
      id = activityId(actor, Kind === Like ? 'likes' : 'blocks');
      await this.kv.set(key, id.href);
    }
    const activity = new Kind({ id, actor, object, to });
    await ctx.sendActivity(
      { identifier: String(userId) },
      recipient,
      undo ? new Undo({ id: activityId(actor, 'undo'), actor, object: activity, to }) : activity,
      { orderingKey: key.join(':') },
    );
  }

  profileUpdated(userId: number): void {
    this.run('an Update(Person)', async () => {
      const user = await repo.findLocalActor(this.db, userId);
      const followers = user ? await repo.findRemoteFollowers(this.db, userId) : [];
      if (!user || followers.length === 0) return;
      const ctx = this.context();
      const identifier = String(userId);
      const person = await memberActor(ctx, this.publicUrl, identifier, user);
      await ctx.sendActivity(
        { identifier },
        followers.map(recipientOf),
        new Update({
          id: activityId(person.id as URL, 'updates'),
          actor: person.id,
          object: person,
          to: PUBLIC_COLLECTION,
          ccs: [ctx.getFollowersUri(identifier)],
        }),
        { preferSharedInbox: true, orderingKey: `actor:${userId}` },
      );
    });
  }

  async accountDeleting(userId: number): Promise<() => void> {
    const nothing = () => {};
    if ((await repo.findLocalActor(this.db, userId)) === null) return nothing;
    const followers = await repo.findRemoteFollowers(this.db, userId);
    if (followers.length === 0) return nothing;
    const ctx = this.context();
    const identifier = String(userId);
    // The keys go with the account: they are read now and sign the Delete after it has gone.
    const keys = (await ctx.getActorKeyPairs(identifier)).map((pair) => ({
      keyId: pair.keyId,
      privateKey: (pair as unknown as { privateKey: SenderKeyPair['privateKey'] }).privateKey,
    }));
    const actor = ctx.getActorUri(identifier);
    const followersUri = ctx.getFollowersUri(identifier);
    return () =>
      this.run('a Delete(Person)', async () => {
        await ctx.sendActivity(
          keys,
          followers.map(recipientOf),
          new Delete({
            id: new URL(`${actor.href}#delete`),
            actor,
            object: actor,
            to: PUBLIC_COLLECTION,
            ccs: [followersUri],
          }),
          { preferSharedInbox: true, orderingKey: `actor:${userId}` },
        );
      });
  }

  voted(userId: number, postId: number, choices: readonly number[]): void {
    this.run('a vote', async () => {
      const target = await this.remotelyAuthored(userId, postId);
      const poll = target ? await findPoll(this.db, postId) : null;
      if (!target || !poll) return;
      const ctx = this.context();
      const actor = ctx.getActorUri(String(userId));
      // As Mastodon votes: one Create per option, of a Note named after it answering the Question, to its author only.
      for (const choice of choices) {
        const title = poll.options[choice];
        if (title === undefined) continue;
        const id = activityId(actor, 'votes');
        await ctx.sendActivity(
          { identifier: String(userId) },
          target.recipient,
          new Create({
            id: new URL(`${id.href}/activity`),
            actor,
            object: new Note({
              id,
              attribution: actor,
              name: title,
              replyTarget: target.object,
              to: target.recipient.id,
            }),
            to: target.recipient.id,
          }),
          { orderingKey: `vote:${userId}:${postId}` },
        );
      }
    });
  }

  reportForwarded(reportId: number): void {
    this.run('a Flag', async () => {
      const report = await repo.findForwardedReport(this.db, reportId);
      if (!report) return;
      const ctx = this.context();
      // From the server itself (its instance actor), as Mastodon forwards: the reporter is never named.
      const actor = ctx.getActorUri(INSTANCE_ACTOR);
      const objects = [new URL(report.actorUri), ...(report.postUri ? [new URL(report.postUri)] : [])];
      await ctx.sendActivity(
        { identifier: INSTANCE_ACTOR },
        recipientOf({ uri: report.actorUri, inbox: report.inbox, sharedInbox: report.sharedInbox }),
        new Flag({ id: new URL(`${actor.href}#flags/${reportId}`), actor, objects, content: report.comment }),
        { preferSharedInbox: true },
      );
    });
  }

  /**
   * A post of someone elsewhere that a member acts on (a like): its ActivityPub id and its author as a
   * recipient; null when the member is not one (a remote person's like, relayed here) or the author is a member.
   */
  private async remotelyAuthored(userId: number, postId: number) {
    const post = await repo.findPostTarget(this.db, postId);
    if (!post?.uri || !post.author) return null;
    if ((await repo.findLocalActor(this.db, userId)) === null) return null;
    return { object: new URL(post.uri), recipient: recipientOf(post.author) };
  }

  /**
   * A member's repost as an Announce (or its Undo): to everyone, their followers in cc and the post's author when
   * elsewhere; delivered to their followers elsewhere and that author. Its id names the repost (`#announces/<id>`),
   * so the Undo names the same Announce without anything kept.
   */
  private async sendAnnounce(userId: number, postId: number, repostId: number, undo: boolean): Promise<void> {
    const post = await repo.findPostTarget(this.db, postId);
    if (!post || (await repo.findLocalActor(this.db, userId)) === null) return;
    const { author } = post;
    const followers = await repo.findRemoteFollowers(this.db, userId);
    const recipients = [...followers, ...(author ? [author] : [])];
    if (recipients.length === 0) return;
    const ctx = this.context();
    const identifier = String(userId);
    const actor = ctx.getActorUri(identifier);
    const object = post.uri ? new URL(post.uri) : ctx.getObjectUri(Note, { id: String(post.id) });
    const addressing = {
      to: PUBLIC_COLLECTION,
      ccs: [ctx.getFollowersUri(identifier), ...(author ? [new URL(author.uri)] : [])],
    };
    const announce = new Announce({ id: new URL(`${actor.href}#announces/${repostId}`), actor, object, ...addressing });
    await ctx.sendActivity(
      { identifier },
      recipients.map(recipientOf),
      undo ? new Undo({ id: activityId(actor, 'undo'), actor, object: announce, ...addressing }) : announce,
      { preferSharedInbox: true, orderingKey: `announce:${repostId}` },
    );
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
    const images = await repo.findPostImages(this.db, postId);
    const poll = await repo.findFederatedPoll(this.db, postId);
    const note = noteOf(ctx, this.publicUrl, author, post, { mentions, hashtags, images, poll });
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
            // Each Update its own id: an edit, and a poll's end (the same edit time), are different activities.
            id: new URL(`${noteId.href}#update/${crypto.randomUUID()}`),
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
