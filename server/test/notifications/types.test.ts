/**
 * Notification types are defined once, in the contract; the database's check constraint must allow
 * exactly them (a type added to the contract without a migration fails here, not in production).
 */
import { NOTIFICATION_TYPES } from '@pipit/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { rowsOf } from '../helpers/social.ts';

describe('notification types', () => {
  const ctx = useTestApp();

  it("the database allows exactly the contract's types", async () => {
    const result = await ctx.db.db.execute(
      sql`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'notifications_type_check'`,
    );
    const [row] = rowsOf<{ def: string }>(result);
    expect(row, 'the constraint exists').toBeDefined();
    const allowed = [...row!.def.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]);
    expect(allowed.sort()).toEqual([...NOTIFICATION_TYPES].sort());
  });
});
