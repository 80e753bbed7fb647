import type { InboxContext } from '@fedify/fedify';
import { type Actor, type Create, type Delete, Mention, Note, PUBLIC_COLLECTION, type Update } from '@fedify/vocab';
import type { Visibility } from '@pipit/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { violatedUniqueConstraint } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { PostId } from '../../lib/ids.ts';
import type { PostEditsService } from '../posts/post-edits.service.ts';
import type { PostsService } from '../posts/posts.service.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import * as repo from './federation.repository.ts';
import { remoteHtmlToText } from './html.ts';

/** The longest remote text kept (a note's content as text; Mastodon's own limit is far below). */
const NOTE_TEXT_MAX = 20_000;
const SUMMARY_MAX = 1_000;
/** The public collection as servers write it (expanded, compacted, or bare). */
const PUBLIC = new Set([PUBLIC_COLLECTION.href, 'as:Public', 'Public']);

export interface IncomingDeps {
  db: Database;
  posts: PostsService;
  postEdits: PostEditsService;
  log: FastifyBaseLogger;
  /** The member a URI names (an actor of ours), or null. */
  memberOf(uri: URL): Promise<number | null>;
  /** The id of a post of ours a URI names (`/posts/<id>`), or null. */
  localPostOf(uri: URL): number | null;
  /** What is kept of a remote actor (federation.ts remoteActorData). */
  actorData(actor: Actor): Promise<repo.RemoteActorData>;
}

/** A remote person as the posts services take an author (no session: they act from their server). */
async function asAuthor(db: Database, userId: number): Promise<SessionUser | null> {
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
  if (!(object instanceof Note) || !object.id) return null;
  if (object.attributionId?.href !== actorId.href || object.id.origin !== actorId.origin) {
    log.warn({ activity: activity.id?.href, actor: actorId.href }, 'a note not its signer’s was refused');
    return null;
  }
  return object;
}

/** Who a note is addressed to: its `to`, `cc` and Mention tags, as URLs. */
async function addressing(ctx: InboxContext<void>, note: Note) {
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

/**
 * Create(Note): stored as a post of its (remote) author when someone here follows them, or when it
 * addresses a member (a mention, a direct message) — as Mastodon does; anything else is nobody's
 * business here and dropped. Once per note id (posts.uri): a Create delivered twice stores one post.
 */
export async function onCreate(ctx: InboxContext<void>, create: Create, deps: IncomingDeps): Promise<void> {
  const note = await ownNote(ctx, create, deps.log);
  if (!note?.id || !create.actorId) return;
  if ((await repo.findPostIdByUri(deps.db, note.id.href)) !== null) return;
  const { tos, ccs, mentions } = await addressing(ctx, note);
  const named = new Set<number>();
  for (const uri of [...tos, ...ccs].map((u) => new URL(u)).concat(mentions)) {
    const member = await deps.memberOf(uri);
    if (member !== null) named.add(member);
  }
  let author = await repo.findRemoteActorByUri(deps.db, create.actorId.href);
  if (!author && named.size > 0) {
    // Someone new writing to a member: their actor is fetched and kept (as a Follow's is).
    const actor = await create.getActor(ctx);
    if (actor?.id?.href === create.actorId.href && actor.inboxId) {
      await repo.upsertRemoteActor(deps.db, await deps.actorData(actor));
      author = await repo.findRemoteActorByUri(deps.db, create.actorId.href);
    }
  }
  if (!author || (named.size === 0 && !(await repo.hasLocalFollower(deps.db, author.userId)))) {
    deps.log.info({ note: note.id.href }, 'a note nobody here follows or is named in was dropped');
    return;
  }
  const text = remoteHtmlToText(note.content?.toString() ?? '', NOTE_TEXT_MAX);
  const spoilerText = remoteHtmlToText(note.summary?.toString() ?? '', SUMMARY_MAX);
  if (text === '' && spoilerText === '') return;
  const replyTarget = note.replyTargetId;
  const parentId = replyTarget
    ? (deps.localPostOf(replyTarget) ?? (await repo.findPostIdByUri(deps.db, replyTarget.href)))
    : null;
  const viewer = await asAuthor(deps.db, author.userId);
  if (!viewer) return;
  try {
    await deps.posts.create(viewer, {
      text,
      parentId: parentId as PostId | null,
      visibility: visibilityOf(tos, ccs, author.followersUrl),
      spoilerText,
      sensitive: note.sensitive ?? spoilerText !== '',
      remote: { uri: note.id.href, mentionIds: [...named] },
    });
  } catch (error) {
    // The same note arriving twice at once: the other delivery stored it.
    if (violatedUniqueConstraint(error) === 'posts_uri_key') return;
    // A parent it may not answer (a block), or gone: refused as a member's reply would be.
    if (error instanceof AppError) {
      deps.log.info({ note: note.id.href, code: error.code }, 'a remote note was refused');
      return;
    }
    throw error;
  }
}

/** Update(Note): the author's edit of a post of theirs kept here (text, content warning, sensitive). */
export async function onUpdate(ctx: InboxContext<void>, update: Update, deps: IncomingDeps): Promise<void> {
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
    await deps.postEdits.edit(viewer, postId as PostId, {
      text,
      spoilerText,
      sensitive: note.sensitive ?? spoilerText !== '',
    });
  } catch (error) {
    // Not theirs (FORBIDDEN), or gone: nothing changes.
    if (error instanceof AppError) return;
    throw error;
  }
}

/** Delete of a note (its id, or a Tombstone): the author's post kept here goes. */
export async function onDelete(_ctx: InboxContext<void>, del: Delete, deps: IncomingDeps): Promise<void> {
  if (!del.actorId || !del.objectId) return;
  // Only the author's own: the object's id is on the signer's server and the post is theirs here.
  if (del.objectId.origin !== del.actorId.origin) return;
  const author = await repo.findRemoteActorByUri(deps.db, del.actorId.href);
  const postId = await repo.findPostIdByUri(deps.db, del.objectId.href);
  if (!author || postId === null) return;
  const viewer = await asAuthor(deps.db, author.userId);
  if (!viewer) return;
  try {
    await deps.posts.delete(viewer, postId as PostId);
  } catch (error) {
    if (error instanceof AppError) return;
    throw error;
  }
}
