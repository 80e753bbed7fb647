import type { Federation } from '@fedify/fedify';
import { isActor } from '@fedify/vocab';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { SafeFetchError, safeFetch } from '../../lib/safe-fetch.ts';
import type { KeepActor } from './actors.ts';
import * as repo from './federation.repository.ts';
import { fetchAsInstance } from './federation.ts';

/** `@user@host` (the leading @ optional): a username, then a host name or address with an optional port. */
const HANDLE = /^@?([A-Za-z0-9_][A-Za-z0-9_.-]{0,99})@((?:[A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}(?::\d{1,5})?)$/;
/** A known person's actor is fetched again when older than this. */
const REFRESH_MS = 24 * 60 * 60 * 1000;
const WEBFINGER_MAX_BYTES = 64 * 1024;
const ACTOR_MAX_BYTES = 1024 * 1024;
const WEBFINGER_TIMEOUT_MS = 5_000;

export interface Handle {
  username: string;
  host: string;
}

/** The parts of a fediverse handle, or null when `q` is none. */
export function parseHandle(q: string): Handle | null {
  const match = HANDLE.exec(q.trim());
  return match ? { username: match[1] as string, host: (match[2] as string).toLowerCase() } : null;
}

export interface LookupOptions {
  /** Tests only: WebFinger over http, and loopback addresses allowed (the test's peer on 127.0.0.1). */
  loopbackPeers: boolean;
}

/**
 * Finds someone elsewhere by handle: WebFinger at their server (through lib/safe-fetch.ts: public
 * addresses only, size and time bounded), then their actor through Fedify's document loader, signed
 * as the instance actor (servers with authorized fetch ask for it; the loader refuses private
 * addresses itself), kept as a remote `users` row. Answers their user id, or null when they cannot be
 * found (no such account, the server down or refusing, not an actor). A person fetched within a day is
 * answered as kept.
 */
export async function resolveHandle(
  deps: {
    federation: Federation<void>;
    db: Database;
    publicUrl: string;
    log: FastifyBaseLogger;
    keepActor: KeepActor;
  },
  handle: Handle,
  options: LookupOptions,
): Promise<number | null> {
  const known = await repo.findRemoteByHandle(deps.db, handle.username, handle.host);
  if (known && Date.now() - known.fetchedAt.getTime() < REFRESH_MS) return known.userId;
  try {
    const actorUrl = await webFinger(handle, options);
    if (!actorUrl) return known?.userId ?? null;
    const ctx = deps.federation.createContext(new URL(deps.publicUrl), undefined);
    const actor = await fetchAsInstance(ctx, actorUrl);
    // Fedify answers null for a document whose id is of another origin than the URL it came from.
    if (!isActor(actor) || !actor.id || !actor.inboxId) return known?.userId ?? null;
    return await deps.keepActor(actor);
  } catch (error) {
    deps.log.info({ err: error, handle: `${handle.username}@${handle.host}` }, 'a remote person was not found');
    return known?.userId ?? null;
  }
}

/** The actor URL WebFinger gives for the handle (its `self` link of an ActivityStreams type), or null. */
async function webFinger(handle: Handle, options: LookupOptions): Promise<URL | null> {
  const scheme = options.loopbackPeers ? 'http' : 'https';
  const resource = `acct:${handle.username}@${handle.host}`;
  let body: Buffer;
  try {
    const response = await safeFetch(
      `${scheme}://${handle.host}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
      {
        timeoutMs: WEBFINGER_TIMEOUT_MS,
        maxBytes: WEBFINGER_MAX_BYTES,
        types: ['application/jrd+json', 'application/json'],
        accept: 'application/jrd+json',
        allowLoopback: options.loopbackPeers,
        userAgent: 'Pipit (ActivityPub)',
      },
    );
    body = response.body;
  } catch (error) {
    if (error instanceof SafeFetchError) return null;
    throw error;
  }
  let jrd: unknown;
  try {
    jrd = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  const links = (jrd as { links?: unknown }).links;
  if (!Array.isArray(links)) return null;
  for (const link of links as Array<{ rel?: unknown; type?: unknown; href?: unknown }>) {
    if (link.rel !== 'self' || typeof link.href !== 'string') continue;
    if (typeof link.type !== 'string' || !/^application\/(activity\+json|ld\+json)/.test(link.type)) continue;
    try {
      const url = new URL(link.href);
      if (url.protocol === 'https:' || (options.loopbackPeers && url.protocol === 'http:')) return url;
    } catch {
      // Not a URL: the next link.
    }
  }
  return null;
}

/**
 * Whether an actor's own server says it is gone (410 Gone, or 404) when asked now — what an unsigned Delete of
 * that actor is checked against before anything is removed (its keys went with it, so the Delete cannot be
 * verified). Any other answer, or none, is not "gone".
 */
export async function actorGone(actorUrl: URL, options: LookupOptions): Promise<boolean> {
  try {
    await safeFetch(actorUrl.href, {
      timeoutMs: WEBFINGER_TIMEOUT_MS,
      maxBytes: ACTOR_MAX_BYTES,
      types: ['application/activity+json', 'application/ld+json', 'application/json'],
      accept: 'application/activity+json',
      allowLoopback: options.loopbackPeers,
      userAgent: 'Pipit (ActivityPub)',
    });
    return false;
  } catch (error) {
    return error instanceof SafeFetchError && (error.status === 410 || error.status === 404);
  }
}
