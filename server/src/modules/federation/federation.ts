import {
  type Context,
  createFederation,
  type DocumentLoader,
  exportJwk,
  type Federation,
  type KvStore,
  type MessageQueue,
} from '@fedify/fedify';
import {
  Accept,
  type Actor,
  Application,
  Create,
  Endpoints,
  Follow,
  getTypeId,
  Image,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Reject,
  Undo,
} from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { UserId } from '../../lib/ids.ts';
import type { FollowsService } from '../follows/follows.service.ts';
import { absolute, textToHtml } from '../mastodon/html.ts';
import * as repo from './federation.repository.ts';
import type { ActorKeys } from './keys.ts';

/** The instance actor's identifier (signed fetches; WebFinger `acct:<host>@<host>`). Members' are their ids. */
export const INSTANCE_ACTOR = 'instance';
/** Items per page of an outbox. */
const OUTBOX_PAGE = 20;

/** A member's identifier (their user id, digits only) as a number, or null. */
export function memberIdOf(identifier: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(identifier)) return null;
  const id = Number(identifier);
  return Number.isSafeInteger(id) ? id : null;
}

export interface FederationDeps {
  db: Database;
  publicUrl: string;
  kv: KvStore;
  queue: MessageQueue;
  keys: ActorKeys;
  follows: FollowsService;
  log: FastifyBaseLogger;
  /** Tests only: let Fedify fetch from and deliver to 127.0.0.1 (its SSRF guard refuses private addresses). */
  allowPrivateAddress?: boolean;
  /** Tests only: how remote documents are fetched. */
  documentLoader?: DocumentLoader;
}

/**
 * The ActivityPub face of Pipit, built with Fedify: actors for members (`/users/{id}`, the profile
 * page's own URL) and the instance, WebFinger, outboxes of public posts, followers / following /
 * featured collections (counts), notes, and the inbox listeners (Follow, Undo(Follow) so far). Queued
 * work (deliveries, incoming activities) goes through `queue`; caches and idempotence through `kv`.
 */
export function buildFederation(deps: FederationDeps): Federation<void> {
  const { db, publicUrl, keys, follows, log } = deps;
  const federation = createFederation<void>({
    kv: deps.kv,
    queue: deps.queue,
    // The app starts the queue itself (FederationService.start), after every listener is set.
    manuallyStartQueue: true,
    origin: publicUrl,
    allowPrivateAddress: deps.allowPrivateAddress ?? false,
    ...(deps.documentLoader ? { documentLoaderFactory: () => deps.documentLoader as DocumentLoader } : {}),
    userAgent: { software: 'Pipit' },
    onOutboxError: (error, activity) => log.warn({ err: error, activity: activity?.id?.href }, 'delivery failed'),
  });

  const actorPath = '/users/{identifier}';
  federation
    .setActorDispatcher(actorPath, async (ctx, identifier) => {
      if (identifier === INSTANCE_ACTOR) return instanceActor(ctx, publicUrl);
      const id = memberIdOf(identifier);
      if (id === null) return null;
      const user = await repo.findLocalActor(db, id);
      if (!user) return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: user.username,
        name: user.name,
        summary: textToHtml(user.bio),
        url: new URL(`/users/${id}`, publicUrl),
        icon: user.profileImage ? new Image({ url: new URL(absolute(publicUrl, user.profileImage)) }) : null,
        image: user.coverImage ? new Image({ url: new URL(absolute(publicUrl, user.coverImage)) }) : null,
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        following: ctx.getFollowingUri(identifier),
        featured: ctx.getFeaturedUri(identifier),
        publicKey: pairs[0]?.cryptographicKey ?? null,
        assertionMethods: pairs.map((pair) => pair.multikey),
        manuallyApprovesFollowers: user.locked,
        discoverable: true,
        published: toInstant(user.createdAt),
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      if (identifier === INSTANCE_ACTOR) return keys.pairsOf(null);
      const id = memberIdOf(identifier);
      // Keys are made for members only: never for an id nobody has.
      if (id === null || !(await repo.findLocalActor(db, id))) return [];
      return keys.pairsOf(id);
    })
    .mapHandle(async (ctx, username) => {
      if (username.toLowerCase() === ctx.host.toLowerCase()) return INSTANCE_ACTOR;
      const id = await repo.findLocalIdByUsername(db, username);
      return id === null ? null : String(id);
    });

  federation
    .setOutboxDispatcher('/users/{identifier}/outbox', async (ctx, identifier, cursor) => {
      const id = memberIdOf(identifier);
      if (id === null || !(await repo.findLocalActor(db, id))) return null;
      const before = cursor === null || cursor === '' ? null : memberIdOf(cursor);
      const rows = await repo.findOutboxPage(db, id, before, OUTBOX_PAGE);
      const items = rows.map((post) => {
        const note = noteOf(ctx, publicUrl, identifier, post);
        return new Create({
          id: new URL(`${note.id?.href}#create`),
          actor: ctx.getActorUri(identifier),
          object: note,
          published: note.published,
          to: PUBLIC_COLLECTION,
          ccs: [ctx.getFollowersUri(identifier)],
        });
      });
      const last = rows.at(-1);
      return { items, nextCursor: rows.length === OUTBOX_PAGE && last ? String(last.id) : null };
    })
    .setFirstCursor(async (_ctx, identifier) => {
      const id = memberIdOf(identifier);
      return id !== null && (await repo.findLocalActor(db, id)) ? '' : null;
    })
    .setCounter(async (_ctx, identifier) => {
      const id = memberIdOf(identifier);
      return id === null ? null : repo.countOutbox(db, id);
    });

  // Followers and following: counts only (Pipit's lists are on the profile pages); featured: no pins yet.
  federation
    .setFollowersDispatcher('/users/{identifier}/followers', async (_ctx, identifier) =>
      memberIdOf(identifier) === null ? null : { items: [] },
    )
    .setCounter(async (_ctx, identifier) => {
      const id = memberIdOf(identifier);
      return id === null ? null : ((await repo.findLocalActor(db, id))?.followersCount ?? null);
    });
  federation
    .setFollowingDispatcher('/users/{identifier}/following', async (_ctx, identifier) =>
      memberIdOf(identifier) === null ? null : { items: [] },
    )
    .setCounter(async (_ctx, identifier) => {
      const id = memberIdOf(identifier);
      return id === null ? null : ((await repo.findLocalActor(db, id))?.followingCount ?? null);
    });
  federation.setFeaturedDispatcher('/users/{identifier}/featured', async (_ctx, identifier) => {
    const id = memberIdOf(identifier);
    return id !== null && (await repo.findLocalActor(db, id)) ? { items: [] } : null;
  });

  federation.setObjectDispatcher(Note, '/posts/{id}', async (ctx, values) => {
    const id = memberIdOf(values.id);
    if (id === null) return null;
    const post = await repo.findPublicPost(db, id);
    return post ? noteOf(ctx, publicUrl, String(post.authorId), post, post.visibility) : null;
  });

  federation
    .setInboxListeners('/users/{identifier}/inbox', '/inbox')
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId || !follow.objectId) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== 'actor') return;
      const followeeId = memberIdOf(target.identifier);
      if (followeeId === null || !(await repo.findLocalActor(db, followeeId))) return;
      const actor = await follow.getActor(ctx);
      // The signature was checked to be the actor's (Fedify); the document fetched must be that actor.
      if (!actor?.id || actor.id.href !== follow.actorId.href || !actor.inboxId) return;
      const followerId = await repo.upsertRemoteActor(db, await remoteActorData(actor));
      let outcome: 'following' | 'requested';
      try {
        outcome = await follows.followAs(followerId, followeeId as UserId);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'FORBIDDEN') throw error;
        // Across a block: refused, as a member following would be.
        await ctx.sendActivity(
          { identifier: target.identifier },
          actor,
          new Reject({
            id: replyId(ctx, target.identifier, 'reject'),
            actor: follow.objectId,
            object: bareFollow(follow),
          }),
        );
        return;
      }
      // A request waits for the member's approval (its Accept comes with it: the next slice).
      if (outcome !== 'following') return;
      await ctx.sendActivity(
        { identifier: target.identifier },
        actor,
        new Accept({
          id: replyId(ctx, target.identifier, 'accept'),
          actor: follow.objectId,
          object: bareFollow(follow),
        }),
      );
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      if (!(object instanceof Follow) || !undo.actorId || object.actorId?.href !== undo.actorId.href) return;
      const target = object.objectId ? ctx.parseUri(object.objectId) : null;
      if (target?.type !== 'actor') return;
      const followeeId = memberIdOf(target.identifier);
      const followerId = await repo.findRemoteUserId(db, undo.actorId.href);
      if (followeeId === null || followerId === null) return;
      await follows.unfollowAs(followerId, followeeId as UserId);
    })
    .onError((_ctx, error) => log.warn({ err: error }, 'an incoming activity failed'));

  return federation;
}

/** Fedify's Temporal.Instant of a Date (the polyfill's, typed as the TypeScript library's Temporal). */
function toInstant(date: Date) {
  return Temporal.Instant.from(date.toISOString()) as unknown as NonNullable<
    ConstructorParameters<typeof Note>[0]['published']
  >;
}

/** The Follow answered, by its id, actor and object only (not the actor's document Fedify fetched into it). */
function bareFollow(follow: Follow): Follow {
  return new Follow({ id: follow.id, actor: follow.actorId, object: follow.objectId });
}

/** A fresh id for an activity an actor sends in answer (Accept, Reject): unique, under the actor. */
function replyId(ctx: Context<void>, identifier: string, kind: string): URL {
  return new URL(`${ctx.getActorUri(identifier).href}#${kind}/${crypto.randomUUID()}`);
}

function instanceActor(ctx: Context<void>, publicUrl: string) {
  return ctx.getActorKeyPairs(INSTANCE_ACTOR).then(
    (pairs) =>
      new Application({
        id: ctx.getActorUri(INSTANCE_ACTOR),
        preferredUsername: ctx.host,
        name: 'Pipit',
        summary: 'This server itself: it signs the documents it fetches from other servers.',
        url: new URL('/', publicUrl),
        inbox: ctx.getInboxUri(INSTANCE_ACTOR),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        outbox: ctx.getOutboxUri(INSTANCE_ACTOR),
        publicKey: pairs[0]?.cryptographicKey ?? null,
        assertionMethods: pairs.map((pair) => pair.multikey),
        manuallyApprovesFollowers: true,
      }),
  );
}

/** A post as a Note: public ones to everyone (followers in cc), unlisted ones the other way round. */
function noteOf(
  ctx: Context<void>,
  publicUrl: string,
  authorIdentifier: string,
  post: { id: number; text: string; parentId: number | null; createdAt: Date },
  visibility: string = 'public',
) {
  const id = ctx.getObjectUri(Note, { id: String(post.id) });
  const followers = ctx.getFollowersUri(authorIdentifier);
  const isPublic = visibility === 'public';
  return new Note({
    id,
    attribution: ctx.getActorUri(authorIdentifier),
    content: textToHtml(post.text),
    url: new URL(`/posts/${post.id}`, publicUrl),
    published: toInstant(post.createdAt),
    replyTarget: post.parentId === null ? null : ctx.getObjectUri(Note, { id: String(post.parentId) }),
    to: isPublic ? PUBLIC_COLLECTION : followers,
    ccs: [isPublic ? followers : PUBLIC_COLLECTION],
  });
}

/** What Pipit keeps of a remote actor (`remote_actors` and their `users` row). */
async function remoteActorData(actor: Actor): Promise<repo.RemoteActorData> {
  const uri = (actor.id as URL).href;
  const publicKeys: repo.RemoteActorData['publicKeys'] = [];
  for await (const key of actor.getPublicKeys()) {
    if (key.id && key.publicKey)
      publicKeys.push({ id: key.id.href, type: 'RSASSA-PKCS1-v1_5', jwk: await exportJwk(key.publicKey) });
  }
  for await (const key of actor.getAssertionMethods()) {
    if (key.id && key.publicKey)
      publicKeys.push({ id: key.id.href, type: 'Ed25519', jwk: await exportJwk(key.publicKey) });
  }
  const url = actor.url instanceof URL ? actor.url.href : (actor.url?.href?.href ?? null);
  const name = actor.name?.toString() ?? '';
  return {
    uri,
    type: getTypeId(actor).href.split('#').at(-1)?.split('/').at(-1) ?? 'Person',
    username:
      actor.preferredUsername?.toString() ?? new URL(uri).pathname.split('/').filter(Boolean).at(-1) ?? 'unknown',
    domain: new URL(uri).host.toLowerCase(),
    name: (name || actor.preferredUsername?.toString() || '').slice(0, 100),
    // Pipit shows a bio as plain text: the remote HTML's text (sanitized HTML is the next slice's).
    bio: htmlToText(actor.summary?.toString() ?? '').slice(0, 2_000),
    inbox: (actor.inboxId as URL).href,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    url,
    followersUrl: actor.followersId?.href ?? null,
    publicKeys,
    locked: actor.manuallyApprovesFollowers ?? false,
  };
}

/** The text of a little HTML: paragraphs and breaks as new lines, tags dropped, entities decoded. */
export function htmlToText(html: string): string {
  const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .trim();
}
