import { createECDH } from 'node:crypto';
import net from 'node:net';
import {
  type NotificationType,
  PUSH_ENDPOINT_MAX,
  PUSH_KINDS,
  type PushKind,
  type PushState,
  type PushSubscriptionBody,
} from '@pipit/contract';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Config } from '../../config.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError, invalid } from '../../lib/errors.ts';
import type { Outbox } from '../../lib/events.ts';
import { DatabaseMessageQueue } from '../../lib/fed-queue.ts';
import type { Language } from '../../lib/languages.ts';
import {
  addressAllowed,
  addressRange,
  portAllowed,
  type Resolve,
  SafeFetchError,
  safePost,
} from '../../lib/safe-fetch.ts';
import type { NotificationPusher } from '../notifications/notifier.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { decryptSecret, encryptSecret } from '../two-factor/two-factor.crypto.ts';
import { loadVapidKeys, type VapidKeys } from './push.keys.ts';
import { pushPayload } from './push.payload.ts';
import type { PushSubscriptionRow } from './push.repository.ts';
import * as repo from './push.repository.ts';

export const PUSH_POLICIES = ['all', 'followed', 'follower', 'none'] as const;
export type PushPolicy = (typeof PUSH_POLICIES)[number];

/** The `fed_queue` queue deliveries wait in. */
const QUEUE = 'push';
/** How long a push service keeps a message for a device that is offline (Mastodon's: 48 hours). */
const TTL_SECONDS = 48 * 3600;
/** Tries of one delivery (1, 2, 4, 8 s apart) before it is given up. */
const MAX_ATTEMPTS = 5;

/** A subscription as a browser or an app hands it over. */
export interface SubscriptionKeys {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A Mastodon app's subscription as Mastodon shows it (the presenter's input). */
export type AppSubscription = PushSubscriptionRow;

/**
 * Web Push (RFC 8030, payloads encrypted per RFC 8291, the server identified by VAPID, RFC 8292) for
 * the web app's browsers and Mastodon apps. A subscription belongs to a session (a browser) or an
 * access token (an app) and goes with it. When a notification is written, the notifier queues one
 * delivery per subscription of its recipient in the same transaction (`enqueueIn`); a listener in
 * every process takes them (lib/fed-queue.ts: durable, at least once, retried with backoff), builds the
 * payload, encrypts it with web-push and sends it through the SSRF-safe client (lib/safe-fetch.ts
 * `safePost`). A subscription the push service calls gone (404, 410) is deleted at that answer.
 */
export class PushService implements NotificationPusher {
  private readonly queue: DatabaseMessageQueue;
  private readonly listening = new AbortController();
  private running: Promise<void> | null = null;

  private constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly keys: VapidKeys,
    private readonly log: FastifyBaseLogger,
    /** A notification type in a Mastodon app's words (its payload's `notification_type`). */
    private readonly appWord: (type: NotificationType) => string,
    private readonly resolve?: Resolve,
  ) {
    this.queue = new DatabaseMessageQueue(db, {
      name: QUEUE,
      pollMs: Math.max(config.push.pollMs, 1),
      handlerTimeoutMs: config.push.timeoutMs * 2,
      maxAttempts: MAX_ATTEMPTS,
      onError: (error, context) =>
        context.gaveUp
          ? log.warn({ err: error, attempts: context.attempts }, 'a push delivery was given up')
          : log.info({ err: error, attempts: context.attempts }, 'a push delivery failed; it is tried again'),
    });
  }

  static async create(
    db: Database,
    config: Config,
    deps: { log: FastifyBaseLogger; appWord: (type: NotificationType) => string; resolve?: Resolve },
  ): Promise<PushService> {
    const keys = await loadVapidKeys(db, config.push.vapid);
    return new PushService(db, config, keys, deps.log.child({ module: 'push' }), deps.appWord, deps.resolve);
  }

  /** The VAPID public key (base64url): browsers' `applicationServerKey`, Mastodon's `server_key`. */
  get vapidPublicKey(): string {
    return this.keys.publicKey;
  }

  // The web app: one subscription per session (this browser).

  async state(viewer: SessionUser): Promise<PushState> {
    const row = await repo.findSubscription(this.db, { sessionId: viewer.sessionId });
    return {
      vapidPublicKey: this.keys.publicKey,
      subscription: row ? { endpoint: row.endpoint, kinds: row.kinds.filter(isPushKind) } : null,
    };
  }

  /** Subscribes this browser, or changes what it wants (the same PUT: the browser sends its subscription again). */
  async saveForSession(viewer: SessionUser, body: PushSubscriptionBody, language: Language = 'en'): Promise<PushState> {
    const keys = this.checked(body);
    await this.save(
      viewer.userId,
      { sessionId: viewer.sessionId },
      {
        ...keys,
        kinds: [...new Set(body.kinds)],
        alerts: null,
        policy: 'all',
        standard: true,
        accessToken: null,
        language,
      },
    );
    return this.state(viewer);
  }

  /** Turned off in Settings (the browser unsubscribes too). Nothing to remove is not an error. */
  async removeForSession(viewer: SessionUser): Promise<void> {
    await repo.deleteSubscription(this.db, { sessionId: viewer.sessionId });
  }

  // Mastodon apps: one subscription per access token.

  async ofToken(tokenId: number): Promise<AppSubscription | null> {
    return repo.findSubscription(this.db, { oauthTokenId: tokenId });
  }

  /** Mastodon's POST: a new subscription for the token, replacing the one it had. */
  async subscribeToken(
    userId: number,
    token: { id: number; value: string },
    input: SubscriptionKeys & {
      standard: boolean;
      kinds: NotificationType[];
      alerts: Record<string, boolean>;
      policy: PushPolicy;
      language: Language;
    },
  ): Promise<AppSubscription> {
    const keys = this.checked(input);
    return this.save(
      userId,
      { oauthTokenId: token.id },
      {
        ...keys,
        kinds: input.kinds,
        alerts: input.alerts,
        policy: input.policy,
        standard: input.standard,
        accessToken: encryptSecret(token.value, userId, this.config.authSecret, 'push access token'),
        language: input.language,
      },
    );
  }

  /** Mastodon's PUT: other alerts or policy; null when the token has no subscription. */
  async updateToken(
    tokenId: number,
    changes: { kinds: NotificationType[]; alerts: Record<string, boolean>; policy: PushPolicy },
  ): Promise<AppSubscription | null> {
    return repo.updateSubscription(this.db, { oauthTokenId: tokenId }, changes);
  }

  async removeToken(tokenId: number): Promise<void> {
    await repo.deleteSubscription(this.db, { oauthTokenId: tokenId });
  }

  private async save(
    userId: number,
    owner: repo.PushOwner,
    fields: Omit<repo.NewPushSubscription, 'userId' | 'sessionId' | 'oauthTokenId'>,
  ): Promise<PushSubscriptionRow> {
    return this.db.transaction(async (tx) => {
      const others = await repo.countOtherSubscriptions(tx, userId, owner);
      if (others >= this.config.push.maxPerMember) {
        throw new AppError(
          'LIMIT_REACHED',
          `You can have notifications on at most ${this.config.push.maxPerMember} devices and apps. Turn them off on one first.`,
        );
      }
      return repo.replaceSubscription(tx, owner, {
        ...fields,
        userId,
        sessionId: 'sessionId' in owner ? owner.sessionId : null,
        oauthTokenId: 'oauthTokenId' in owner ? owner.oauthTokenId : null,
      });
    });
  }

  /**
   * The endpoint and keys, checked (INVALID_INPUT naming the field): an https URL (http on loopback
   * only where the tests allow it) without credentials, not an address that is not public; a P-256
   * public key (65 bytes, a point of the curve) and a 16-byte auth secret, in base64 or base64url.
   * Names are resolved, and checked again, at each send.
   */
  private checked(input: SubscriptionKeys): { endpoint: string; p256dh: string; auth: string } {
    let url: URL;
    try {
      url = new URL(input.endpoint);
    } catch {
      throw invalid('endpoint', 'The endpoint is not a URL.');
    }
    if (input.endpoint.length > PUSH_ENDPOINT_MAX) throw invalid('endpoint', 'The endpoint is too long.');
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const loopback = /(^|\.)localhost\.?$/i.test(host) || (net.isIP(host) !== 0 && addressRange(host) === 'loopback');
    const allowLoopback = this.config.push.allowLoopback;
    if (url.protocol !== 'https:' && !(allowLoopback && loopback && url.protocol === 'http:')) {
      throw invalid('endpoint', 'The endpoint must be an https:// URL.');
    }
    if (url.username !== '' || url.password !== '') {
      throw invalid('endpoint', 'The endpoint must not carry a user name or password.');
    }
    if (loopback ? !allowLoopback : net.isIP(host) !== 0 && !addressAllowed(host)) {
      throw invalid('endpoint', 'The endpoint must be on a public address.');
    }
    const port = url.port === '' ? 443 : Number(url.port);
    if (!portAllowed(port) && !(allowLoopback && loopback)) {
      throw invalid('endpoint', 'The endpoint is on a port push notifications are not sent to.');
    }
    const p256dh = decoded(input.keys.p256dh);
    if (p256dh?.length !== 65 || p256dh[0] !== 4 || !onCurve(p256dh)) {
      throw invalid('keys.p256dh', 'The p256dh key is not a P-256 public key.');
    }
    const auth = decoded(input.keys.auth);
    if (auth?.length !== 16) throw invalid('keys.auth', 'The auth secret must be 16 bytes.');
    return { endpoint: url.href, p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url') };
  }

  // Delivery.

  /**
   * The notifier's seam: queues a delivery to each subscription of each notification's recipient,
   * in the notification's transaction, and wakes this process's listener once it has committed.
   */
  async enqueueIn(tx: Executor, outbox: Outbox, written: readonly { id: number; userId: number }[]): Promise<void> {
    const queued = await repo.enqueueDeliveries(tx, QUEUE, written);
    if (queued > 0) outbox.afterCommit(() => this.queue.wake());
  }

  /** Starts taking deliveries in this process (unless the tests run them by hand: `push.pollMs` 0). */
  start(): void {
    if (this.config.push.pollMs <= 0 || this.running) return;
    this.running = this.queue.listen((message) => this.deliver(message as Delivery), {
      signal: this.listening.signal,
    });
  }

  async stop(): Promise<void> {
    this.listening.abort();
    await this.running;
  }

  /** Runs every delivery due now (tests); answers how many ran. */
  drain(): Promise<number> {
    return this.queue.drain((message) => this.deliver(message as Delivery));
  }

  /**
   * Sends one notification to one subscription, if it still wants it (its kinds, its policy). Throws
   * to be tried again (the push service was unreachable or answered 429 or 5xx); a subscription gone
   * (404, 410) or whose endpoint is refused (a private address) is deleted; other refusals are logged.
   */
  private async deliver(message: Delivery): Promise<void> {
    const subscription = await repo.findSubscriptionById(this.db, Number(message.subscriptionId));
    if (!subscription) return;
    const notification = await repo.findPushedNotification(this.db, Number(message.notificationId));
    // Taken back (an unlike) or gone with its post before it was sent: nothing to say.
    if (!notification || notification.userId !== subscription.userId) return;
    if (!subscription.kinds.includes(notification.type)) return;
    if (!(await this.policyAllows(subscription, notification.actorId))) return;
    const app = subscription.oauthTokenId !== null;
    const accessToken =
      app && subscription.accessToken
        ? decryptSecret(subscription.accessToken, subscription.userId, this.config.authSecret, 'push access token')
        : null;
    const payload = pushPayload(notification, this.config.publicUrl, {
      type: app ? this.appWord(notification.type) : notification.type,
      accessToken,
      language: subscription.language,
    });
    const request = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: this.config.push.subject, ...this.keys },
        TTL: TTL_SECONDS,
        contentEncoding: subscription.standard ? 'aes128gcm' : 'aesgcm',
        headers: { Urgency: 'normal' },
      },
    );
    let answer: { status: number; body: string };
    try {
      answer = await safePost(request.endpoint, {
        headers: request.headers as Record<string, string | number>,
        body: request.body as Buffer,
        timeoutMs: this.config.push.timeoutMs,
        allowLoopback: this.config.push.allowLoopback,
        ...(this.resolve ? { resolve: this.resolve } : {}),
      });
    } catch (error) {
      if (error instanceof SafeFetchError && REFUSED_TARGET.has(error.code)) {
        this.log.warn({ subscription: subscription.id, reason: error.message }, 'push endpoint refused; unsubscribed');
        await repo.deleteSubscriptionById(this.db, subscription.id);
        return;
      }
      throw error;
    }
    if (answer.status >= 200 && answer.status < 300) return;
    if (answer.status === 404 || answer.status === 410) {
      await repo.deleteSubscriptionById(this.db, subscription.id);
      return;
    }
    if (answer.status === 429 || answer.status >= 500) {
      throw new Error(`The push service answered ${answer.status}`);
    }
    this.log.warn(
      { subscription: subscription.id, status: answer.status, answer: answer.body.slice(0, 200) },
      'the push service refused a notification',
    );
  }

  /** Mastodon's policy: from everyone, people the member follows, people who follow them, or nobody. */
  private async policyAllows(subscription: PushSubscriptionRow, actorId: number): Promise<boolean> {
    switch (subscription.policy as PushPolicy) {
      case 'all':
        return true;
      case 'none':
        return false;
      case 'followed':
        return repo.follows(this.db, subscription.userId, actorId);
      case 'follower':
        return repo.follows(this.db, actorId, subscription.userId);
    }
  }
}

interface Delivery {
  notificationId: number | string;
  subscriptionId: number | string;
}

/** Endpoints never sent to (the subscription is dropped): not http(s), a private address, a denied port. */
const REFUSED_TARGET = new Set(['INVALID_URL', 'FORBIDDEN_SCHEME', 'FORBIDDEN_PORT', 'FORBIDDEN_ADDRESS']);

const isPushKind = (type: string): type is PushKind => (PUSH_KINDS as readonly string[]).includes(type);

/** Base64 or base64url (browsers and apps send either), or null when it is neither. */
function decoded(value: string): Buffer | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return null;
  return Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** Whether 65 bytes are a point of P-256 (an ECDH with it succeeds). */
function onCurve(point: Buffer): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}
