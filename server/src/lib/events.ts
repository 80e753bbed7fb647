import type { NotificationType, Post } from '@pipit/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../db/client.ts';

/**
 * Something that happened, published after the transaction that made it commits. Ids are the
 * database's numbers. Subscribers (caches, home feeds, live streams; docs/architecture.md lists them) learn
 * of changes here instead of each write path telling each of them.
 */
export type DomainEvent =
  | {
      type: 'post.created';
      postId: number;
      authorId: number;
      parentId: number | null;
      /** The post as a visitor sees it when it was written: the live streams send it without reading it back. */
      view: Post;
      /** For a repost: the post it reposts (whose count changed). */
      repostOfId?: number;
    }
  | {
      type: 'post.deleted';
      postId: number;
      authorId: number;
      parentId: number | null;
      /** For a repost taken back: the post it reposted (whose count changed). */
      repostOfId?: number;
    }
  /**
   * Its author edited the post (text, content warning, pictures): `view` is it as a visitor sees it
   * now, so the live streams send it without reading it back.
   */
  | { type: 'post.updated'; postId: number; authorId: number; view: Post }
  /**
   * The post's link card was fetched after it was posted (modules/cards): `view` is the post with it, as
   * its author reads it less their own likes and bookmarks (the live streams send it to its audience).
   */
  | { type: 'post.card'; postId: number; authorId: number; view: Post }
  | { type: 'post.liked'; postId: number; userId: number }
  | { type: 'post.unliked'; postId: number; userId: number }
  /** Kept in, or taken out of, the person's Bookmarks (only their own views change). */
  | { type: 'post.bookmarked'; postId: number; userId: number }
  | { type: 'post.unbookmarked'; postId: number; userId: number }
  | { type: 'user.followed'; followerId: number; followeeId: number }
  | { type: 'user.unfollowed'; followerId: number; followeeId: number }
  /** The member followed, or unfollowed, a hashtag (its stored form): their Home shows its posts, or no longer. */
  | { type: 'hashtag.followed'; userId: number; tag: string }
  | { type: 'hashtag.unfollowed'; userId: number; tag: string }
  | { type: 'user.updated'; userId: number }
  /**
   * What these people may see changed (a block, an unblock, a mute or muted word added, removed or
   * run out): their home feeds and kept pages are built again.
   */
  | { type: 'visibility.changed'; userIds: number[] }
  /**
   * A moderator suspended the person (`suspended`), or lifted it: everything of theirs leaves every
   * list, or comes back. Cached views and pages go; on a lift their followers' feeds are built again.
   */
  | { type: 'user.suspended'; userId: number; suspended: boolean }
  /** OAuth tokens of the person were revoked (an app's access, a reused code): cached grants go. */
  | { type: 'oauth.revoked'; userId: number }
  /** Fan-out wrote posts of these authors into their followers' home feeds (modules/feeds). */
  | { type: 'feed.updated'; authorIds: number[] }
  /** Sessions of the person ended (signed out, or every session revoked): cached sessions go. */
  | { type: 'sessions.ended'; userId: number }
  | { type: 'notifications.read'; userId: number }
  /** A conversation of the person changed: a direct post in it reached them, or they read or removed it. */
  | { type: 'conversation.updated'; userId: number; rootId: number; change: 'post' | 'read' | 'removed' }
  /**
   * A poll's counts changed (`voterId` voted), it ended (`ended`), or its author changed it (`reset`:
   * every vote went). Carries the counts, so live streams send them without reading the poll back;
   * who may see the option counts is decided per reader (hideTotals until it ends, the author always).
   */
  | {
      type: 'poll.updated';
      postId: number;
      authorId: number;
      voterId: number | null;
      counts: { votersCount: number; votesCount: number; options: number[] };
      hideTotals: boolean;
      ended: boolean;
      reset: boolean;
    }
  | {
      type: 'notification.created';
      userId: number;
      actorId: number;
      notificationType: NotificationType;
      postId: number | null;
    };

export type DomainEventType = DomainEvent['type'];

/**
 * The end of every subscriber's switch over `event.type`: each type is a case (those that change
 * nothing here listed together, saying so), so a new event type does not compile until every
 * subscriber has decided what it means for what it keeps — no cache is left stale silently.
 */
export function exhaustive(event: never): void {
  void event;
}
export type Subscriber = (event: DomainEvent) => void | Promise<void>;

/**
 * Where events are published: `InProcessEventBus` for one process, `RedisEventBus`
 * (lib/redis-event-bus.ts) to carry them to every server process.
 */
export interface EventBus {
  /**
   * Delivers the events to every subscriber of this process before it resolves (so a cache is
   * dropped before the answer leaves). A subscriber's failure is logged, never thrown at the
   * publisher; slow work belongs in a job, not in a subscriber.
   */
  publish(events: readonly DomainEvent[]): Promise<void>;
  /** Calls `subscriber` for every event published from now on; returns the unsubscribe function. */
  subscribe(subscriber: Subscriber): () => void;
  /**
   * Calls `listener` when events from other processes may have been missed (Redis was away and is
   * back), or the data changed without events (`resync`): whoever keeps state built from events
   * rebuilds it.
   */
  onGap(listener: () => void): () => void;
  /**
   * Announces a gap in this process: the data changed without events (a test rewrote the database
   * under a running app, an operator restored it), so what was kept from events is forgotten.
   */
  resync(): void;
  /**
   * Whether every process's events reach this one now (false while Redis is away). Caches built
   * from events (lib/event-cache.ts) answer only while it holds.
   */
  readonly inSync: boolean;
}

export class InProcessEventBus implements EventBus {
  private readonly subscribers = new Set<Subscriber>();
  private readonly gapListeners = new Set<() => void>();

  constructor(private readonly log: FastifyBaseLogger) {}

  async publish(events: readonly DomainEvent[]): Promise<void> {
    for (const event of events) {
      for (const subscriber of this.subscribers) {
        try {
          await subscriber(event);
        } catch (error) {
          this.log.error({ err: error, event: event.type }, 'event subscriber failed');
        }
      }
    }
  }

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  onGap(listener: () => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  resync(): void {
    for (const listener of this.gapListeners) listener();
  }

  /** One process: every event is its own. */
  get inSync(): boolean {
    return true;
  }
}

/** Events gathered inside a transaction, published once it has committed (and dropped if it rolls back). */
export class Outbox {
  readonly events: DomainEvent[] = [];
  /** Work for this process once the transaction has committed (after its events are published). */
  readonly committed: (() => void)[] = [];

  add(...events: DomainEvent[]): void {
    this.events.push(...events);
  }

  /**
   * Runs `task` once the transaction has committed, after its events (a job to start, a timer to
   * wake): never for a transaction that rolled back. Whoever commits calls `runCommitted`.
   */
  afterCommit(task: () => void): void {
    this.committed.push(task);
  }

  /**
   * Takes over what `inner` gathered (a savepoint's work that was kept): its events and its after-commit
   * work then wait for this outbox's transaction.
   */
  absorb(inner: Outbox): void {
    this.events.push(...inner.events);
    this.committed.push(...inner.committed);
  }

  /** Publishes the events, then runs what waited for the commit: call it once the transaction has committed. */
  async publishTo(events: EventBus): Promise<void> {
    await events.publish(this.events);
    for (const task of this.committed) task();
  }
}

/**
 * Runs `work` in one transaction and publishes what it put in the outbox once the transaction has
 * committed: a rolled-back change announces nothing, and nobody hears of a change before it is visible.
 */
export async function commitThenPublish<T>(
  db: Database,
  events: EventBus,
  work: (tx: Tx, outbox: Outbox) => Promise<T>,
): Promise<T> {
  const outbox = new Outbox();
  const result = await db.transaction((tx) => work(tx, outbox));
  await outbox.publishTo(events);
  return result;
}
