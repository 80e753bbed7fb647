import {
  anyChange,
  changesBetween,
  type EditPostBody,
  extractHashtags,
  extractMentions,
  type Post,
  type PostHistory,
  type PostVersion,
  type VersionPoll,
} from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import type { EditedMedia, EditedPoll } from '../../db/schema.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { forbidden, invalid, postNotFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus } from '../../lib/events.ts';
import type { FederationLink } from '../../lib/federation-link.ts';
import type { PostId } from '../../lib/ids.ts';
import type { CardsService } from '../cards/cards.service.ts';
import { joinDirectPost } from '../conversations/conversations.service.ts';
import { insertPostHashtags } from '../hashtags/hashtags.repository.ts';
import { attachUpload } from '../media/media.repository.ts';
import { mediaUrl } from '../media/media.service.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { findPoll, findVoterIds } from '../polls/polls.repository.ts';
import type { PollsService } from '../polls/polls.service.ts';
import { readersHiding } from '../safety/safety.repository.ts';
import { type SessionUser, type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import * as repo from './post-edits.repository.ts';
import { toPost } from './posts.pack.ts';
import * as posts from './posts.repository.ts';
import type { PostsService } from './posts.service.ts';

/** What an edit asks, as PostEditsService takes it (the web's PATCH body; the Mastodon API maps its PUT onto it). */
export type PostEdit = EditPostBody;

/**
 * Edits with history (issue 28): the author changes a post's text, content warning, sensitive mark,
 * pictures and poll — never its visibility, parent or quote. Every version is kept (`post_edits`: the
 * original at the first edit, then one per edit), written in the edit's transaction with everything
 * the new text means: hashtags, mentions (someone newly mentioned is reached, as on Mastodon), the
 * pictures taken out (collected once committed, like a deleted post's), the poll (modules/polls
 * `replacePollIn`: other options reset its votes), the link card following the first link
 * (modules/cards), `update` notifications to whoever reposted or quoted it (and to the voters whose
 * votes went), and `post.updated` for the caches and live streams.
 */
export class PostEditsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly notifier: Notifier,
    private readonly posts: PostsService,
    /** Polls: an edit's poll is written by `replacePollIn` in the edit's transaction. */
    private readonly polls: PollsService | null = null,
    /** Link cards: the card follows the edited post's first link. */
    private readonly cards: CardsService | null = null,
    /** Federation: an edit of a member's post is sent on as an Update once committed. */
    private readonly federation: FederationLink | null = null,
  ) {}

  /**
   * Edits the viewer's post: 404 when they cannot see it (or it is gone), 403 when it is someone
   * else's (as delete refuses). An edit that changes nothing is accepted and writes nothing (as
   * Mastodon does). Answers the post as the viewer sees it.
   */
  async edit(viewer: SessionUser, postId: PostId, body: PostEdit): Promise<Post> {
    const me = viewer.userId;
    // A repost's row stands for the post it reposts (as replies and quotes of it do).
    const target = await posts.findRepostTarget(this.db, postId);
    if (target === null) throw postNotFound();
    try {
      await commitThenPublish(this.db, this.events, async (tx, outbox) => {
        const current = await repo.lockPostForEdit(tx, target);
        if (!current) throw postNotFound();
        if (current.authorId !== me) {
          throw (await posts.postVisibleTo(tx, me, target))
            ? forbidden('You can only edit your own posts.')
            : postNotFound();
        }
        const media = await repo.findPostMedia(tx, target);
        const text = body.text === undefined ? current.text : body.text.replace(/\r\n/g, '\n');
        const spoilerText = body.spoilerText ?? current.spoilerText;
        // A content warning makes the post sensitive, as on create; left out, the mark stays as it was
        // chosen — a mark that came with the warning goes with it, one set on its own stays.
        const ownMark = current.sensitive && current.spoilerText === '';
        const sensitive = (body.sensitive ?? ownMark) || spoilerText !== '';

        // The pictures asked for, in grid order: the post's own (kept, alt text changed when given)
        // and uploads of the author's waiting for a post (attached below). Each checked before writing.
        const have = new Map(media.map((m) => [m.id, m]));
        const asked = body.media ?? media.map((m) => ({ id: String(m.id), alt: undefined }));
        const nextIds = asked.map((item) => Number(item.id));
        if (text === '' && asked.length === 0) throw invalid('text', 'Post must not be empty');

        // Its poll: as it is when left out, else the one sent (null: none). A poll and pictures never
        // go together (as on create); a poll keeps its text (checked above: no pictures, so text).
        const pollNow = await findPoll(tx, target, { lock: true });
        const pollBefore: EditedPoll | null = pollNow ? { options: pollNow.options, multiple: pollNow.multiple } : null;
        const pollAfter: EditedPoll | null =
          body.poll === undefined
            ? pollBefore
            : body.poll === null
              ? null
              : { options: body.poll.options, multiple: body.poll.multiple };
        if (pollAfter !== null && asked.length > 0) {
          throw body.poll
            ? invalid('poll', 'A post cannot have both a poll and images')
            : invalid('media', 'A post with a poll cannot have images: remove the poll first.');
        }

        const keptAlt = (item: { id: string; alt?: string | undefined }) => {
          const was = have.get(Number(item.id));
          return was ? { ...was, alt: item.alt ?? was.alt } : null;
        };
        // What the next version looks like before anything is written: uploads are not known yet, so
        // a new id counts as added whatever its row holds.
        const planned = asked.map((item) => keptAlt(item) ?? { id: Number(item.id), alt: item.alt ?? '' });
        const toVersion = (m: { id: number; alt: string }) => ({ id: String(m.id), alt: m.alt });
        const changes = changesBetween(
          {
            text: current.text,
            spoilerText: current.spoilerText,
            sensitive: current.sensitive,
            media: media.map(toVersion),
            poll: pollBefore,
          },
          { text, spoilerText, sensitive, media: planned.map(toVersion), poll: pollAfter },
        );
        if (!anyChange(changes)) {
          // The same version; a poll sent again still moves its end (and may show its counts or hide them).
          if (!body.poll || !this.polls) return;
          await this.polls.replacePollIn(tx, outbox, target, body.poll);
          const [same] = await posts.findPostViews(tx, null, [target]);
          if (same) outbox.add({ type: 'post.updated', postId: target, authorId: me, view: toPost(same) });
          return;
        }

        // The original version, kept at the first edit with the post's own time.
        if (current.editedAt === null) {
          await repo.insertVersion(tx, {
            postId: target,
            text: current.text,
            spoilerText: current.spoilerText,
            sensitive: current.sensitive,
            media,
            poll: pollBefore,
            at: current.createdAt,
          });
        }
        const editedAt = await repo.updatePostContent(tx, target, { text, spoilerText, sensitive });

        // Pictures: those left out go (their files once committed), the others take their new places.
        const removed = media.filter((m) => !nextIds.includes(m.id));
        await repo.deleteMedia(
          tx,
          target,
          removed.map((m) => m.id),
        );
        const nextMedia: EditedMedia[] = [];
        for (const [position, item] of asked.entries()) {
          const kept = keptAlt(item);
          if (kept) {
            await repo.moveMedia(tx, kept.id, position, kept.alt);
            nextMedia.push(kept);
            continue;
          }
          const row = await attachUpload(tx, {
            id: Number(item.id),
            ownerId: me,
            postId: target,
            position,
            alt: item.alt,
          });
          if (!row) {
            throw invalid(
              'media',
              `Image ${position + 1} is not an upload of yours waiting for a post (uploads expire after a day): add it again.`,
            );
          }
          nextMedia.push({
            id: row.id,
            key: row.key,
            previewKey: row.previewKey,
            width: row.width,
            height: row.height,
            blurhash: row.blurhash,
            alt: row.alt,
          });
        }
        await repo.insertVersion(tx, {
          postId: target,
          text,
          spoilerText,
          sensitive,
          media: nextMedia,
          poll: pollAfter,
          at: editedAt,
        });

        // The poll: written by its module; when its options (or single/multiple) change, or it goes,
        // its votes go too, and whoever voted (but its author) is told below.
        let votesGone: number[] = [];
        if (body.poll !== undefined) {
          if (!this.polls) throw new Error('PostEditsService: a poll needs the polls service');
          if (pollBefore !== null && changes.poll !== null) votesGone = await findVoterIds(tx, target);
          await this.polls.replacePollIn(tx, outbox, target, body.poll);
        }

        // The link card follows the first link (none with pictures); a new one is fetched once committed.
        const cardUrl =
          (await this.cards?.postEditedIn(tx, { id: target, text, hasMedia: nextMedia.length > 0 })) ?? null;

        // Hashtag pages and trends follow the new text (public posts only, as when written); search
        // follows by itself (search_vector is computed from the text).
        if (changes.text && current.visibility === 'public') {
          await repo.deleteHashtags(tx, target);
          await insertPostHashtags(tx, target, extractHashtags(text));
        }

        // Someone the new text mentions is reached by it from now on (a followers-only or direct post
        // widens to them, as on Mastodon) and told, unless it is hidden from them.
        const already = new Set([...(await repo.findMentioned(tx, target)), me]);
        const mentioned = changes.text ? await posts.findUserIdsByUsernames(tx, extractMentions(text)) : [];
        const reached = mentioned.filter((id) => !already.has(id));
        await posts.insertMentions(tx, target, reached);
        const hidingNew = new Set(await readersHiding(tx, target, reached));
        const told = reached.filter((id) => !hidingNew.has(id));
        await this.notifier.notify(
          tx,
          outbox,
          { actorId: me, postId: target },
          told.map((userId) => ({ userId, type: 'mention' as const })),
        );
        if (current.visibility === 'direct') {
          await joinDirectPost(tx, outbox, { id: target, authorId: me, createdAt: current.createdAt }, told);
        }

        // Whoever reposted or quoted it is told it changed (Mastodon's `update`), once per edit: an
        // earlier edit's notification makes way for this one. So is whoever voted in its poll when the
        // edit took their vote away (other options, or no poll).
        await repo.withdrawUpdateNotifications(tx, me, target);
        const sharers = [...new Set([...(await repo.findRepostersAndQuoters(tx, target)), ...votesGone])].filter(
          (id) => id !== me,
        );
        const hiding = new Set(await readersHiding(tx, target, sharers));
        await this.notifier.notify(
          tx,
          outbox,
          { actorId: me, postId: target },
          sharers.filter((id) => !hiding.has(id)).map((userId) => ({ userId, type: 'update' as const })),
        );

        // As a visitor would see it (no viewer's own facts): the live streams send it as they send a new post.
        const [row] = await posts.findPostViews(tx, null, [target]);
        if (row) outbox.add({ type: 'post.updated', postId: target, authorId: me, view: toPost(row) });
        // Once committed: the removed pictures' files are collected, the new link's card fetched.
        const removedFiles = removed.flatMap((m) => [mediaUrl(m.key), mediaUrl(m.previewKey)]);
        outbox.afterCommit(() => {
          this.posts.collect(removedFiles);
          this.federation?.current?.postUpdated(target);
          if (cardUrl) this.cards?.cardAfterEdit({ id: target, authorId: me }, cardUrl);
        });
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw postNotFound();
      throw error;
    }
    return this.posts.get(viewer, target);
  }

  /**
   * Every version of a post the viewer may see, oldest first, each with what changed from the one
   * before; a post never edited has one. 404 when they cannot see it.
   */
  async history(viewer: Viewer, postId: PostId): Promise<PostHistory> {
    const target = await posts.findRepostTarget(this.db, postId);
    if (target === null || !(await posts.postVisibleTo(this.db, viewerIdOf(viewer), target))) throw postNotFound();
    const current = await repo.findPostMedia(this.db, target);
    const rows = await repo.findVersions(this.db, target);
    const versions =
      rows.length > 0 ? rows : [await this.currentVersion(viewer, target, current)].filter((v) => v !== null);
    // A picture still in the post is shown; one removed since has had its file deleted: its place only.
    const live = new Set(current.map((m) => m.id));
    const items: PostVersion[] = [];
    for (const [i, v] of versions.entries()) {
      const media = v.media.map((m) => ({
        id: String(m.id),
        url: live.has(m.id) ? mediaUrl(m.key) : null,
        previewUrl: live.has(m.id) ? mediaUrl(m.previewKey) : null,
        width: m.width,
        height: m.height,
        blurhash: m.blurhash,
        alt: m.alt,
      }));
      const before = items[i - 1];
      const version = {
        createdAt: v.createdAt.toISOString(),
        text: v.text,
        spoilerText: v.spoilerText,
        sensitive: v.sensitive,
        media,
        poll: v.poll ?? null,
      };
      items.push({ ...version, changes: before ? changesBetween(before, version) : null });
    }
    return { items };
  }

  /** The one version of a post never edited: as it is. */
  private async currentVersion(viewer: Viewer, postId: PostId, media: EditedMedia[]) {
    const post = await this.posts.get(viewer, postId).catch(() => null);
    if (!post) return null;
    return {
      createdAt: new Date(post.createdAt),
      text: post.text,
      spoilerText: post.spoilerText,
      sensitive: post.sensitive,
      media,
      poll: post.poll
        ? ({ options: post.poll.options.map((o) => o.title), multiple: post.poll.multiple } as VersionPoll)
        : null,
    };
  }
}
