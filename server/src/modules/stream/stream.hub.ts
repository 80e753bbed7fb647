import { randomBytes } from 'node:crypto';
import type { LiveEvent, LiveTimeline, PollCounts, Post } from '@pipit/contract';
import { extractHashtags } from '@pipit/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { type DomainEvent, type EventBus, exhaustive } from '../../lib/events.ts';
import { followeeIdsAmong, followerIdsAmong } from '../follows/follows.repository.ts';
import { postsJoiningByTag, tagFollowersAmong } from '../hashtags/hashtags.repository.ts';
import { findListsShowing } from '../lists/lists.repository.ts';
import { countsFor, countsShown } from '../polls/polls.pack.ts';
import { postsHiddenFrom, readersHiding } from '../safety/safety.repository.ts';

/** One open stream: who it is for, and how to write to it. */
export interface StreamClient {
  /** The member, or null for a visitor. */
  userId: number | null;
  address: string;
  /** Writes one event, already framed (`frame`); false when the client is too far behind (it is then dropped). */
  send(frame: string): boolean;
  close(): void;
  /**
   * Whether what opened the stream (a session, an app's token) still holds. Asked when the member's
   * sessions or tokens end (`sessions.ended`, `oauth.revoked`, `user.suspended`): a stream whose
   * credential is gone is closed at once, in every process. Absent for a visitor's stream.
   */
  stillAuthorized?: () => Promise<boolean>;
}

/** What happened, as kept for live delivery and for a reconnect's replay. */
type Entry =
  | {
      seq: number;
      kind: 'post';
      post: Post;
      postId: number;
      authorId: number;
      /**
       * Set when the post is not new: its author edited it (`post.updated`), or its link card arrived
       * (`post.card`). Either is sent to its whole audience, whatever they have open.
       */
      update?: 'edit' | 'card';
    }
  | { seq: number; kind: 'deleted'; event: Extract<LiveEvent, { type: 'post.deleted' }> }
  /** A poll's counts for whoever may see its post (the option counts per reader: `countsShown`). */
  | {
      seq: number;
      kind: 'poll';
      postId: number;
      authorId: number;
      counts: PollCounts;
      hideTotals: boolean;
      ended: boolean;
      reset: boolean;
    }
  /** For one member only: a notification for them, their notifications read, a conversation of theirs changed. */
  | { seq: number; kind: 'personal'; userId: number; event: LiveEvent };

export type OpenResult = { ok: true; close: () => void } | { ok: false; reason: 'member' | 'address' };

/**
 * Live updates for the open streams of this process. It listens to the domain events (from every
 * process when the bus is Redis), turns each into what a stream shows — a new post with the
 * timelines it belongs to for that reader, a deletion, a notification for its recipient — and keeps
 * the last `replayWindow` of them so a reconnect resumes from its Last-Event-ID. Work happens after
 * the publishing request has answered, one event at a time, in order.
 *
 * Event ids are `<boot>.<seq>`: a reconnect carrying another boot's id (this process restarted, or
 * the client reconnected to another process) cannot be resumed exactly and is told to reload.
 */
export class StreamHub {
  private readonly boot = randomBytes(4).toString('hex');
  private seq = 0;
  private readonly entries: Entry[] = [];
  private readonly clients = new Set<StreamClient>();
  /** Streams whose reconnect replay is being read: their live frames wait here (replay). */
  private readonly replaying = new Map<StreamClient, { seq: number; text: string }[]>();
  private readonly perMember = new Map<number, number>();
  private readonly perAddress = new Map<string, number>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly config: Config['stream'],
    private readonly log: FastifyBaseLogger,
  ) {}

  listen(events: EventBus): void {
    events.subscribe((event) => {
      // Never held up by delivery: the publishing request answers first; order is kept.
      this.queue = this.queue
        .then(() => this.handle(event))
        .catch((error) => {
          this.log.error({ err: error, event: event.type }, 'live update failed');
        });
    });
    events.onGap(() => {
      this.queue = this.queue.then(() => this.resetAll());
    });
  }

  /**
   * Events from other processes were missed (Redis was away): nothing kept can be resumed from, and
   * every open stream is told to reload. A reconnect from the reset's id resumes exactly.
   */
  private resetAll(): void {
    this.entries.length = 0;
    const id = this.id(++this.seq);
    for (const client of [...this.clients]) {
      if (!client.send(frame(id, { type: 'reset' }))) client.close();
    }
  }

  /** Resolves once every event published so far has been delivered (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  get size(): number {
    return this.clients.size;
  }

  /** Admits a stream within the caps (per member; per address for visitors). */
  open(client: StreamClient): OpenResult {
    if (client.userId !== null) {
      const open = this.perMember.get(client.userId) ?? 0;
      if (open >= this.config.maxPerMember) return { ok: false, reason: 'member' };
      this.perMember.set(client.userId, open + 1);
    } else {
      const open = this.perAddress.get(client.address) ?? 0;
      if (open >= this.config.maxPerAddress) return { ok: false, reason: 'address' };
      this.perAddress.set(client.address, open + 1);
    }
    this.clients.add(client);
    let closed = false;
    return {
      ok: true,
      close: () => {
        if (closed) return;
        closed = true;
        this.clients.delete(client);
        if (client.userId !== null) decrement(this.perMember, client.userId);
        else decrement(this.perAddress, client.address);
      },
    };
  }

  /** Ends every stream (the server is stopping: open streams would hold the drain). */
  closeAll(): void {
    for (const client of [...this.clients]) client.close();
  }

  /**
   * What a reconnect missed since `lastEventId`, in order, as this reader sees it; a `reset` when
   * that id is not from this process's window.
   */
  async replay(client: StreamClient, lastEventId: string): Promise<void> {
    const [boot, seqText] = lastEventId.split('.');
    const since = Number(seqText);
    const oldest = this.entries[0]?.seq ?? this.seq + 1;
    if (boot !== this.boot || !Number.isInteger(since) || since > this.seq || since < oldest - 1) {
      client.send(frame(this.id(this.seq), { type: 'reset' }));
      return;
    }
    // Live events that come while the replay reads are held, and sent after it: in order, each once.
    const held: { seq: number; text: string }[] = [];
    this.replaying.set(client, held);
    const upTo = this.seq;
    try {
      if (!(await this.sendMissed(client, since))) return;
    } finally {
      this.replaying.delete(client);
    }
    for (const { seq, text } of held) {
      if (seq > upTo && !client.send(text)) {
        client.close();
        return;
      }
    }
  }

  /** Closes the member's streams whose session or token has ended (each asked once). */
  private async closeUnauthorized(userId: number): Promise<void> {
    for (const client of [...this.clients]) {
      if (client.userId !== userId || !client.stillAuthorized) continue;
      if (!(await client.stillAuthorized())) client.close();
    }
  }

  /** The entries after `since` as this reader sees them; false when the client fell too far behind. */
  private async sendMissed(client: StreamClient, since: number): Promise<boolean> {
    const missed = this.entries.filter((e) => e.seq > since);
    const authors = [...new Set(missed.flatMap((e) => (e.kind === 'post' ? [e.authorId] : [])))];
    const followed =
      client.userId === null ? new Set<number>() : new Set(await followeeIdsAmong(this.db, client.userId, authors));
    const userId = client.userId;
    const hidden =
      userId === null
        ? new Set<number>()
        : new Set(
            await postsHiddenFrom(
              this.db,
              userId,
              missed.flatMap((e) =>
                (e.kind === 'post' || e.kind === 'poll') && e.authorId !== userId ? [e.postId] : [],
              ),
            ),
          );
    // A visitor is sent a poll's counts only for posts everyone may see.
    const pollsHiddenFromVisitors = new Set(
      userId === null
        ? await postsHiddenFrom(
            this.db,
            null,
            missed.flatMap((e) => (e.kind === 'poll' ? [e.postId] : [])),
          )
        : [],
    );
    const quoted = missed.flatMap((e) => (e.kind === 'post' ? quotedIdOf(e.post) : []));
    const quotesHidden = new Set(await postsHiddenFrom(this.db, userId, quoted));
    const lists =
      userId === null
        ? new Map<number, string[]>()
        : listsByKey(
            await findListsShowing(
              this.db,
              missed.flatMap((e) => (e.kind === 'post' ? [e.postId] : [])),
              [userId],
            ),
            (row) => row.postId,
          );
    // Posts that join their home through a hashtag they follow.
    const byTag =
      userId === null
        ? new Set<number>()
        : new Set(
            await postsJoiningByTag(
              this.db,
              userId,
              missed.flatMap((e) => taggedPostOf(e) ?? []),
            ),
          );
    for (const entry of missed) {
      if ((entry.kind === 'post' || entry.kind === 'poll') && hidden.has(entry.postId)) continue;
      if (entry.kind === 'poll' && pollsHiddenFromVisitors.has(entry.postId)) continue;
      const quoteHidden = entry.kind === 'post' && quotedIdOf(entry.post).some((id) => quotesHidden.has(id));
      const inHome = (authorId: number) => followed.has(authorId) || (entry.kind === 'post' && byTag.has(entry.postId));
      const event = this.eventFor(
        entry,
        client,
        inHome,
        quoteHidden,
        entry.kind === 'post' ? (lists.get(entry.postId) ?? []) : [],
      );
      if (event && !client.send(frame(this.id(entry.seq), event))) return false;
    }
    return true;
  }

  private id(seq: number): string {
    return `${this.boot}.${seq}`;
  }

  private async handle(event: DomainEvent): Promise<void> {
    const ended = credentialsEndedFor(event);
    if (ended !== null) await this.closeUnauthorized(ended);
    const entry = await this.entryOf(event);
    if (!entry) return;
    this.entries.push(entry);
    if (this.entries.length > this.config.replayWindow) this.entries.shift();
    if (this.clients.size === 0) return;

    let followers = new Set<number>();
    let hiding = new Set<number>();
    let quoteHiding = new Set<number>();
    /** The lists of each online member that show the post (their list pages, Mastodon's `list` stream). */
    let lists = new Map<number, string[]>();
    if (entry.kind === 'post' && this.perMember.size > 0) {
      const online = [...this.perMember.keys()].filter((id) => id !== entry.authorId);
      followers = new Set(await followerIdsAmong(this.db, entry.authorId, online));
      // And the members whose home it joins through a hashtag they follow.
      const tagged = taggedPostOf(entry);
      if (tagged !== null) for (const id of await tagFollowersAmong(this.db, tagged, online)) followers.add(id);
      // Members it is hidden from (a block, a mute: modules/safety/visibility.ts) are not sent it.
      hiding = new Set(await readersHiding(this.db, entry.postId, online));
      // Members the quoted post is hidden from get the quote with it unavailable (its author too).
      const [quotedId] = quotedIdOf(entry.post);
      if (quotedId !== undefined)
        quoteHiding = new Set(await readersHiding(this.db, quotedId, [...this.perMember.keys()]));
      lists = listsByKey(await findListsShowing(this.db, [entry.postId], online), (row) => row.ownerId);
    }
    // A poll's counts go to the members who may see its post, and to visitors when everyone may.
    let pollHiddenFromVisitors = false;
    if (entry.kind === 'poll') {
      if (this.perMember.size > 0) {
        const online = [...this.perMember.keys()].filter((id) => id !== entry.authorId);
        hiding = new Set(await readersHiding(this.db, entry.postId, online));
      }
      pollHiddenFromVisitors = (await postsHiddenFrom(this.db, null, [entry.postId])).length > 0;
    }
    // Visitors get a quote of a post only they may see it (a followers-only one: unavailable).
    const [quotedId] = entry.kind === 'post' ? quotedIdOf(entry.post) : [];
    const quoteHiddenFromVisitors =
      quotedId !== undefined && (await postsHiddenFrom(this.db, null, [quotedId])).length > 0;
    // Each distinct event is serialized once, however many streams it goes to (a post has two
    // variants: with and without Following), then written as it is to each.
    const id = this.id(entry.seq);
    const frames = new Map<LiveEvent, string>();
    const variants = new Map<string, LiveEvent>();
    for (const client of [...this.clients]) {
      if (client.userId !== null && hiding.has(client.userId)) continue;
      if (client.userId === null && pollHiddenFromVisitors) continue;
      const quoteHidden = client.userId === null ? quoteHiddenFromVisitors : quoteHiding.has(client.userId);
      let live = this.eventFor(
        entry,
        client,
        () => client.userId !== null && followers.has(client.userId),
        quoteHidden,
        client.userId === null ? [] : (lists.get(client.userId) ?? []),
      );
      if (!live) continue;
      if (live.type === 'post.created' || live.type === 'post.updated' || live.type === 'post.card') {
        const key = `${live.type}|${live.timelines.join()}|${live.lists?.join() ?? ''}${quoteHidden ? ':quote-unavailable' : ''}`;
        const known = variants.get(key);
        if (known) live = known;
        else variants.set(key, live);
      }
      let text = frames.get(live);
      if (text === undefined) {
        text = frame(id, live);
        frames.set(live, text);
      }
      const held = this.replaying.get(client);
      if (held) held.push({ seq: entry.seq, text });
      else if (!client.send(text)) client.close();
    }
  }

  private async entryOf(event: DomainEvent): Promise<Entry | null> {
    switch (event.type) {
      case 'post.created':
        // Sent as written (a visitor's view): no read per post, however fast posts come.
        return { seq: ++this.seq, kind: 'post', post: event.view, postId: event.postId, authorId: event.authorId };
      case 'post.updated':
      case 'post.card':
        return {
          seq: ++this.seq,
          kind: 'post',
          post: event.view,
          postId: event.postId,
          authorId: event.authorId,
          update: event.type === 'post.updated' ? 'edit' : 'card',
        };
      case 'post.deleted':
        return {
          seq: ++this.seq,
          kind: 'deleted',
          event: {
            type: 'post.deleted',
            id: String(event.postId),
            parentId: event.parentId === null ? null : String(event.parentId),
            authorId: String(event.authorId),
          },
        };
      case 'poll.updated':
        return {
          seq: ++this.seq,
          kind: 'poll',
          postId: event.postId,
          authorId: event.authorId,
          counts: event.counts,
          hideTotals: event.hideTotals,
          ended: event.ended,
          reset: event.reset,
        };
      case 'notification.created':
        return {
          seq: ++this.seq,
          kind: 'personal',
          userId: event.userId,
          event: { type: 'notification', notificationType: event.notificationType },
        };
      case 'notifications.read':
        return { seq: ++this.seq, kind: 'personal', userId: event.userId, event: { type: 'notifications.read' } };
      case 'conversation.updated':
        return {
          seq: ++this.seq,
          kind: 'personal',
          userId: event.userId,
          event: { type: 'conversation', id: String(event.rootId), change: event.change },
        };
      case 'post.liked':
      case 'post.unliked':
      case 'post.bookmarked':
      case 'post.unbookmarked':
      case 'user.followed':
      case 'user.unfollowed':
      case 'hashtag.followed':
      case 'hashtag.unfollowed':
      case 'user.updated':
      case 'visibility.changed':
      case 'user.suspended':
      case 'oauth.revoked':
      case 'feed.updated':
      case 'sessions.ended':
        // Not shown live (a like's count arrives with the next read); credentials are handled before this.
        return null;
      default:
        exhaustive(event);
        return null;
    }
  }

  /**
   * The entry as `client` sees it, or null when it is none of their business; `quoteHidden`: the post
   * it quotes is hidden from them, so its quote goes as unavailable; `lists`: the ids of their lists
   * that show it.
   */
  private eventFor(
    entry: Entry,
    client: StreamClient,
    followsAuthor: (authorId: number) => boolean,
    quoteHidden = false,
    lists: string[] = [],
  ): LiveEvent | null {
    switch (entry.kind) {
      case 'post': {
        // A repost is an entry of its reposter's followers' homes only (Everyone lists public posts).
        // Members outside a post's audience never get here (hiding, readersHiding: visibility.ts).
        const timelines: LiveTimeline[] =
          entry.post.repostedBy || entry.post.visibility !== 'public' ? [] : ['everyone'];
        const mine = client.userId === entry.authorId;
        if (client.userId !== null && (mine || followsAuthor(entry.authorId))) {
          timelines.unshift('following');
        }
        const post: Post = quoteHidden ? { ...entry.post, quote: { state: 'unavailable' } } : entry.post;
        if (entry.update !== undefined) {
          // Whoever may see it, whatever they have open (its page, a list it is in). Members outside its
          // audience were left out by `hiding`; visitors see public and unlisted posts only.
          if (client.userId === null && post.visibility !== 'public' && post.visibility !== 'unlisted') return null;
          const type = entry.update === 'edit' ? 'post.updated' : 'post.card';
          return lists.length > 0 ? { type, post, timelines, lists } : { type, post, timelines };
        }
        if (lists.length > 0) return { type: 'post.created', post, timelines, lists };
        return timelines.length > 0 ? { type: 'post.created', post, timelines } : null;
      }
      case 'deleted':
        return entry.event;
      case 'poll': {
        const shown = countsShown(
          { hideTotals: entry.hideTotals, expired: entry.ended },
          client.userId === entry.authorId,
        );
        return {
          type: 'poll',
          postId: String(entry.postId),
          counts: countsFor(entry.counts, shown),
          ended: entry.ended,
          reset: entry.reset,
        };
      }
      case 'personal':
        return client.userId === entry.userId ? entry.event : null;
    }
  }
}

/** The id of a post entry that carries hashtags (reposts carry none of their own), else null. */
function taggedPostOf(entry: Entry): number | null {
  return entry.kind === 'post' && !entry.post.repostedBy && extractHashtags(entry.post.text).length > 0
    ? entry.postId
    : null;
}

/** List ids grouped by `keyOf` (a post, or a list's owner), as the wire's strings. */
function listsByKey<R extends { listId: number }>(rows: R[], keyOf: (row: R) => number): Map<number, string[]> {
  const grouped = new Map<number, string[]>();
  for (const row of rows) {
    const key = keyOf(row);
    grouped.set(key, [...(grouped.get(key) ?? []), String(row.listId)]);
  }
  return grouped;
}

/** The post a new post's quote shows (its own, or a reposted quote's), when it shows one: [id], else []. */
function quotedIdOf(post: Post): number[] {
  return post.quote?.state === 'shown' ? [Number(post.quote.post.id)] : [];
}

/** One Server-Sent Events frame: `id`, `event` (the type) and the event as one line of JSON. */
export function frame(id: string, event: LiveEvent): string {
  return `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

function decrement<K>(counts: Map<K, number>, key: K) {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}

/** The member some of whose sessions or tokens may have ended with this event, or null. */
function credentialsEndedFor(event: DomainEvent): number | null {
  switch (event.type) {
    case 'sessions.ended':
    case 'oauth.revoked':
      return event.userId;
    case 'user.suspended':
      return event.suspended ? event.userId : null;
    case 'post.created':
    case 'post.updated':
    case 'post.card':
    case 'post.deleted':
    case 'post.liked':
    case 'post.unliked':
    case 'post.bookmarked':
    case 'post.unbookmarked':
    case 'user.followed':
    case 'user.unfollowed':
    case 'hashtag.followed':
    case 'hashtag.unfollowed':
    case 'user.updated':
    case 'visibility.changed':
    case 'feed.updated':
    case 'notifications.read':
    case 'notification.created':
    case 'conversation.updated':
    case 'poll.updated':
      return null;
    default:
      exhaustive(event);
      return null;
  }
}
