import { EventCache } from '../../lib/event-cache.ts';
import { type DomainEvent, type EventBus, exhaustive } from '../../lib/events.ts';
import { repostedQuoteOf } from './posts.pack.ts';
import type { PostRow } from './posts.repository.ts';

/** What every viewer sees alike of a post. */
type SharedRow = Omit<PostRow, keyof Mine>;

/**
 * What is the viewer's own of a post: their likes, bookmarks and reposts, and whether the post it
 * quotes is hidden from them (a block, a mute, a suspension). The shared row carries the quoted post
 * for everyone; only this flag, kept per viewer, lets a viewer's copy show it.
 */
type Mine = Pick<PostRow, 'likedByMe' | 'bookmarkedByMe' | 'repostedByMe' | 'quoteHidden' | 'pollMine'>;

/**
 * What one viewer's pages depend on: whom they follow, the hashtags they follow, and which posts they
 * liked or bookmarked (as far as seen).
 */
interface ViewerFacts extends HomeSources {
  mine: Map<number, Mine>;
}

/** What a member's Home is made of: the people they follow, and the hashtags (stored form). */
export interface HomeSources {
  followees: ReadonlySet<number>;
  tags: ReadonlySet<string>;
}

/** Reads a member's Home sources (feeds.repository `findHomeSources`). */
export type LoadHomeSources = () => Promise<{ followees: number[]; tags: string[] }>;

const VIEWS = { max: 20_000, ttlMs: 30_000 };
const VIEWERS = { max: 20_000, ttlMs: 60_000 };

export interface HomeRows {
  /** The posts of the ids asked for that still exist, each as the viewer sees it, in the order asked. */
  rows: PostRow[];
  /** Whom the viewer follows (a home post's author is one of them, or the viewer). */
  followees: ReadonlySet<number>;
}

/**
 * Posts as viewers see them, kept in process so that a page of ids read from a home feed needs no
 * statement once its posts have been seen: each post with its author and counts (shared by every
 * viewer, by id), and per viewer whom they follow and which of those posts they liked. Each piece
 * is dropped by the event that changes it (a like, a bookmark, a reply, a delete, a profile edit, a follow),
 * in every process (lib/event-cache.ts); what is missing is read in one statement each.
 */
export class PostViewCache {
  private readonly views: EventCache<number, SharedRow>;
  private readonly viewers: EventCache<number, ViewerFacts>;

  constructor(events: EventBus) {
    this.views = new EventCache(events, VIEWS);
    this.viewers = new EventCache(events, VIEWERS);
    events.subscribe((event) => this.apply(event));
  }

  /** Whom the viewer follows and the hashtags they follow, kept until a follow or unfollow of either. */
  async homeSources(viewerId: number, load: LoadHomeSources): Promise<HomeSources> {
    return this.facts(viewerId, load);
  }

  private async facts(viewerId: number, load: LoadHomeSources): Promise<ViewerFacts> {
    let facts = this.viewers.get(viewerId);
    if (!facts) {
      const ticket = this.viewers.ticket();
      const sources = await load();
      facts = { followees: new Set(sources.followees), tags: new Set(sources.tags), mine: new Map() };
      this.viewers.set(viewerId, facts, ticket);
    }
    return facts;
  }

  async homeRows(
    viewerId: number,
    ids: readonly number[],
    load: { posts: (ids: number[]) => Promise<PostRow[]>; sources: LoadHomeSources },
  ): Promise<HomeRows> {
    const viewsTicket = this.views.ticket();
    const facts = await this.facts(viewerId, load.sources);
    // What the cache holds now: the page as of this moment, whatever events arrive while the rest is read.
    const known = new Map<number, PostRow>();
    const missing: number[] = [];
    for (const id of ids) {
      const view = this.views.get(id);
      const mine = facts.mine.get(id);
      if (view && mine) known.set(id, { ...view, ...mine });
      else missing.push(id);
    }
    if (missing.length > 0) {
      for (const row of await load.posts(missing)) {
        known.set(row.id, row);
        const { likedByMe, bookmarkedByMe, repostedByMe, quoteHidden, pollMine, ...shared } = row;
        this.views.set(row.id, shared, viewsTicket);
        // A like or bookmark of the viewer's since `facts` was taken dropped it from the cache: this
        // copy is then theirs alone, so what it learns here cannot outlive the change.
        facts.mine.set(row.id, { likedByMe, bookmarkedByMe, repostedByMe, quoteHidden, pollMine });
      }
    }
    const rows: PostRow[] = [];
    for (const id of ids) {
      const row = known.get(id);
      if (row) rows.push(row);
    }
    return { rows, followees: facts.followees };
  }

  /** Drops a post's view and the views of its reposts (which carry its counts). */
  private dropShowing(postId: number): void {
    this.views.drop(postId);
    this.views.dropWhere((view) => view.repostOfId === postId);
  }

  private apply(event: DomainEvent): void {
    switch (event.type) {
      case 'post.created':
        if (event.parentId !== null) this.dropShowing(event.parentId); // its reply count
        if (event.repostOfId !== undefined) {
          this.dropShowing(event.repostOfId); // its repost count
          this.viewers.drop(event.authorId); // their "reposted by me"
        }
        break;
      case 'post.deleted': {
        const { postId, parentId } = event;
        this.views.drop(postId);
        if (parentId !== null) this.dropShowing(parentId);
        if (event.repostOfId !== undefined) {
          this.dropShowing(event.repostOfId);
          this.viewers.drop(event.authorId); // their "reposted by me"
        }
        // Its replies now answer nothing (their parent is null); its quotes, and reposts of them, show it
        // unavailable; its reposts are gone with it.
        this.views.dropWhere(
          (view) =>
            view.parentId === postId ||
            view.quoteOfId === postId ||
            view.repostOfId === postId ||
            repostedQuoteOf(view) === postId,
        );
        break;
      }
      case 'post.updated':
        // Its new words and pictures: its view, its reposts', and the quotes that embed it (and reposts of those).
        this.dropShowing(event.postId);
        this.views.dropWhere((view) => view.quoteOfId === event.postId || repostedQuoteOf(view) === event.postId);
        break;
      case 'post.card':
        this.dropShowing(event.postId); // its card arrived
        break;
      case 'post.liked':
      case 'post.unliked':
        this.dropShowing(event.postId);
        this.viewers.drop(event.userId);
        break;
      case 'post.bookmarked':
      case 'post.unbookmarked':
        this.viewers.drop(event.userId); // nobody else's view changes
        break;
      case 'poll.updated':
        // Its counts, on it and its reposts; the voter's own votes; after an edit that reset them, everyone's.
        this.dropShowing(event.postId);
        if (event.voterId !== null) this.viewers.drop(event.voterId);
        if (event.reset) this.viewers.clear();
        break;
      case 'user.followed':
      case 'user.unfollowed':
        this.viewers.drop(event.followerId);
        break;
      case 'hashtag.followed':
      case 'hashtag.unfollowed':
        this.viewers.drop(event.userId);
        break;
      case 'user.suspended':
        // Their posts, and whatever reposts them; and every viewer's quoteHidden of quotes of them: rare,
        // so every view goes.
        this.views.clear();
        this.viewers.clear();
        break;
      case 'visibility.changed':
        // Their rules changed: which quoted posts are hidden from them (quoteHidden) too.
        for (const userId of event.userIds) this.viewers.drop(userId);
        break;
      case 'user.updated':
        // Their posts, and replies and quotes (which name another post's author): rare enough to drop broadly.
        this.views.dropWhere(
          (view) =>
            view.authorId === event.userId ||
            view.parentId !== null ||
            view.quoteOfId !== null ||
            view.repostOfId !== null,
        );
        break;
      case 'oauth.revoked':
      case 'feed.updated':
      case 'sessions.ended':
      case 'notifications.read':
      case 'notification.created':
      case 'conversation.updated':
        // No post view or follow changes. Blocks and mutes are applied when pages are read, not kept here.
        break;
      default:
        exhaustive(event);
    }
  }
}
