import type { Actor } from '@fedify/vocab';
import { LIMITS } from '@pipit/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { SafeFetchError, safeFetch } from '../../lib/safe-fetch.ts';
import type { MediaService, PreparedImage } from '../media/media.service.ts';
import * as repo from './federation.repository.ts';
import { remoteActorData } from './federation.ts';

export interface ActorKeeperDeps {
  db: Database;
  media: Pick<MediaService, 'prepareImageBytes' | 'storeWithin' | 'collect'>;
  log: FastifyBaseLogger;
  /** An image from elsewhere (federation.ts: the SSRF-safe fetcher, nothing from a blocked server), or null. */
  fetchImage(url: URL): Promise<Buffer | null>;
}

/** Keeps a remote actor (someone elsewhere) and answers their user id. */
export type KeepActor = (actor: Actor) => Promise<number>;

/**
 * What is kept of someone elsewhere, every time their actor is read (a Follow, a lookup, a note, an Update): their
 * `users` and `remote_actors` rows, and their avatar as a copy of our own — fetched through the SSRF-safe fetcher
 * and the media pipeline (400×400, re-encoded, no metadata) when its address on their server changed, so the web
 * app shows it from Pipit (its content security policy loads images from Pipit only) and their server is not asked
 * by every reader. An avatar that cannot be had leaves the one kept (tried again at the next read); one they
 * removed is removed; a replaced copy's file is collected once nothing uses it.
 */
export function actorKeeper(deps: ActorKeeperDeps): KeepActor {
  return async (actor) => {
    const data = await remoteActorData(actor);
    const kept = await repo.findKeptAvatar(deps.db, data.uri);
    let avatar: { url: string | null; source: string | null } | undefined;
    let image: PreparedImage | null = null;
    if (data.avatar === null) {
      avatar = { url: null, source: null };
    } else if (data.avatar !== kept?.source) {
      image = await avatarCopy(deps, new URL(data.avatar));
      if (image) avatar = { url: image.url, source: data.avatar };
      else if (!kept) avatar = { url: null, source: null };
    }
    const userId = await deps.db.transaction(async (tx) => {
      if (image) await deps.media.storeWithin(tx, [image]);
      return repo.upsertRemoteActor(tx, data, avatar);
    });
    if (avatar && kept?.url && kept.url !== avatar.url) await deps.media.collect([kept.url]);
    return userId;
  };
}

/** How long a remote image may take to arrive. */
const REMOTE_IMAGE_TIMEOUT_MS = 10_000;

/**
 * Fetches an image from elsewhere: through lib/safe-fetch.ts (public addresses only; loopback in tests), at most
 * LIMITS.postImageMaxBytes and REMOTE_IMAGE_TIMEOUT_MS, an image type; nothing from a blocked server. Null when
 * it cannot be had (logged).
 */
export function remoteImageFetcher(deps: {
  isBlocked(host: string): Promise<boolean>;
  allowLoopback: boolean;
  log: FastifyBaseLogger;
}): (url: URL) => Promise<Buffer | null> {
  return async (url) => {
    if (await deps.isBlocked(url.host)) return null;
    try {
      const response = await safeFetch(url.href, {
        timeoutMs: REMOTE_IMAGE_TIMEOUT_MS,
        maxBytes: LIMITS.postImageMaxBytes,
        types: ['image/'],
        accept: 'image/*',
        allowLoopback: deps.allowLoopback,
        userAgent: 'Pipit (ActivityPub)',
      });
      return response.body;
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      deps.log.info({ url: url.href, code: error.code }, 'a remote image could not be fetched');
      return null;
    }
  };
}

async function avatarCopy(deps: ActorKeeperDeps, url: URL): Promise<PreparedImage | null> {
  const bytes = await deps.fetchImage(url);
  if (!bytes) return null;
  try {
    return await deps.media.prepareImageBytes(bytes, 'avatar', 'avatar');
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    deps.log.info({ url: url.href, code: error.code }, 'a remote avatar was not kept');
    return null;
  }
}
