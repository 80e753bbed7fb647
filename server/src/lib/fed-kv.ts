import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import { sql } from 'drizzle-orm';
import { type Database, executeRows } from '../db/client.ts';

/** Expired entries are swept at most this often per store (a read never answers one meanwhile). */
const SWEEP_EVERY_MS = 60_000;

/** A Fedify key (an array of strings) as one PostgreSQL `text[]` parameter. */
export function textArray(key: readonly string[]): string {
  return `{${key.map((part) => `"${part.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

/** Milliseconds of a Temporal.Duration (Fedify hands durations in hours, minutes and seconds). */
export function durationMs(duration: { total(totalOf: { unit: 'millisecond' }): number }): number {
  return duration.total({ unit: 'millisecond' });
}

/**
 * Fedify's key–value store on the project's own database (the `fed_kv` table), the same on PostgreSQL
 * and the embedded PGlite: what Fedify caches (remote documents and keys), the activity ids it has
 * handled (idempotence) and what signature scheme each server speaks. A key is an array of strings,
 * stored as `text[]` (so `list(prefix)` compares its first elements); a value is JSON (jsonb, which both
 * drivers parse); an entry with a
 * ttl has an `expires_at` on the database's clock, reads as absent from then on and is swept later.
 */
export class DatabaseKvStore implements KvStore {
  private lastSweep = 0;

  constructor(private readonly db: Database) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const [row] = await executeRows<{ value: unknown }>(
      this.db,
      sql`select value from fed_kv where key = ${textArray(key)}::text[] and ${live()}`,
    );
    return row === undefined ? undefined : (row.value as T);
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await this.db.execute(sql`
      insert into fed_kv (key, value, expires_at)
      values (${textArray(key)}::text[], ${JSON.stringify(value)}::jsonb, ${expiresAt(options)})
      on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`);
    await this.sweep();
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.execute(sql`delete from fed_kv where key = ${textArray(key)}::text[]`);
  }

  /**
   * Sets `newValue` (undefined: deletes) only if the key now holds `expectedValue` (undefined: holds
   * nothing live), in one statement: two processes racing on a key cannot both win.
   */
  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const k = textArray(key);
    let rows: unknown[];
    if (expectedValue === undefined && newValue === undefined) return (await this.get(key)) === undefined;
    if (expectedValue === undefined) {
      rows = await executeRows(
        this.db,
        sql`insert into fed_kv as existing (key, value, expires_at)
            values (${k}::text[], ${JSON.stringify(newValue)}::jsonb, ${expiresAt(options)})
            on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at
              where existing.expires_at is not null and existing.expires_at <= now()
            returning 1 as done`,
      );
    } else if (newValue === undefined) {
      rows = await executeRows(
        this.db,
        sql`delete from fed_kv where key = ${k}::text[] and ${live()}
              and value = ${JSON.stringify(expectedValue)}::jsonb returning 1 as done`,
      );
    } else {
      rows = await executeRows(
        this.db,
        sql`update fed_kv set value = ${JSON.stringify(newValue)}::jsonb, expires_at = ${expiresAt(options)}
            where key = ${k}::text[] and ${live()} and value = ${JSON.stringify(expectedValue)}::jsonb
            returning 1 as done`,
      );
    }
    return rows.length > 0;
  }

  /** Every live entry whose key starts with `prefix` (the key itself included), in key order. */
  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const where =
      prefix === undefined || prefix.length === 0
        ? live()
        : sql`cardinality(key) >= ${prefix.length} and key[1:${prefix.length}] = ${textArray(prefix)}::text[] and ${live()}`;
    const rows = await executeRows<{ key: unknown; value: unknown }>(
      this.db,
      sql`select to_jsonb(key) as key, value from fed_kv where ${where} order by key`,
    );
    for (const row of rows) yield { key: row.key as KvKey, value: row.value };
  }

  /** Deletes expired entries, at most once a minute (they already read as absent). */
  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    await this.db.execute(sql`delete from fed_kv where expires_at is not null and expires_at <= now()`);
  }
}

const live = () => sql`(expires_at is null or expires_at > now())`;

function expiresAt(options: KvStoreSetOptions | undefined) {
  if (options?.ttl == null) return sql`null::timestamptz`;
  return sql`now() + make_interval(secs => ${durationMs(options.ttl) / 1000})`;
}
