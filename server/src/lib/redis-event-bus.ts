import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type DomainEvent, type EventBus, InProcessEventBus, type Subscriber } from './events.ts';
import type { RedisConnection } from './redis.ts';

/**
 * A message on the channel: the publishing process's id, a newline, then the events as JSON. A
 * process hears its own messages too; the id up front lets it drop them without parsing them.
 */
const messageOf = (origin: string, events: readonly DomainEvent[]) => `${origin}\n${JSON.stringify(events)}`;

/**
 * The event bus of several processes: an event is delivered to this process's subscribers first
 * (so its own caches are right before the answer leaves, whatever Redis is doing), then published
 * on one Redis channel, and every other process delivers it to its subscribers in turn.
 *
 * While Redis is away, each process hears only its own events and keeps serving; when the
 * subscription comes back, `onGap` listeners learn that events may have been missed.
 */
export class RedisEventBus implements EventBus {
  private readonly local: InProcessEventBus;
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly gapListeners = new Set<() => void>();
  private lost: boolean;

  constructor(
    private readonly redis: RedisConnection,
    private readonly log: FastifyBaseLogger,
  ) {
    this.local = new InProcessEventBus(log);
    this.channel = `${redis.prefix}events`;
    const { subscriber } = redis;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) void this.receive(message);
    });
    // Down at start counts as a gap too: streams opened meanwhile heard only this process.
    this.lost = subscriber.status !== 'ready';
    subscriber.on('close', () => {
      this.lost = true;
    });
    // Subscribed here on every (re)connection rather than by ioredis's autoResubscribe, so the gap is
    // announced once Redis has acknowledged the subscription: from then on nothing is missed.
    subscriber.on('ready', () => this.subscribeNow());
    if (subscriber.status === 'ready') this.subscribeNow();
  }

  private subscribeNow(): void {
    this.redis.subscriber
      .subscribe(this.channel)
      .then(() => {
        if (!this.lost) return;
        this.lost = false;
        this.resync();
      })
      .catch((error) => this.log.warn({ err: error }, 'could not subscribe to the events channel'));
  }

  /** Events published in this turn of the event loop, sent to Redis together at its end. */
  private outgoing: DomainEvent[] = [];

  async publish(events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.local.publish(events);
    // Not awaited: the answer waits for this process's subscribers only, never for Redis. If Redis is
    // away (RedisConnection logs the outage once), other processes catch up through their caches'
    // lifetimes and their streams' reset when the subscription returns. Events of one turn (several
    // requests answered together under load) go as one message, in order.
    if (this.outgoing.length === 0) setImmediate(() => this.flush());
    this.outgoing.push(...events);
  }

  private flush(): void {
    const events = this.outgoing;
    this.outgoing = [];
    this.redis.commands.publish(this.channel, messageOf(this.origin, events)).catch(() => {});
  }

  subscribe(subscriber: Subscriber): () => void {
    return this.local.subscribe(subscriber);
  }

  get inSync(): boolean {
    return !this.lost;
  }

  resync(): void {
    for (const listener of this.gapListeners) listener();
  }

  onGap(listener: () => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  private async receive(message: string): Promise<void> {
    const newline = message.indexOf('\n');
    if (newline === this.origin.length && message.startsWith(this.origin)) return; // our own
    let events: unknown;
    try {
      events = JSON.parse(message.slice(newline + 1));
    } catch {
      events = null;
    }
    if (newline < 0 || !Array.isArray(events)) {
      this.log.warn('ignored an unreadable message on the events channel');
      return;
    }
    await this.local.publish(events as DomainEvent[]);
  }
}
