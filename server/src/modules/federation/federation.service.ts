import type { DocumentLoader, Federation } from '@fedify/fedify';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { DatabaseKvStore } from '../../lib/fed-kv.ts';
import { DatabaseMessageQueue } from '../../lib/fed-queue.ts';
import type { DomainBlocksService } from '../moderation/domain-blocks.service.ts';
import { actorKeeper, type KeepActor, remoteImageFetcher } from './actors.ts';
import { findRemoteByHandle } from './federation.repository.ts';
import { buildFederation, type FederationServices } from './federation.ts';
import { ActorKeys } from './keys.ts';
import { type Handle, resolveHandle } from './lookup.ts';
import { OutgoingFederation } from './outgoing.ts';

/** What tests hand the federation instead of the real network (never anything beyond 127.0.0.1). */
export interface FederationTestSeam {
  /**
   * Let Fedify fetch from and deliver to private addresses (a test's server on 127.0.0.1), and WebFinger
   * look up handles over http on loopback addresses.
   */
  allowPrivateAddress?: boolean;
  /** How remote documents are fetched. */
  documentLoader?: DocumentLoader;
  /** Do not listen to the queue: the test runs it by hand (`runQueue`). */
  manualQueue?: boolean;
}

/**
 * Federation as a whole (on when config.federation.enabled): the Fedify federation, its stores on the
 * project's database (fed_kv, fed_queue) and the queue's listener in this process.
 */
export class FederationService {
  readonly federation: Federation<void>;
  readonly queue: DatabaseMessageQueue;
  readonly kv: DatabaseKvStore;
  readonly keys: ActorKeys;
  /** What members do that other servers hear of (lib/federation-link.ts). */
  readonly outgoing: OutgoingFederation;
  private readonly loopbackPeers: boolean;
  private readonly domainBlocks: DomainBlocksService;
  private readonly keepActor: KeepActor;
  private readonly db: Database;
  private readonly publicUrl: string;
  private readonly log: FastifyBaseLogger;
  private readonly listening = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    db: Database,
    config: Config,
    deps: {
      services: FederationServices;
      log: FastifyBaseLogger;
      seam?: FederationTestSeam;
    },
    private readonly manualQueue = deps.seam?.manualQueue ?? false,
  ) {
    const log = deps.log.child({ module: 'federation' });
    this.db = db;
    this.publicUrl = config.publicUrl;
    this.log = log;
    this.loopbackPeers = deps.seam?.allowPrivateAddress ?? false;
    this.domainBlocks = deps.services.domainBlocks;
    this.kv = new DatabaseKvStore(db);
    this.queue = new DatabaseMessageQueue(db, {
      pollMs: config.federation.queuePollMs,
      onError: (error, context) =>
        context.gaveUp
          ? log.error({ err: error, attempts: context.attempts }, 'a queued federation task was given up')
          : log.warn({ err: error, attempts: context.attempts }, 'a queued federation task failed'),
    });
    this.keys = new ActorKeys(db, deps.services.events);
    const fetchImage = remoteImageFetcher({
      isBlocked: (host) => this.domainBlocks.isBlocked(host),
      allowLoopback: this.loopbackPeers,
      log,
    });
    this.keepActor = actorKeeper({ db, media: deps.services.media, log, fetchImage });
    this.federation = buildFederation({
      db,
      publicUrl: config.publicUrl,
      kv: this.kv,
      queue: this.queue,
      keys: this.keys,
      services: deps.services,
      fetchImage,
      keepActor: this.keepActor,
      log,
      ...(deps.seam?.allowPrivateAddress ? { allowPrivateAddress: true } : {}),
      ...(deps.seam?.documentLoader ? { documentLoader: deps.seam.documentLoader } : {}),
    });
    this.outgoing = new OutgoingFederation(this.federation, db, this.kv, config.publicUrl, log);
  }

  /** Whether the handle names this server (`@alice@<our host>`). */
  isLocal(handle: Handle): boolean {
    return handle.host === new URL(this.publicUrl).host.toLowerCase();
  }

  /** Someone elsewhere Pipit knows already, by handle (nothing is fetched): their user id, or null. */
  async known(handle: Handle): Promise<number | null> {
    return (await findRemoteByHandle(this.db, handle.username, handle.host))?.userId ?? null;
  }

  /** Someone elsewhere by handle, found and kept (lookup.ts): their user id, or null. */
  async resolve(handle: Handle): Promise<number | null> {
    // Nobody is looked up on a blocked server.
    if (await this.domainBlocks.isBlocked(handle.host)) return null;
    return resolveHandle(
      {
        federation: this.federation,
        db: this.db,
        publicUrl: this.publicUrl,
        log: this.log,
        keepActor: this.keepActor,
      },
      handle,
      { loopbackPeers: this.loopbackPeers },
    );
  }

  /** Starts taking queued deliveries and incoming activities in this process. */
  start(): void {
    if (this.manualQueue || this.running) return;
    this.running = this.federation.startQueue(undefined, { signal: this.listening.signal });
  }

  async stop(): Promise<void> {
    // What members did last is enqueued before the database goes.
    await this.outgoing.settled();
    this.listening.abort();
    await this.running;
  }

  /** Runs every queued task due now, and what they enqueue in turn (tests); answers how many ran. */
  async runQueue(): Promise<number> {
    // What members did just now may still be on its way into the queue.
    await this.outgoing.settled();
    return this.queue.drain((message) => this.federation.processQueuedTask(undefined, message as never));
  }
}
