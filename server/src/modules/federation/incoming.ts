import type { InboxContext } from '@fedify/fedify';
import {
  type Activity,
  type Actor,
  Announce,
  Block,
  type Create,
  type Delete,
  Document,
  type Flag,
  Image,
  isActor,
  Like,
  Mention,
  Note,
  PUBLIC_COLLECTION,
  Question,
  type Undo,
  type Update,
} from '@fedify/vocab';
import { LIMITS, REPORT_COMMENT_MAX, type Visibility } from '@pipit/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { violatedUniqueConstraint } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { PostId, UserId } from '../../lib/ids.ts';
import { findPoll } from '../polls/polls.repository.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import type { KeepActor } from './actors.ts';
import * as repo from './federation.repository.ts';
import type { FederationServices } from './federation.ts';
import { remoteHtmlToText } from './html.ts';

/** The longest remote text kept (a note's content as text; Mastodon's own limit is far below). */
const NOTE_TEXT_MAX = 20_000;
const SUMMARY_MAX = 1_000;
/** The public collection as servers write it (expanded, compacted, or bare). */
const PUBLIC = new Set([PUBLIC_COLLECTION.href, 'as:Public', 'Public']);

export interface IncomingDeps {
  db: Database;
  /** What someone elsewhere does goes through these, as a member's would. */
  services: FederationServices;
  log: FastifyBaseLogger;
  /** The member a URI names (an actor of ours), or null. */
  memberOf(uri: URL): Promise<number | null>;
  /** The id of a post of ours a URI names (`/posts/<id>`), or null. */
  localPostOf(uri: URL): number | null;
  /** Keeps someone elsewhere, their avatar copied (actors.ts actorKeeper); answers their user id. */
  keepActor: KeepActor;
  /**
   * An image a remote note attaches, fetched through lib/safe-fetch.ts (public addresses only, bounded in size
   * and time; nothing from a blocked server); null when it cannot be had.
   */
  fetchImage(url: URL): Promise<Buffer | null>;
  /**
   * A remote object by its id, fetched from its server signed as the instance actor (Fedify's loader: public
   * addresses only; a document whose id is of another origin than its URL is refused); null when it cannot be had.
   */
  fetchObject(ctx: InboxContext<void>, uri: URL): Promise<unknown>;
}

/** A remote person as the posts services take an author (no session: they act from their server). */
async function asAuthor(db: Database, userId: number): Promise<(SessionUser & { domain: string | null }) | null> {
  const row = await repo.findRemoteAuthor(db, userId);
  if (!row) return null;
  return {
    sessionId: 0,
    userId: row.id,
    name: row.name,
    email: '',
    username: row.username,
    profileImage: row.profileImage,
    role: 'member',
    defaultVisibility: 'public',
    expiresAt: new Date(0),
    domain: row.domain,
  };
}

/**
 * The note an activity carries, when it is the signer's own: its `attributedTo` is the activity's actor
 * (whose signature Fedify verified) and its id is on the actor's server. Anything else is refused: a
 * server cannot post, edit or delete in someone else's name.
 */
async function ownNote(ctx: InboxContext<void>, activity: Create | Update, log: FastifyBaseLogger) {
  const actorId = activity.actorId;
  if (!actorId) return null;
  const object = await activity.getObject(ctx);
  if (!isRemoteNote(object) || !object.id) return null;
  if (object.attributionId?.href !== actorId.href || object.id.origin !== actorId.origin) {
    log.warn({ activity: activity.id?.href, actor: actorId.href }, 'a note not its signer’s was refused');
    return null;
  }
  return object;
}

/** What is kept as a post from elsewhere: a Note, or a Question (a poll, Mastodon's). */
type RemoteNote = Note | Question;
const isRemoteNote = (object: unknown): object is RemoteNote => object instanceof Note || object instanceof Question;

/** Who a note is addressed to: its `to`, `cc` and Mention tags, as URLs. */
async function addressing(ctx: InboxContext<void>, note: RemoteNote) {
  const tos = note.toIds.map((u) => u.href);
  const ccs = note.ccIds.map((u) => u.href);
  const mentions: URL[] = [];
  for await (const tag of note.getTags(ctx)) {
    if (tag instanceof Mention && tag.href) mentions.push(tag.href);
  }
  return { tos, ccs, mentions };
}

/**
 * The visibility a note's addressing allows, never wider: public when the public collection is in
 * `to`, unlisted when it is in `cc`, followers when the author's followers collection is addressed,
 * else direct (the people it names only). modules/safety/visibility.ts then decides every read of it.
 */
export function visibilityOf(tos: readonly string[], ccs: readonly string[], followersUrl: string | null): Visibility {
  if (tos.some((u) => PUBLIC.has(u))) return 'public';
  if (ccs.some((u) => PUBLIC.has(u))) return 'unlisted';
  if (followersUrl && [...tos, ...ccs].includes(followersUrl)) return 'followers';
  return 'direct';
}

/** Missing ancestors of a note fetched from their servers, at most (one request each, signed as the instance). */
export const MAX_FETCHED_ANCESTORS = 5;

/** The members a note names: in its `to`/`cc`, or tagged as mentioned. */
async function membersNamed(ctx: InboxContext<void>, note: RemoteNote, deps: IncomingDeps) {
  const { tos, ccs, mentions } = await addressing(ctx, note);
  const named = new Set<number>();
  for (const uri of [...tos, ...ccs].map((u) => new URL(u)).concat(mentions)) {
    const member = await deps.memberOf(uri);
    if (member !== null) named.add(member);
  }
  return { tos, ccs, named };
}

/** A remote actor by URI, fetched and kept when not known yet (the document must be that actor's). */
async function keptActor(ctx: InboxContext<void>, uri: URL, deps: IncomingDeps) {
  const known = await repo.findRemoteActorByUri(deps.db, uri.href);
  if (known || (await repo.findRemoteUserId(deps.db, uri.href)) !== null) return known;
  const actor = await deps.fetchObject(ctx, uri);
  if (!isActor(actor) || actor.id?.href !== uri.href || !actor.inboxId) return null;
  await deps.keepActor(actor);
  return repo.findRemoteActorByUri(deps.db, uri.href);
}

/**
 * Keeps a remote note as a post of its author (known, or their actor fetched and kept): text reduced to
 * text, visibility never wider than its addressing, threaded under its parent — a post here, or one
 * fetched from its server when missing (at most `ancestors` more, each kept the same way). Answers its id
 * here, or null when it is refused (its author unknown and not fetchable, nothing to show, a parent it may
 * not answer). Once per note id: a note kept already is answered as it is.
 */
async function keepNote(
  ctx: InboxContext<void>,
  note: RemoteNote,
  deps: IncomingDeps,
  options: { named: ReadonlySet<number>; tos: string[]; ccs: string[]; ancestors: number },
): Promise<number | null> {
  const noteId = note.id as URL;
  const existing = await repo.findPostIdByUri(deps.db, noteId.href);
  if (existing !== null) return existing;
  const authorUri = note.attributionId;
  if (!authorUri || authorUri.origin !== noteId.origin) return null;
  const author = await keptActor(ctx, authorUri, deps);
  if (!author) return null;
  const quoteOfId = await quotedOf(ctx, note, deps, options.ancestors);
  const poll = note instanceof Question ? await remotePoll(ctx, note) : null;
  const content = note.content?.toString() ?? '';
  const spoilerText = remoteHtmlToText(note.summary?.toString() ?? '', SUMMARY_MAX);
  const media = await keptImages(ctx, note, author.userId, deps);
  const parentId = await parentOf(ctx, note, deps, options.ancestors);
  const viewer = await asAuthor(deps.db, author.userId);
  if (!viewer) return null;
  const create = (quote: number | null) => {
    // Shown as a quote, its "RE: <link>" fallback is left out; not shown as one, the link stays in the words.
    const text = remoteHtmlToText(content, NOTE_TEXT_MAX, { dropQuoteInline: quote !== null });
    if (text === '' && spoilerText === '' && media.length === 0 && quote === null) return null;
    return deps.services.posts.create(viewer, {
      text,
      parentId: parentId as PostId | null,
      quoteOfId: quote as PostId | null,
      visibility: visibilityOf(options.tos, options.ccs, author.followersUrl),
      spoilerText,
      sensitive: note.sensitive ?? spoilerText !== '',
      media,
      ...(poll && media.length === 0 ? { poll: poll.input } : {}),
      remote: { uri: noteId.href, mentionIds: [...options.named] },
    });
  };
  try {
    let post: Awaited<ReturnType<typeof create>>;
    try {
      post = await create(quoteOfId);
    } catch (error) {
      // A quote the quoted post's rules refuse (its quote policy, or hidden from the author): the note is kept
      // without the quote, its link to the quoted post in its words, as a server that shows no quotes keeps it.
      if (!(error instanceof AppError) || quoteOfId === null) throw error;
      deps.log.info({ note: noteId.href, code: error.code }, 'a remote quote was kept as a link');
      post = await create(null);
    }
    if (post && poll && post.poll)
      await deps.services.polls.countsFromElsewhere(Number(post.id), poll.counts, poll.voters);
    return post ? Number(post.id) : null;
  } catch (error) {
    // The same note arriving twice at once: the other delivery stored it.
    if (violatedUniqueConstraint(error) === 'posts_uri_key') return repo.findPostIdByUri(deps.db, noteId.href);
    // A parent it may not answer (a block), or gone: refused as a member's reply would be.
    if (error instanceof AppError) {
      deps.log.info({ note: noteId.href, code: error.code }, 'a remote note was refused');
      return null;
    }
    throw error;
  }
}

/**
 * The post a note quotes (FEP-044f's `quote`, or `quoteUrl` as Misskey and Fedibird write it): ours, one kept
 * here, or — while `ancestors` allows — fetched from its server and kept. Null for none, or one not to be had.
 */
async function quotedOf(ctx: InboxContext<void>, note: RemoteNote, deps: IncomingDeps, ancestors: number) {
  const target = note.quoteId ?? note.quoteUrl;
  if (!target) return null;
  const here = deps.localPostOf(target) ?? (await repo.findPostIdByUri(deps.db, target.href));
  if (here !== null || ancestors <= 0) return here;
  const quoted = await deps.fetchObject(ctx, target);
  if (!isRemoteNote(quoted) || quoted.id?.href !== target.href) return null;
  const { tos, ccs, named } = await membersNamed(ctx, quoted, deps);
  return keepNote(ctx, quoted, deps, { named, tos, ccs, ancestors: ancestors - 1 });
}

/** Options of a poll from elsewhere kept, at most (servers allow more than Pipit's own four). */
const REMOTE_POLL_OPTIONS_MAX = 20;
const REMOTE_POLL_OPTION_MAX = 200;

/**
 * A Question's poll as Pipit keeps one: its options (oneOf: one choice, anyOf: several), when it ends (at once for
 * one already closed), and its counts as its server gives them (each option's replies, the voters). Null for a
 * Question that is no such poll (fewer than two options, or no end).
 */
async function remotePoll(ctx: InboxContext<void>, question: Question) {
  const read = async (options: AsyncIterable<unknown>) => {
    const kept: Note[] = [];
    for await (const option of options) {
      if (option instanceof Note && option.name) kept.push(option);
      if (kept.length > REMOTE_POLL_OPTIONS_MAX) break;
    }
    return kept;
  };
  const loading = { documentLoader: ctx.documentLoader, suppressError: true, crossOrigin: 'trust' } as const;
  const single = await read(question.getExclusiveOptions(loading));
  const several = single.length > 0 ? [] : await read(question.getInclusiveOptions(loading));
  const options = single.length > 0 ? single : several;
  if (options.length < 2 || options.length > REMOTE_POLL_OPTIONS_MAX) return null;
  const closed = question.closed;
  const end = question.endTime ?? (closed && typeof closed !== 'boolean' ? closed : null);
  if (!end && closed !== true) return null;
  const expiresIn = closed ? 0 : Math.max(0, Math.ceil((Number(end?.epochMilliseconds ?? 0) - Date.now()) / 1000));
  const counts: number[] = [];
  for (const option of options) {
    const replies = await option.getReplies(loading);
    counts.push(Math.max(0, Math.trunc(replies?.totalItems ?? 0)));
  }
  const sum = counts.reduce((a, b) => a + b, 0);
  return {
    input: {
      options: options.map((o) => (o.name?.toString() ?? '').slice(0, REMOTE_POLL_OPTION_MAX)),
      expiresIn,
      multiple: several.length > 0,
      hideTotals: false,
    },
    counts,
    voters: Math.max(0, Math.trunc(question.voters ?? sum)),
  };
}

/** The image types a note's attachment may have (the media pipeline reads each by its bytes anyway). */
const IMAGE_TYPE = /^image\/(jpeg|png|webp|gif)$/i;

/**
 * A note's images (its first LIMITS.postImagesMax attachments that are images, with their descriptions as alt
 * text), each fetched from its server and put through the media pipeline as an upload of the author's, in order.
 * One that cannot be fetched or is not an image the pipeline takes is left out (logged): the note is kept with
 * the others, as other servers keep it. Video and audio are not kept (Pipit has no players for them).
 */
async function keptImages(ctx: InboxContext<void>, note: RemoteNote, authorId: number, deps: IncomingDeps) {
  const kept: { id: string; alt: string }[] = [];
  let seen = 0;
  for await (const attachment of note.getAttachments({
    suppressError: true,
    crossOrigin: 'trust',
    documentLoader: ctx.documentLoader,
  })) {
    if (seen++ >= LIMITS.postImagesMax) break;
    if (!(attachment instanceof Document || attachment instanceof Image)) continue;
    const url = attachment.url instanceof URL ? attachment.url : attachment.url?.href;
    if (!url || !/^https?:$/.test(url.protocol)) continue;
    if (attachment.mediaType && !IMAGE_TYPE.test(attachment.mediaType)) continue;
    const bytes = await deps.fetchImage(url);
    if (!bytes) continue;
    const alt = (attachment.name?.toString() ?? '').slice(0, LIMITS.altTextMax);
    try {
      const upload = await deps.services.media.upload(authorId, bytes, alt, 'media');
      kept.push({ id: upload.id, alt });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      deps.log.info({ url: url.href, code: error.code }, 'a remote image was not kept');
    }
  }
  return kept;
}

/**
 * The post a note answers: ours, one kept here, or — while `ancestors` allows — the parent fetched from its
 * server and kept (with its own missing parents, one fewer each). Null for a note that answers nothing, or
 * whose parent cannot be had (it is kept as a post of its own, as Mastodon keeps one).
 */
async function parentOf(ctx: InboxContext<void>, note: RemoteNote, deps: IncomingDeps, ancestors: number) {
  const target = note.replyTargetId;
  if (!target) return null;
  const here = deps.localPostOf(target) ?? (await repo.findPostIdByUri(deps.db, target.href));
  if (here !== null || ancestors <= 0) return here;
  const parent = await deps.fetchObject(ctx, target);
  if (!isRemoteNote(parent) || parent.id?.href !== target.href) return null;
  const { tos, ccs, named } = await membersNamed(ctx, parent, deps);
  return keepNote(ctx, parent, deps, { named, tos, ccs, ancestors: ancestors - 1 });
}

/**
 * Create(Note): stored as a post of its (remote) author when someone here follows them, or when it
 * addresses a member (a mention, a direct message) — as Mastodon does; anything else is nobody's
 * business here and dropped. Once per note id (posts.uri): a Create delivered twice stores one post.
 * Missing parents are fetched (keepNote), at most MAX_FETCHED_ANCESTORS.
 */
export async function onCreate(ctx: InboxContext<void>, create: Create, deps: IncomingDeps): Promise<void> {
  const note = await ownNote(ctx, create, deps.log);
  if (!note?.id || !create.actorId) return;
  if (await onVote(ctx, note, create, deps)) return;
  if ((await repo.findPostIdByUri(deps.db, note.id.href)) !== null) return;
  const { tos, ccs, named } = await membersNamed(ctx, note, deps);
  const author = await repo.findRemoteActorByUri(deps.db, create.actorId.href);
  // Someone new writing to a member is fetched and kept (keepNote); anyone else must be followed here.
  if (named.size === 0 && !(author && (await repo.hasLocalFollower(deps.db, author.userId)))) {
    deps.log.info({ note: note.id.href }, 'a note nobody here follows or is named in was dropped');
    return;
  }
  await keepNote(ctx, note, deps, { named, tos, ccs, ancestors: MAX_FETCHED_ANCESTORS });
}

/**
 * A vote in a member's poll, as Mastodon sends it: a Note named after the option chosen, answering the poll's
 * Question, with no content (one per option). Counted as a member's vote would be (polls.service
 * voteFromElsewhere: hidden, ended and unknown options refused). Answers whether the note was a vote.
 */
async function onVote(ctx: InboxContext<void>, note: RemoteNote, create: Create, deps: IncomingDeps): Promise<boolean> {
  if (!(note instanceof Note)) return false;
  const name = note.name?.toString();
  const target = note.replyTargetId;
  if (!name || !target || (note.content?.toString() ?? '') !== '') return false;
  const postId = deps.localPostOf(target);
  const poll = postId === null ? null : await findPoll(deps.db, postId);
  if (postId === null || !poll) return false;
  const position = poll.options.indexOf(name);
  if (position < 0) {
    deps.log.info({ note: note.id?.href }, 'a vote for no option of the poll was dropped');
    return true;
  }
  const viewer = await signerKept(ctx, create, deps);
  if (viewer) {
    await asMemberWould(deps, 'vote', create, () =>
      deps.services.polls.voteFromElsewhere(viewer, postId as PostId, position),
    );
  }
  return true;
}

/** Update(Note): the author's edit of a post of theirs kept here (text, content warning, sensitive). */
export async function onUpdate(ctx: InboxContext<void>, update: Update, deps: IncomingDeps): Promise<void> {
  const object = await update.getObject(ctx);
  if (isActor(object)) {
    await refreshActor(update, object, deps);
    return;
  }
  const note = await ownNote(ctx, update, deps.log);
  if (!note?.id || !update.actorId) return;
  const author = await repo.findRemoteActorByUri(deps.db, update.actorId.href);
  const postId = await repo.findPostIdByUri(deps.db, note.id.href);
  if (!author || postId === null) return;
  const viewer = await asAuthor(deps.db, author.userId);
  if (!viewer) return;
  const text = remoteHtmlToText(note.content?.toString() ?? '', NOTE_TEXT_MAX);
  const spoilerText = remoteHtmlToText(note.summary?.toString() ?? '', SUMMARY_MAX);
  try {
    await deps.services.postEdits.edit(viewer, postId as PostId, {
      text,
      spoilerText,
      sensitive: note.sensitive ?? spoilerText !== '',
    });
    // A poll's Update is mostly its counts (Mastodon sends one as votes come and when it ends).
    const poll = note instanceof Question ? await remotePoll(ctx, note) : null;
    if (poll) await deps.services.polls.countsFromElsewhere(postId, poll.counts, poll.voters);
  } catch (error) {
    // Not theirs (FORBIDDEN), or gone: nothing changes.
    if (error instanceof AppError) return;
    throw error;
  }
}

/**
 * Update of an actor, by that actor (the signer): what is kept of them is refreshed — name, bio, avatar, locked,
 * inbox, keys — for someone Pipit knows; nobody new is kept for it.
 */
async function refreshActor(update: Update, actor: Actor, deps: IncomingDeps): Promise<void> {
  if (!update.actorId || actor.id?.href !== update.actorId.href || !actor.inboxId) return;
  const userId = await repo.findRemoteUserId(deps.db, actor.id.href);
  if (userId === null) return;
  await deps.keepActor(actor);
  // Kept pages, caches and open streams showing their name or picture are refreshed.
  await deps.services.events.publish([{ type: 'user.updated', userId }]);
}

/**
 * Delete of an actor by itself: their server deleted the account, and what was kept of them here goes (their
 * posts, likes, reposts, follows, with the counters that counted them). Answers whether anyone was forgotten.
 */
export async function forgetActor(actorUri: string, deps: Pick<IncomingDeps, 'db' | 'services' | 'log'>) {
  const userId = await repo.findRemoteUserId(deps.db, actorUri);
  if (userId === null) return false;
  const forgotten = await deps.services.account.forgetRemote(userId);
  if (forgotten) deps.log.info({ actor: actorUri }, 'a deleted remote account was forgotten');
  return forgotten;
}

/** Delete of a note (its id, or a Tombstone): the author's post kept here goes. Of the actor itself: forgetActor. */
export async function onDelete(_ctx: InboxContext<void>, del: Delete, deps: IncomingDeps): Promise<void> {
  if (!del.actorId || !del.objectId) return;
  if (del.objectId.href === del.actorId.href) {
    await forgetActor(del.actorId.href, deps);
    return;
  }
  // Only the author's own: the object's id is on the signer's server and the post is theirs here.
  if (del.objectId.origin !== del.actorId.origin) return;
  const author = await repo.findRemoteActorByUri(deps.db, del.actorId.href);
  const postId = await repo.findPostIdByUri(deps.db, del.objectId.href);
  if (!author || postId === null) return;
  const viewer = await asAuthor(deps.db, author.userId);
  if (!viewer) return;
  try {
    await deps.services.posts.delete(viewer, postId as PostId);
  } catch (error) {
    if (error instanceof AppError) return;
    throw error;
  }
}

/**
 * The signer of an activity as someone kept here: known, or their actor fetched and kept now (someone new who
 * likes, reposts or blocks a member). Null when their document is not the signer's, or they are suspended here.
 */
async function signerKept(
  ctx: InboxContext<void>,
  activity: Activity,
  deps: IncomingDeps,
): Promise<SessionUser | null> {
  const known = activity.actorId ? await keptActor(ctx, activity.actorId, deps) : null;
  return known ? asAuthor(deps.db, known.userId) : null;
}

/** Runs what a remote person does as a member would; a refusal (not found, hidden, forbidden) is logged, not thrown. */
async function asMemberWould(deps: IncomingDeps, what: string, activity: Activity, work: () => Promise<unknown>) {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    deps.log.info({ activity: activity.id?.href, code: error.code }, `a remote ${what} was refused`);
  }
}

/** Like of a member's post: liked by its (remote) signer, notified as any like — unless they may not see it. */
export async function onLike(ctx: InboxContext<void>, like: Like, deps: IncomingDeps): Promise<void> {
  const postId = like.objectId ? deps.localPostOf(like.objectId) : null;
  if (postId === null) return; // A like of someone else's post is their server's to count.
  const viewer = await signerKept(ctx, like, deps);
  if (viewer) await asMemberWould(deps, 'like', like, () => deps.services.posts.like(viewer, postId as PostId));
}

/**
 * Announce (a repost): of a member's post, by anyone; of someone else's, only by someone a member follows (it
 * reaches their Home) — the note fetched from its server and kept when Pipit does not have it yet.
 */
export async function onAnnounce(ctx: InboxContext<void>, announce: Announce, deps: IncomingDeps): Promise<void> {
  if (!announce.objectId || !announce.actorId) return;
  const local = deps.localPostOf(announce.objectId);
  if (local === null) {
    const known = await repo.findRemoteActorByUri(deps.db, announce.actorId.href);
    if (!known || !(await repo.hasLocalFollower(deps.db, known.userId))) return;
  }
  const postId = local ?? (await keptAnnounced(ctx, announce.objectId, deps));
  if (postId === null) {
    deps.log.info({ activity: announce.id?.href }, 'a repost of a note that cannot be had was dropped');
    return;
  }
  const viewer = await signerKept(ctx, announce, deps);
  if (viewer) await asMemberWould(deps, 'repost', announce, () => deps.services.posts.repost(viewer, postId as PostId));
}

/** The post here of a note someone reposted: kept already, or fetched from its server and kept. */
async function keptAnnounced(ctx: InboxContext<void>, uri: URL, deps: IncomingDeps): Promise<number | null> {
  const here = await repo.findPostIdByUri(deps.db, uri.href);
  if (here !== null) return here;
  const note = await deps.fetchObject(ctx, uri);
  if (!isRemoteNote(note) || note.id?.href !== uri.href) return null;
  const { tos, ccs, named } = await membersNamed(ctx, note, deps);
  return keepNote(ctx, note, deps, { named, tos, ccs, ancestors: MAX_FETCHED_ANCESTORS });
}

/** Block of a member: as a member's block would (follows both ways end, and what they see of each other). */
export async function onBlock(ctx: InboxContext<void>, block: Block, deps: IncomingDeps): Promise<void> {
  const memberId = block.objectId ? await deps.memberOf(block.objectId) : null;
  if (memberId === null) return;
  const viewer = await signerKept(ctx, block, deps);
  if (viewer) await asMemberWould(deps, 'block', block, () => deps.services.safety.block(viewer, memberId as UserId));
}

/**
 * Undo of a Like, Announce or Block the signer made (the object's actor is the signer): taken back as a
 * member's would be. (Undo of a Follow: federation.ts.) Answers false when the object is none of these.
 */
export async function onUndo(ctx: InboxContext<void>, undo: Undo, deps: IncomingDeps): Promise<boolean> {
  const object = await undo.getObject(ctx);
  if (!(object instanceof Like || object instanceof Announce || object instanceof Block)) return false;
  if (!undo.actorId || object.actorId?.href !== undo.actorId.href || !object.objectId) return true;
  const userId = await repo.findRemoteUserId(deps.db, undo.actorId.href);
  const viewer = userId === null ? null : await asAuthor(deps.db, userId);
  if (!viewer) return true;
  const target = object.objectId;
  if (object instanceof Block) {
    const memberId = await deps.memberOf(target);
    if (memberId !== null) await deps.services.safety.unblock(viewer, memberId as UserId);
    return true;
  }
  const postId =
    deps.localPostOf(target) ?? (object instanceof Announce ? await repo.findPostIdByUri(deps.db, target.href) : null);
  if (postId === null) return true;
  await asMemberWould(deps, 'undo', undo, () =>
    object instanceof Like
      ? deps.services.posts.unlike(viewer, postId as PostId)
      : deps.services.posts.unrepost(viewer, postId as PostId),
  );
  return true;
}

/** Posts and people one Flag may report here (each filed as its own report). */
const FLAG_MAX_SUBJECTS = 10;

/**
 * Flag: a report sent by another server (Mastodon forwards its members' reports from its own actor). Filed as a
 * report by the signer — kept as someone elsewhere — of each member's post it names, or else of each member, with
 * its content as the comment ("Something else": a Flag carries no category). Moderators read it as any report;
 * a post the signer may not see is not filed.
 */
export async function onFlag(ctx: InboxContext<void>, flag: Flag, deps: IncomingDeps): Promise<void> {
  const postIds: number[] = [];
  const memberIds = new Set<number>();
  for (const uri of flag.objectIds) {
    const postId = deps.localPostOf(uri);
    if (postId !== null) postIds.push(postId);
    else {
      const memberId = await deps.memberOf(uri);
      if (memberId !== null) memberIds.add(memberId);
    }
    if (postIds.length + memberIds.size >= FLAG_MAX_SUBJECTS) break;
  }
  if (postIds.length === 0 && memberIds.size === 0) return;
  const reporter = await signerKept(ctx, flag, deps);
  if (!reporter) return;
  const body = {
    category: 'other' as const,
    comment: remoteHtmlToText(flag.content?.toString() ?? '', REPORT_COMMENT_MAX),
  };
  for (const postId of postIds) {
    await asMemberWould(deps, 'report', flag, () =>
      deps.services.moderation.reportPost(reporter, postId as PostId, body),
    );
  }
  if (postIds.length > 0) return;
  for (const memberId of memberIds) {
    await asMemberWould(deps, 'report', flag, () =>
      deps.services.moderation.reportUser(reporter, memberId as UserId, body),
    );
  }
}
