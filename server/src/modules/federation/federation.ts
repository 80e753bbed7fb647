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
  Announce,
  Application,
  Block,
  Collection,
  Create,
  Delete,
  Document,
  Endpoints,
  Flag,
  Follow,
  getTypeId,
  Hashtag,
  Image,
  Like,
  Mention,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Question,
  Reject,
  Undo,
  Update,
} from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { UserId } from '../../lib/ids.ts';
import type { Services } from '../../services.ts';
import { absolute, escapeHtml, textToHtml } from '../mastodon/html.ts';
import { mediaUrl } from '../media/media.service.ts';
import type { KeepActor } from './actors.ts';
import * as repo from './federation.repository.ts';
import { remoteHtmlToText } from './html.ts';
import {
  forgetActor,
  type IncomingDeps,
  onAnnounce,
  onBlock,
  onCreate,
  onDelete,
  onFlag,
  onLike,
  onUndo,
  onUpdate,
} from './incoming.ts';
import type { ActorKeys } from './keys.ts';
import { actorGone } from './lookup.ts';
import { followKey, parseFollowId } from './outgoing.ts';

/** The instance actor's identifier (signed fetches; WebFinger `acct:<host>@<host>`). Members' are their ids. */
export const INSTANCE_ACTOR = 'instance';
/** Items per page of an outbox. */
const OUTBOX_PAGE = 20;

/**
 * A remote object fetched signed as the instance actor (servers with authorized fetch ask for it; Fedify's loader
 * refuses private addresses and a document whose id is of another origin than its URL).
 */
export async function fetchAsInstance(ctx: Context<void>, url: URL) {
  return ctx.lookupObject(url, { documentLoader: await ctx.getDocumentLoader({ identifier: INSTANCE_ACTOR }) });
}

/** A member's identifier (their user id, digits only) as a number, or null. */
export function memberIdOf(identifier: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(identifier)) return null;
  const id = Number(identifier);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * The app's services federation acts through: what someone elsewhere does (a like, a block, a report, a vote) goes
 * through the same service as a member's, so the same rules, counts and notifications apply.
 */
export type FederationServices = Pick<
  Services,
  | 'follows'
  | 'posts'
  | 'postEdits'
  | 'safety'
  | 'account'
  | 'moderation'
  | 'polls'
  | 'domainBlocks'
  | 'media'
  | 'events'
>;

export interface FederationDeps {
  db: Database;
  publicUrl: string;
  kv: KvStore;
  queue: MessageQueue;
  keys: ActorKeys;
  services: FederationServices;
  /** An image from elsewhere (actors.ts remoteImageFetcher). */
  fetchImage(url: URL): Promise<Buffer | null>;
  /** Keeps someone elsewhere, their avatar copied (actors.ts actorKeeper). */
  keepActor: KeepActor;
  log: FastifyBaseLogger;
  /** Tests only: let Fedify fetch from and deliver to 127.0.0.1 (its SSRF guard refuses private addresses). */
  allowPrivateAddress?: boolean;
  /** Tests only: how remote documents are fetched. */
  documentLoader?: DocumentLoader;
}

/**
 * The ActivityPub face of Pipit, built with Fedify: actors for members (`/users/{id}`, the profile
 * page's own URL) and the instance, WebFinger, outboxes of public posts, followers / following /
 * featured collections (counts), notes, and the inbox listeners (Follow, Undo(Follow), Accept and Reject
 * of members' follows, Create / Update / Delete of notes: incoming.ts). Queued
 * work (deliveries, incoming activities) goes through `queue`; caches and idempotence through `kv`.
 */
export function buildFederation(deps: FederationDeps): Federation<void> {
  const { db, publicUrl, keys, log } = deps;
  const { follows } = deps.services;
  // Declared before the listeners that use it; set once the federation is built (below).
  let incoming: IncomingDeps;
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
      return memberActor(ctx, publicUrl, identifier, user);
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
        const note = noteOf(ctx, publicUrl, identifier, { ...post, visibility: 'public' });
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
    if (!post) return null;
    return noteOf(ctx, publicUrl, String(post.authorId), post, { images: await repo.findPostImages(db, id) });
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
      const followerId = await deps.keepActor(actor);
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
      if (outcome !== 'following') {
        // A request waits for the member's approval; its Accept or Reject names this Follow (outgoing.ts).
        await deps.kv.set(followKey('in', followerId, followeeId), follow.id.href);
        return;
      }
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
      if (await onUndo(ctx, undo, incoming)) return;
      const object = await undo.getObject(ctx);
      if (!(object instanceof Follow) || !undo.actorId || object.actorId?.href !== undo.actorId.href) return;
      const target = object.objectId ? ctx.parseUri(object.objectId) : null;
      if (target?.type !== 'actor') return;
      const followeeId = memberIdOf(target.identifier);
      const followerId = await repo.findRemoteUserId(db, undo.actorId.href);
      if (followeeId === null || followerId === null) return;
      await follows.unfollowAs(followerId, followeeId as UserId);
    })
    .on(Accept, async (_ctx, accept) => {
      // Our Follow, accepted by the very person it asked (the signer; Fedify checked the signature is theirs).
      const ours = parseFollowId(publicUrl, accept.objectId);
      if (!ours || !accept.actorId) return;
      if ((await repo.findRemoteUserId(db, accept.actorId.href)) !== ours.followeeId) return;
      await follows.acceptedBy(ours.followeeId, ours.followerId);
    })
    .on(Reject, async (_ctx, reject) => {
      const ours = parseFollowId(publicUrl, reject.objectId);
      if (!ours || !reject.actorId) return;
      if ((await repo.findRemoteUserId(db, reject.actorId.href)) !== ours.followeeId) return;
      await follows.rejectedBy(ours.followeeId, ours.followerId);
    })
    .on(Create, (ctx, create) => onCreate(ctx, create, incoming))
    .on(Update, (ctx, update) => onUpdate(ctx, update, incoming))
    .on(Delete, (ctx, del) => onDelete(ctx, del, incoming))
    .on(Like, (ctx, like) => onLike(ctx, like, incoming))
    .on(Announce, (ctx, announce) => onAnnounce(ctx, announce, incoming))
    .on(Block, (ctx, block) => onBlock(ctx, block, incoming))
    .on(Flag, (ctx, flag) => onFlag(ctx, flag, incoming))
    .onUnverifiedActivity(async (_ctx, activity, reason) => {
      // A deleted account's Delete of itself: its keys are gone with it, so it cannot be verified. Its server is
      // asked whether the actor is gone (410 or 404) before what was kept of them goes; 202 either way for a
      // Delete of an actor (Mastodon sends one to every server it knows), the default 401 for anything else.
      if (!(activity instanceof Delete) || reason.type !== 'keyFetchError' || !activity.actorId) return;
      if (activity.objectId?.href !== activity.actorId.href) return;
      if (await actorGone(activity.actorId, { loopbackPeers: deps.allowPrivateAddress ?? false })) {
        await forgetActor(activity.actorId.href, incoming);
      }
      return new Response(null, { status: 202 });
    })
    .onError((_ctx, error) => log.warn({ err: error }, 'an incoming activity failed'));

  const here = federation.createContext(new URL(publicUrl), undefined);
  incoming = {
    db,
    services: deps.services,
    log,
    fetchImage: deps.fetchImage,
    keepActor: deps.keepActor,
    async fetchObject(ctx, uri) {
      // Nothing is fetched from a blocked server.
      if (await deps.services.domainBlocks.isBlocked(uri.host)) return null;
      try {
        return await fetchAsInstance(ctx, uri);
      } catch (error) {
        log.info({ err: error, uri: uri.href }, 'a remote object could not be fetched');
        return null;
      }
    },
    async memberOf(uri) {
      const parsed = uri.origin === here.origin ? here.parseUri(uri) : null;
      const id = parsed?.type === 'actor' ? memberIdOf(parsed.identifier) : null;
      return id !== null && (await repo.findLocalActor(db, id)) ? id : null;
    },
    localPostOf(uri) {
      const parsed = uri.origin === here.origin ? here.parseUri(uri) : null;
      return parsed?.type === 'object' && parsed.class === Note ? memberIdOf(parsed.values.id ?? '') : null;
    },
  };

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

/** A member as their actor (`/users/{id}`): what the dispatcher serves and an Update(Person) carries. */
export async function memberActor(
  ctx: Context<void>,
  publicUrl: string,
  identifier: string,
  user: repo.LocalActorRow,
): Promise<Person> {
  const pairs = await ctx.getActorKeyPairs(identifier);
  return new Person({
    id: ctx.getActorUri(identifier),
    preferredUsername: user.username,
    name: user.name,
    summary: textToHtml(user.bio),
    url: new URL(`/users/${user.id}`, publicUrl),
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
    updated: toInstant(user.updatedAt),
  });
}

/** The type of a stored image, by its file's extension (the media pipeline writes these three). */
const IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** Someone a note names (a Mention tag, and its addressing): their actor URI and handle. */
export interface NoteMention {
  uri: URL;
  handle: string;
}

/**
 * A member's post as a Note, addressed by its visibility (Mastodon's addressing): public — the public
 * collection in `to`, followers in `cc`; unlisted — the other way round; followers — their followers
 * only; direct — the people it mentions only. The people it mentions are in `cc` (or `to` for direct)
 * and tagged; its hashtags tagged; a content warning is `summary` with `sensitive`; a reply names its
 * parent (here, or the remote note's own id) in `inReplyTo`.
 */
export function noteOf(
  ctx: Context<void>,
  publicUrl: string,
  authorIdentifier: string,
  post: {
    id: number;
    text: string;
    parentId: number | null;
    createdAt: Date;
    visibility?: string;
    spoilerText?: string;
    sensitive?: boolean;
    editedAt?: Date | null;
    parentUri?: string | null;
    quoteOfId?: number | null;
    quoteUri?: string | null;
  },
  extras: {
    mentions?: readonly NoteMention[];
    hashtags?: readonly string[];
    images?: ReadonlyArray<{ key: string; width: number; height: number; alt: string }>;
    /** Its poll: the post goes out as a Question (Mastodon's polls), its options with their counts. */
    poll?: FederatedPoll | null;
  } = {},
): Note | Question {
  const id = ctx.getObjectUri(Note, { id: String(post.id) });
  const followers = ctx.getFollowersUri(authorIdentifier);
  const mentioned = (extras.mentions ?? []).map((m) => m.uri);
  const visibility = post.visibility ?? 'public';
  const audience: { tos: URL[]; ccs: URL[] } =
    visibility === 'public'
      ? { tos: [PUBLIC_COLLECTION], ccs: [followers, ...mentioned] }
      : visibility === 'unlisted'
        ? { tos: [followers], ccs: [PUBLIC_COLLECTION, ...mentioned] }
        : visibility === 'followers'
          ? { tos: [followers], ccs: mentioned }
          : { tos: mentioned, ccs: [] };
  const replyTarget =
    post.parentId === null
      ? null
      : post.parentUri
        ? new URL(post.parentUri)
        : ctx.getObjectUri(Note, { id: String(post.parentId) });
  // A quote names the quoted note (FEP-044f's `quote`, and `quoteUrl` for Misskey, Fedibird and older servers),
  // with the "RE: <link>" fallback servers that show no quotes read (Mastodon leaves out its quote-inline).
  const quoted =
    post.quoteOfId == null
      ? null
      : post.quoteUri
        ? new URL(post.quoteUri)
        : ctx.getObjectUri(Note, { id: String(post.quoteOfId) });
  const fallback = quoted
    ? `<p class="quote-inline">RE: <a href="${escapeHtml(quoted.href)}">${escapeHtml(quoted.href)}</a></p>`
    : '';
  const values = {
    id,
    attribution: ctx.getActorUri(authorIdentifier),
    content: textToHtml(post.text) + fallback,
    quote: quoted,
    quoteUrl: quoted,
    summary: post.spoilerText ? escapeHtml(post.spoilerText) : null,
    sensitive: post.sensitive ?? false,
    url: new URL(`/posts/${post.id}`, publicUrl),
    published: toInstant(post.createdAt),
    updated: post.editedAt ? toInstant(post.editedAt) : null,
    replyTarget,
    ...audience,
    // Its images, as Mastodon attaches them: each a Document at its address here, its alt text the name.
    attachments: (extras.images ?? []).map(
      (image) =>
        new Document({
          url: new URL(mediaUrl(image.key), publicUrl),
          mediaType: IMAGE_TYPES[image.key.split('.').at(-1) ?? ''] ?? 'image/jpeg',
          name: image.alt || null,
          width: image.width,
          height: image.height,
        }),
    ),
    tags: [
      ...(extras.mentions ?? []).map((m) => new Mention({ href: m.uri, name: m.handle })),
      ...(extras.hashtags ?? []).map(
        (tag) => new Hashtag({ href: new URL(`/hashtag/${encodeURIComponent(tag)}`, publicUrl), name: `#${tag}` }),
      ),
    ],
  };
  const poll = extras.poll;
  if (!poll) return new Note(values);
  // A poll's options as Mastodon writes them: a Note each, named by its title, its votes the replies' count
  // (none shown while the author hides the counts until the end); oneOf for one choice, anyOf for several.
  const options = poll.options.map(
    (option) =>
      new Note({
        name: option.title,
        replies: new Collection({ totalItems: poll.hideTotals && !poll.expired ? 0 : option.votesCount }),
      }),
  );
  return new Question({
    ...values,
    ...(poll.multiple ? { inclusiveOptions: options } : { exclusiveOptions: options }),
    endTime: toInstant(poll.expiresAt),
    closed: poll.expired ? toInstant(poll.expiresAt) : null,
    voters: poll.hideTotals && !poll.expired ? 0 : poll.votersCount,
  });
}

/** A member's poll as federation sends it (polls.repository findPoll and findCounts). */
export interface FederatedPoll {
  expiresAt: Date;
  expired: boolean;
  multiple: boolean;
  hideTotals: boolean;
  votersCount: number;
  options: Array<{ title: string; votesCount: number }>;
}

/** What Pipit keeps of a remote actor (`remote_actors` and their `users` row). */
export async function remoteActorData(actor: Actor): Promise<repo.RemoteActorData> {
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
    // Pipit shows a bio as plain text: the remote HTML's text, links as their addresses (html.ts).
    bio: remoteHtmlToText(actor.summary?.toString() ?? '', 2_000),
    avatar: await avatarOf(actor),
    inbox: (actor.inboxId as URL).href,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    url,
    followersUrl: actor.followersId?.href ?? null,
    publicKeys,
    locked: actor.manuallyApprovesFollowers ?? false,
  };
}

/**
 * The address of an actor's avatar as they publish it (an embedded Image; never fetched here), when it
 * is an http(s) URL of reasonable length; else null.
 */
async function avatarOf(actor: Actor): Promise<string | null> {
  let url: URL | null = null;
  try {
    const icon = await actor.getIcon({ crossOrigin: 'trust', suppressError: true, documentLoader: noFetch });
    url = icon?.url instanceof URL ? icon.url : (icon?.url?.href ?? null);
  } catch {
    return null;
  }
  return url && /^https?:$/.test(url.protocol) && url.href.length <= 2_000 ? url.href : null;
}

/** A document loader that loads nothing: what is not embedded is not fetched. */
const noFetch: DocumentLoader = async (url) => {
  throw new Error(`Not fetched: ${url}`);
};
