import {
  type CreatePostBody,
  extractHashtags,
  extractMentions,
  extractRemoteMentions,
  MAX_ANCESTORS,
  type PollInput,
  type Post,
  type QuotedPost,
  type QuotePolicy,
  quotesWider,
  repostable,
  type User,
  type Visibility,
  widerThan,
  widestQuotePolicy,
} from '@pipit/contract';
import type { Database, Executor, Tx } from '../../db/client.ts';
import { type Cursor, encodeCursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { forbidden, invalid, postNotFound, userNotFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus, type Outbox } from '../../lib/events.ts';
import type { FederationLink } from '../../lib/federation-link.ts';
import { type PostId, parsePostId, type UserId } from '../../lib/ids.ts';
import type { Jobs } from '../../lib/jobs.ts';
import type { CardsService } from '../cards/cards.service.ts';
import { recordDirectPost } from '../conversations/conversations.service.ts';
import type { FeedsService } from '../feeds/feeds.service.ts';
import { toUserView } from '../follows/follows.pack.ts';
import { isFollowing } from '../follows/follows.repository.ts';
import { insertPostHashtags } from '../hashtags/hashtags.repository.ts';
import type { MediaService } from '../media/media.service.ts';
import type { Candidate, Notifier } from '../notifications/notifier.ts';
import { newPoll } from '../polls/polls.pack.ts';
import type { PollsService } from '../polls/polls.service.ts';
import { isPostHiddenFrom, readersHiding } from '../safety/safety.repository.ts';
import { type SessionUser, type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import { userExists } from '../users/users.repository.ts';
import { toPost, toQuotedPost } from './posts.pack.ts';
import * as repo from './posts.repository.ts';

/** Who writes a post: the session's person, or a scheduled post's author read when it is published. */
export type PostAuthor = Pick<SessionUser, 'userId' | 'name' | 'username' | 'profileImage' | 'defaultVisibility'> & {
  /** Their server, for someone elsewhere whose post federation keeps (modules/federation); a member's is null. */
  domain?: string | null;
};

/**
 * What `create` takes, from the contract's create body: every field as it is, the ids parsed. One
 * mapping for POST /api/posts and a scheduled post's publication, so a field added to `createPostBody`
 * reaches both.
 */
export const createInputOf = (body: CreatePostBody) => ({
  ...body,
  parentId: body.parentId ? parsePostId(body.parentId) : null,
  quoteOfId: body.quoteOfId ? parsePostId(body.quoteOfId) : null,
});

/** At most this many of a post's reposts are fanned out again when one is taken back (the earliest). */
const REFAN_REPOSTS = 200;

export class PostsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifier: Notifier,
    private readonly media: MediaService,
    private readonly jobs: Jobs,
    /** Home feeds: a post's fan-out job is enqueued in its transaction. Null without feeds. */
    private readonly feeds: FeedsService | null = null,
    /** Link cards: a job started once a post has committed (no query on the create path). */
    private readonly cards: CardsService | null = null,
    /** Polls: a post's poll is written, and its end scheduled, in the post's transaction. */
    private readonly polls: PollsService | null = null,
    /** Federation: told of a post written or deleted once it has committed (lib/federation-link.ts). */
    private readonly federation: FederationLink | null = null,
  ) {}

  /**
   * Creates a post (a reply when parentId is set). In one transaction: the parent's reply count,
   * the author's posts count, its images (uploads of the author's) and the notifications (the
   * parent's author for a reply, then everyone mentioned: the notifier decides who of them is told).
   * With `within`, in the caller's transaction and outbox (a scheduled post's publication, its check
   * when scheduled): the same statements and the same refusals, published when the caller commits.
   */
  async create(
    viewer: PostAuthor,
    body: {
      text: CreatePostBody['text'];
      parentId: PostId | null;
      media?: CreatePostBody['media'];
      quoteOfId?: PostId | null;
      visibility?: Visibility;
      quotePolicy?: QuotePolicy;
      spoilerText?: string;
      sensitive?: boolean;
      /** Parsed (createPostBody.poll); never with media (the contract refuses both). */
      poll?: PollInput;
      /**
       * A post written elsewhere (modules/federation, its author remote): its Note's id, and the members
       * it mentions by its tags (its text's @names are not read: they may be anyone's anywhere). A reply
       * wider than its parent is narrowed, never refused.
       */
      remote?: { uri: string; mentionIds: number[] };
    },
    within?: { tx: Tx; outbox: Outbox },
  ): Promise<Post> {
    const text = body.text.replace(/\r\n/g, '\n');
    // A content warning makes the post sensitive (its pictures covered too), as Mastodon does.
    const spoilerText = body.spoilerText ?? '';
    const sensitive = (body.sensitive ?? false) || spoilerText !== '';
    let { parentId } = body;
    const media = body.media ?? [];
    let quoteOfId = body.quoteOfId ?? null;
    const me = viewer.userId;
    const { remote } = body;
    const mentioned = remote ? [] : extractMentions(text);
    // People elsewhere (`@user@host`) Pipit knows: in the post's audience, told through federation.
    const mentionedElsewhere = remote ? [] : extractRemoteMentions(text);
    // Packed from what was written and the session's own profile, not read back: one statement
    // fewer per post (a read-back cost 28 % of create's throughput in the bench). toPost takes the
    // view's row type, so a column added to postViewColumns fails to compile here.
    const pack = (
      post: repo.PostTableRow,
      replyTo: { id: number; username: string; domain: string | null } | null,
      attached: Post['media'] = [],
      quote: Post['quote'] = null,
    ) => ({
      ...toPost({
        ...post,
        replyTo: replyTo ? { id: String(replyTo.id), username: replyTo.username, domain: replyTo.domain } : null,
        authorId: me,
        authorName: viewer.name,
        authorUsername: viewer.username,
        authorProfileImage: viewer.profileImage,
        authorDomain: viewer.domain ?? null,
        likedByMe: false,
        bookmarkedByMe: false,
        repostedByMe: false,
        reposted: null,
        media: null,
        quoteOfId: null,
        quote: null,
        quoteHidden: false,
        card: null, // fetched after the commit (modules/cards)
        poll: null,
        pollMine: null,
      }),
      media: attached,
      quote,
    });
    try {
      if (
        // In a caller's transaction the post goes the general way (the one-statement insert is grouped across requests).
        within === undefined &&
        remote === undefined &&
        parentId === null &&
        mentioned.length === 0 &&
        mentionedElsewhere.length === 0 &&
        media.length === 0 &&
        quoteOfId === null &&
        body.poll === undefined &&
        // A direct post starts a conversation, written in the transaction below.
        (body.visibility ?? viewer.defaultVisibility) !== 'direct'
      ) {
        // No parent to lock, nobody to notify: the post, the count, its hashtags and the fan-out's outbox row in one statement.
        const visibility = body.visibility ?? viewer.defaultVisibility;
        const quotePolicy = quotePolicyFor(visibility, body.quotePolicy);
        const tags = visibility === 'public' ? extractHashtags(text) : [];
        const post = await repo.insertTopLevelPost(
          this.db,
          { authorId: me, text, tags, visibility, quotePolicy, spoilerText, sensitive },
          this.feeds !== null,
        );
        const view = pack(post, null);
        await this.events.publish([{ type: 'post.created', postId: post.id, authorId: me, parentId: null, view }]);
        this.cards?.postCreated({ id: post.id, authorId: me, text, hasMedia: false });
        this.federation?.current?.postCreated(post.id);
        return view;
      }
      const write = async (tx: Tx, outbox: Outbox) => {
        // A reply to, or a quote of, a repost's row is one of the post it reposts.
        if (parentId !== null) parentId = (await repo.findRepostTarget(tx, parentId)) ?? parentId;
        if (quoteOfId !== null) quoteOfId = (await repo.findRepostTarget(tx, quoteOfId)) ?? quoteOfId;
        let parentAuthorId: number | null = null;
        let replyTo: { id: number; username: string; domain: string | null } | null = null;
        let visibility = body.visibility ?? viewer.defaultVisibility;
        if (parentId !== null) {
          // Updating the parent first also locks it: it cannot be deleted under the new reply.
          parentAuthorId = await repo.bumpPostCount(tx, parentId, 'replyCount', 1);
          if (parentAuthorId === null) throw postNotFound();
          await refuseUnseen(tx, me, parentId);
          const parent = (await repo.findPostAudience(tx, parentId))!;
          // A reply is never seen by more people than its parent: by default it takes the narrower of the two.
          if (body.visibility === undefined) {
            if (widerThan(visibility, parent.visibility)) visibility = parent.visibility;
          } else if (widerThan(body.visibility, parent.visibility)) {
            if (remote) visibility = parent.visibility;
            else
              throw invalid(
                'visibility',
                `A reply cannot be seen by more people than the post it answers (${parent.visibility}).`,
              );
          }
          replyTo = await repo.findPostAuthorName(tx, parentId);
        }
        const quotePolicy = quotePolicyFor(visibility, body.quotePolicy);
        let quoted: QuotedPost | null = null;
        if (quoteOfId !== null) {
          quoted = toQuotedPost(await repo.findQuoted(tx, quoteOfId));
          if (!quoted) throw postNotFound();
          await refuseUnseen(tx, me, quoteOfId);
          await refuseQuote(tx, me, quoteOfId);
        }
        const post = await repo.insertPost(tx, {
          authorId: me,
          parentId,
          text,
          quoteOfId,
          visibility,
          quotePolicy,
          spoilerText,
          sensitive,
          uri: remote?.uri ?? null,
        });
        await repo.addToPostsCount(tx, me, 1);
        const mentionedIds = remote ? remote.mentionIds : await repo.findUserIdsByUsernames(tx, mentioned);
        const mentionedRemoteIds = await repo.findRemoteIdsByHandles(tx, mentionedElsewhere);
        // Its audience beyond the author's followers: whom it mentions, and the author it answers.
        const reached = [
          ...new Set([...mentionedIds, ...mentionedRemoteIds, ...(parentAuthorId !== null ? [parentAuthorId] : [])]),
        ].filter((id) => id !== me);
        await repo.insertMentions(tx, post.id, reached);
        const attached = await this.media.attachWithin(tx, me, post.id, media);
        let view = pack(post, replyTo, attached, quoted ? { state: 'shown', post: quoted } : null);
        // The event carries the post as a visitor sees it: a poll's hidden counts hidden.
        let seen = view;
        if (body.poll !== undefined) {
          if (!this.polls) throw new Error('PostsService: a poll needs the polls service');
          const pollEnds = await this.polls.createIn(tx, outbox, post.id, body.poll);
          view = { ...view, poll: newPoll(post.id, body.poll, pollEnds, true) };
          seen = { ...view, poll: newPoll(post.id, body.poll, pollEnds, false) };
        }
        outbox.add({ type: 'post.created', postId: post.id, authorId: me, parentId, view: seen });
        await this.feeds?.enqueueFanOut(tx, post.id);
        // Hashtag pages and trends list public posts only.
        if (visibility === 'public') await insertPostHashtags(tx, post.id, extractHashtags(text));

        const candidates: Candidate[] = [
          ...(parentAuthorId !== null ? [{ userId: parentAuthorId, type: 'reply' as const }] : []),
          ...(quoted ? [{ userId: Number(quoted.author.id), type: 'quote' as const }] : []),
          ...mentionedIds.map((userId) => ({ userId, type: 'mention' as const })),
        ];
        // Nobody is told of a post they may not see (a followers-only quote, to a quoted author who does not follow).
        const outside = new Set(
          await readersHiding(
            tx,
            post.id,
            candidates.map((c) => c.userId),
          ),
        );
        await this.notifier.notify(
          tx,
          outbox,
          { actorId: me, postId: post.id },
          candidates.filter((c) => !outside.has(c.userId)),
        );
        if (visibility === 'direct') {
          // Its conversation, for the author and whoever it reaches (not those it is hidden from: a block, a mute).
          const hiding = new Set(await readersHiding(tx, post.id, reached));
          await recordDirectPost(
            tx,
            outbox,
            { id: post.id, authorId: me, parentId, createdAt: post.createdAt },
            reached.filter((id) => !hiding.has(id)),
          );
        }
        // Once it is committed (here, or by the caller whose transaction this is): its link card is fetched.
        outbox.afterCommit(() => {
          this.cards?.postCreated({ id: post.id, authorId: me, text, hasMedia: media.length > 0 });
          // Its audience elsewhere hears of it (a Create(Note) through the federation's queue).
          this.federation?.current?.postCreated(post.id);
        });
        return view;
      };
      return await (within ? write(within.tx, within.outbox) : commitThenPublish(this.db, this.events, write));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw postNotFound();
      throw error;
    }
  }

  async get(viewer: Viewer, id: PostId): Promise<Post> {
    const row = await repo.findPostView(this.db, viewerIdOf(viewer), id);
    if (!row) throw postNotFound();
    return toPost(row);
  }

  /** Several posts as the viewer sees them, in the order of `ids` (unknown or hidden ones left out): one statement. */
  async many(viewer: Viewer, ids: readonly number[]): Promise<Post[]> {
    if (ids.length === 0) return [];
    const rows = new Map(
      (await repo.findPostViews(this.db, viewerIdOf(viewer), [...new Set(ids)], 'all')).map((r) => [r.id, r]),
    );
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row ? [toPost(row)] : [];
    });
  }

  /**
   * The list cursor that continues below the timeline entry `id` (a post or a repost: its own key),
   * for APIs that page by item ids (Mastodon's max_id). Null when there is no such entry.
   */
  async cursorBelowEntry(id: number): Promise<string | null> {
    const at = await repo.findEntryCursor(this.db, id);
    return at ? encodeCursor(at) : null;
  }

  /** Who liked the post (newest first, at most `limit`), as the viewer may see them; 404 when they cannot see the post. */
  async likedBy(viewer: Viewer, id: PostId, limit: number): Promise<User[]> {
    await this.get(viewer, id);
    return (await repo.findPostPeople(this.db, viewerIdOf(viewer), id, 'likers', limit)).map(toUserView);
  }

  /** Who reposted the post (newest first, at most `limit`), as the viewer may see them; 404 when they cannot see the post. */
  async repostedBy(viewer: Viewer, id: PostId, limit: number): Promise<User[]> {
    await this.get(viewer, id);
    return (await repo.findPostPeople(this.db, viewerIdOf(viewer), id, 'reposters', limit)).map(toUserView);
  }

  /** The posts the member liked, newest like first (at most `limit`), those they can still see. */
  async liked(viewer: SessionUser, limit: number): Promise<Post[]> {
    const ids = await repo.findLikedPostIds(this.db, viewer.userId, limit);
    const rows = new Map((await repo.findPostViews(this.db, viewer.userId, ids, 'blocks')).map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row ? [toPost(row)] : [];
    });
  }

  /**
   * Deletes one's own post: 404 for an unknown post, 403 for someone else's. Replies stay (their
   * parent becomes null); likes, notifications and images of the post go with it (foreign keys
   * cascade), and the image files nothing else uses once it has committed.
   */
  async delete(viewer: SessionUser, postId: PostId): Promise<void> {
    // A repost's row is taken back as a repost (its count, its notification), not as a post.
    const target = await repo.findRepostTarget(this.db, postId);
    if (target !== null && target !== postId) {
      if ((await repo.findPostAuthor(this.db, postId)) !== viewer.userId) {
        throw forbidden('You can only delete your own posts.');
      }
      await this.unrepost(viewer, target);
      return;
    }
    const removed = await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const removed = await this.deleteWithin(tx, outbox, postId, viewer.userId);
      if (!removed) {
        throw (await repo.postVisibleTo(tx, viewer.userId, postId))
          ? forbidden('You can only delete your own posts.')
          : postNotFound();
      }
      return removed;
    });
    this.collect(removed.files);
  }

  /**
   * Deletes a post within the caller's transaction (only `authorId`'s, when given: a moderator's
   * removal gives null), with its counts and its event. Answers the deleted post's author and text,
   * and the image files to `collect` once committed; null when there is no such post (of theirs).
   */
  async deleteWithin(
    tx: Tx,
    outbox: Outbox,
    postId: number,
    authorId: number | null,
  ): Promise<{ authorId: number; text: string; files: string[] } | null> {
    const files = await this.media.postFilesWithin(tx, postId);
    const deleted = await repo.deletePostBy(tx, postId, authorId);
    if (!deleted) return null;
    // Its poll went with it (cascade); the job that would end it goes too.
    await this.polls?.removeIn(tx, postId);
    if (deleted.parentId !== null) await repo.bumpPostCount(tx, deleted.parentId, 'replyCount', -1);
    await repo.addToPostsCount(tx, deleted.authorId, -1);
    outbox.add({ type: 'post.deleted', postId, authorId: deleted.authorId, parentId: deleted.parentId });
    outbox.afterCommit(() => this.federation?.current?.postDeleted(postId, deleted.authorId));
    return { authorId: deleted.authorId, text: deleted.text, files };
  }

  /** Deletes, after the commit, the image files of deleted posts that nothing else uses. */
  collect(files: string[]): void {
    if (files.length > 0) this.jobs.run('media.collect', () => this.media.collect(files));
  }

  /** Someone's posts (replies included), newest first. */
  async listByUser(viewer: Viewer, authorId: UserId, page: PageRequest): Promise<Page<Post>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) =>
        // A mute hides nothing on the muted person's own profile; a block hides it all, both ways.
        repo.findPostPage(
          this.db,
          viewerIdOf(viewer),
          repo.onProfileOf(authorId, viewerIdOf(viewer)),
          cursor,
          'newest',
          limit,
          'blocks',
        ),
      toPost,
      async () => {
        if (!(await userExists(this.db, authorId))) throw userNotFound();
      },
    );
  }

  /** The replies to a post, oldest first (a conversation reads top to bottom). */
  async listReplies(viewer: Viewer, parentId: PostId, page: PageRequest): Promise<Page<Post>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) =>
        repo.findPostPage(
          this.db,
          viewerIdOf(viewer),
          repo.byParent(parentId, viewerIdOf(viewer)),
          cursor,
          'oldest',
          limit,
        ),
      toPost,
      async () => {
        if (!(await repo.postVisibleTo(this.db, viewerIdOf(viewer), parentId))) throw postNotFound();
      },
    );
  }

  /**
   * The conversation above a post, root first and its parent last (the nearest MAX_ANCESTORS of a
   * longer one). A post whose parent was deleted starts its own conversation. 404 for an unknown post.
   */
  async listAncestors(viewer: Viewer, postId: PostId): Promise<{ items: Post[] }> {
    if (!(await repo.postVisibleTo(this.db, viewerIdOf(viewer), postId))) throw postNotFound();
    const ids = await repo.findAncestorIds(this.db, postId, MAX_ANCESTORS);
    if (ids.length === 0) return { items: [] };
    const rows = new Map((await repo.findPostViews(this.db, viewerIdOf(viewer), ids, 'blocks')).map((r) => [r.id, r]));
    // Nearest first from the walk; a conversation reads from its root down.
    const items = ids.toReversed().flatMap((ancestorId) => {
      const row = rows.get(ancestorId);
      return row ? [toPost(row)] : [];
    });
    return { items };
  }

  /** Likes a post (once, however often asked) and notifies its author; answers the updated post. */
  async like(viewer: SessionUser, postId: PostId): Promise<Post> {
    const me = viewer.userId;
    try {
      await commitThenPublish(this.db, this.events, async (tx, outbox) => {
        if (!(await repo.insertLike(tx, me, postId))) return;
        const authorId = await repo.bumpPostCount(tx, postId, 'likeCount', 1);
        if (authorId !== null) await refuseUnseen(tx, me, postId);
        outbox.add({ type: 'post.liked', postId, userId: me });
        outbox.afterCommit(() => this.federation?.current?.liked(me, postId));
        if (authorId !== null)
          await this.notifier.notify(tx, outbox, { actorId: me, postId }, [{ userId: authorId, type: 'like' }]);
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw postNotFound();
      throw error;
    }
    return this.get(viewer, postId);
  }

  /**
   * Reposts a post (once, however often asked; a repost's id reposts what it reposts): a row of the
   * viewer's that stands for the post in their followers' timelines, fanned out like a post. Counted
   * on the post; its author is notified. Answers the post.
   */
  async repost(viewer: SessionUser, postId: PostId): Promise<Post> {
    const me = viewer.userId;
    const target = await repo.findRepostTarget(this.db, postId);
    if (target === null) throw postNotFound();
    try {
      await commitThenPublish(this.db, this.events, async (tx, outbox) => {
        const created = await repo.insertRepost(tx, me, target);
        if (created === null) return;
        const authorId = await repo.bumpPostCount(tx, target, 'repostCount', 1);
        if (authorId === null) throw postNotFound();
        await refuseUnseen(tx, me, target);
        const audience = await repo.findPostAudience(tx, target);
        if (audience && !repostable(audience.visibility)) {
          throw forbidden('Only public and unlisted posts can be reposted.');
        }
        const row = await repo.findPostView(tx, null, created);
        if (row) {
          outbox.add({
            type: 'post.created',
            postId: created,
            authorId: me,
            parentId: null,
            view: toPost(row),
            repostOfId: target,
          });
        }
        await this.feeds?.enqueueFanOut(tx, created);
        await this.notifier.notify(tx, outbox, { actorId: me, postId: target }, [{ userId: authorId, type: 'repost' }]);
        outbox.afterCommit(() => this.federation?.current?.reposted(me, target, created));
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw postNotFound();
      throw error;
    }
    return this.get(viewer, target);
  }

  /**
   * The member's own repost of a post, as its timeline entry (the repost wrapping the post): what a
   * Mastodon app is answered after reblogging. 404 when they have not reposted it.
   */
  async repostEntry(viewer: SessionUser, postId: PostId): Promise<Post> {
    const target = await repo.findRepostTarget(this.db, postId);
    const entry = target === null ? null : await repo.findOwnRepost(this.db, viewer.userId, target);
    if (entry === null) throw postNotFound();
    return this.get(viewer, entry as PostId);
  }

  /** Takes a repost back (a no-op when there was none): its row, its count and its notification. */
  async unrepost(viewer: SessionUser, postId: PostId): Promise<Post> {
    const me = viewer.userId;
    const target = await repo.findRepostTarget(this.db, postId);
    if (target === null) throw postNotFound();
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const removed = await repo.deleteRepost(tx, me, target);
      if (removed === null) return;
      const authorId = await repo.bumpPostCount(tx, target, 'repostCount', -1);
      outbox.add({ type: 'post.deleted', postId: removed, authorId: me, parentId: null, repostOfId: target });
      outbox.afterCommit(() => this.federation?.current?.unreposted(me, target, removed));
      // Where this was the post's first entry, the next repost now is: fan the others out again (a
      // feed that has one already, or shows an earlier entry, is left as it is).
      if (this.feeds) {
        for (const id of await repo.findRepostIds(tx, target, REFAN_REPOSTS)) await this.feeds.enqueueFanOut(tx, id);
      }
      if (authorId !== null) {
        await this.notifier.withdraw(tx, { userId: authorId, actorId: me, type: 'repost', postId: target });
      }
    });
    return this.get(viewer, target);
  }

  /** Takes a like back (a no-op when there was none), with the notification it created. */
  async unlike(viewer: SessionUser, postId: PostId): Promise<Post> {
    const me = viewer.userId;
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      if (!(await repo.deleteLike(tx, me, postId))) return;
      const authorId = await repo.bumpPostCount(tx, postId, 'likeCount', -1);
      outbox.add({ type: 'post.unliked', postId, userId: me });
      outbox.afterCommit(() => this.federation?.current?.unliked(me, postId));
      if (authorId !== null) await this.notifier.withdraw(tx, { userId: authorId, actorId: me, type: 'like', postId });
    });
    return this.get(viewer, postId);
  }
}

/**
 * A reply to, quote, like or repost of a post the person acting cannot see — across a block (either
 * way), a suspended person's, outside its audience (visibility.ts) — is refused as the post not
 * existing: nothing says who blocked whom, or that the post is there. Called in the action's
 * transaction, so the refusal rolls back whatever it wrote.
 */
async function refuseUnseen(tx: Executor, me: number, postId: number): Promise<void> {
  if (await isPostHiddenFrom(tx, me, postId)) throw postNotFound();
}

/** A quote the quoted post's author does not allow (its quote policy) is refused; the author may always quote. */
async function refuseQuote(tx: Executor, me: number, quotedId: number): Promise<void> {
  const quoted = await repo.findPostAudience(tx, quotedId);
  if (!quoted || quoted.authorId === me) return;
  if (
    quoted.quotePolicy === 'nobody' ||
    (quoted.quotePolicy === 'followers' && !(await isFollowing(tx, me, quoted.authorId)))
  ) {
    throw forbidden(
      quoted.quotePolicy === 'nobody'
        ? 'The author does not allow quotes of this post.'
        : "Only the author's followers may quote this post.",
    );
  }
}

/**
 * The quote policy a new post gets: the one asked for, or the widest its visibility allows (a
 * followers-only post at most followers, a direct one nobody). Wider than allowed is refused.
 */
function quotePolicyFor(visibility: Visibility, asked: QuotePolicy | undefined): QuotePolicy {
  const widest = widestQuotePolicy(visibility);
  if (asked === undefined) return widest;
  if (quotesWider(asked, widest)) {
    throw invalid('quotePolicy', `A ${visibility} post can be quoted by ${widest} at most.`);
  }
  return asked;
}
