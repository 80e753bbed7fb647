import type { webcrypto } from 'node:crypto';
import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { Database } from '../../db/client.ts';
import type { EventBus } from '../../lib/events.ts';
import * as repo from './federation.repository.ts';

/** The two algorithms a local actor signs with: HTTP Signatures (RSA) and Object Integrity Proofs (Ed25519). */
export const KEY_TYPES = ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const;

/** Kept imported key pairs: importing an RSA JWK costs ~1 ms; a delivery burst signs many times per actor. */
const CACHE_MAX = 1_000;

/**
 * Local actors' key pairs (the `actor_keys` table): a member's (`userId`) or the instance actor's
 * (null), one RSASSA-PKCS1-v1_5 and one Ed25519 pair each, made the first time one is needed and
 * kept for good (a changed key breaks what other servers cached). The private key stays here: it is
 * read only to sign, never answered by any API or export.
 */
export class ActorKeys {
  private readonly cache = new Map<string, webcrypto.CryptoKeyPair[]>();

  constructor(
    private readonly db: Database,
    events: EventBus,
  ) {
    // Data changed without events (a restore; tests resetting the database): what was kept may be gone.
    events.onGap(() => this.cache.clear());
  }

  async pairsOf(userId: number | null): Promise<webcrypto.CryptoKeyPair[]> {
    const cacheKey = String(userId);
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    let rows = await repo.findKeys(this.db, userId);
    const missing = KEY_TYPES.filter((type) => !rows.some((row) => row.keyType === type));
    if (missing.length > 0) {
      for (const type of missing) {
        const pair = await generateCryptoKeyPair(type);
        await repo.insertKey(this.db, userId, type, await exportJwk(pair.publicKey), await exportJwk(pair.privateKey));
      }
      // Another request may have made them first: its pair is the one kept.
      rows = await repo.findKeys(this.db, userId);
    }
    const pairs = await Promise.all(
      KEY_TYPES.map(async (type) => {
        const row = rows.find((r) => r.keyType === type) as (typeof rows)[number];
        return {
          publicKey: await importJwk(row.publicKey as webcrypto.JsonWebKey, 'public'),
          privateKey: await importJwk(row.privateKey as webcrypto.JsonWebKey, 'private'),
        };
      }),
    );
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(cacheKey, pairs);
    return pairs;
  }
}
