import { createECDH } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Database, executeRows } from '../../db/client.ts';

export interface VapidKeys {
  /** The uncompressed P-256 point, base64url: what browsers take as `applicationServerKey`. */
  publicKey: string;
  /** The private scalar, base64url. */
  privateKey: string;
}

const NAME = 'vapid';

/** A new VAPID key pair (P-256, RFC 8292), in the form web-push and browsers read. */
export function newVapidKeys(): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    // The scalar is 32 bytes; a leading zero byte is dropped by getPrivateKey, so it is padded back.
    privateKey: Buffer.from(ecdh.getPrivateKey().toString('hex').padStart(64, '0'), 'hex').toString('base64url'),
  };
}

/**
 * This server's VAPID keys: the environment's when it gives them, else the pair kept in the database,
 * made the first time it is asked for. Every process gets the same pair: the first insert wins
 * (`on conflict do nothing`) and everyone reads what was kept. Subscriptions are bound to the public
 * key, so losing the pair ends every subscription: it is kept with the data, never in the repository.
 */
export async function loadVapidKeys(db: Database, fromEnv: VapidKeys | null): Promise<VapidKeys> {
  if (fromEnv) return fromEnv;
  const made = newVapidKeys();
  await db.execute(sql`
    insert into instance_keys (name, value) values (${NAME}, ${JSON.stringify(made)}::jsonb)
    on conflict (name) do nothing`);
  const [row] = await executeRows<{ value: unknown }>(db, sql`select value from instance_keys where name = ${NAME}`);
  const value = (typeof row?.value === 'string' ? JSON.parse(row.value) : row?.value) as VapidKeys | undefined;
  if (!value?.publicKey || !value.privateKey) throw new Error('instance_keys has no usable VAPID key pair');
  return value;
}
