import { canModerate, type DomainBlock } from '@pipit/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { type Database, type Executor, executeRows } from '../../db/client.ts';
import { domainBlocks, users } from '../../db/schema.ts';
import { forbidden, invalid, notFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus } from '../../lib/events.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { toUserSummary, userSummaryColumns } from '../users/users.pack.ts';
import { insertAudit } from './moderation.repository.ts';

const domainNotFound = () => notFound('That server is not blocked.');

/**
 * Blocking whole servers (issue 29): an admin cuts a server off — its activities are dropped before any work
 * (modules/federation asks `isBlocked` for each delivery and lookup) and its accounts known here are suspended,
 * so every rule that hides a suspended person hides them (modules/safety/visibility.ts) and nothing more is
 * delivered to them. Lifting the block restores the accounts it suspended (their `suspended_at` is the
 * block's `created_at`: one transaction's now()), not those a moderator suspended on their own. Both are
 * written to the audit log. Moderators read the list; admins change it.
 */
export class DomainBlocksService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    /** This server's own host, which cannot be blocked. */
    private readonly ownHost: string,
  ) {}

  /** Whether a server (a host, as `users.domain` has it) is blocked. One primary-key probe. */
  async isBlocked(host: string): Promise<boolean> {
    const [row] = await this.db
      .select({ one: sql<number>`1` })
      .from(domainBlocks)
      .where(eq(domainBlocks.domain, host.toLowerCase()))
      .limit(1);
    return row !== undefined;
  }

  /** The blocked servers' names (Mastodon's instance/domain_blocks): no reason, no admin's name. */
  async names(): Promise<string[]> {
    const rows = await this.db
      .select({ domain: domainBlocks.domain })
      .from(domainBlocks)
      .orderBy(asc(domainBlocks.domain));
    return rows.map((row) => row.domain);
  }

  /** The servers this one knows people on (Mastodon's instance/peers), blocked ones left out, by name. */
  async peers(): Promise<string[]> {
    const rows = await executeRows<{ domain: string }>(
      this.db,
      sql`select distinct u.domain from ${users} u
        where u.domain is not null and not exists (select 1 from ${domainBlocks} b where b.domain = u.domain)
        order by u.domain`,
    );
    return rows.map((row) => row.domain);
  }

  /** Every blocked server, by name, with who blocked it and how many of its accounts are known here. */
  async list(viewer: SessionUser): Promise<{ items: DomainBlock[] }> {
    if (!canModerate(viewer.role)) throw forbidden('Only moderators can do this.');
    return { items: await this.find() };
  }

  /** The blocks as the list shows them: every one, or the one of `domain`. */
  private async find(domain?: string): Promise<DomainBlock[]> {
    const rows = await this.db
      .select({
        domain: domainBlocks.domain,
        reason: domainBlocks.reason,
        createdAt: domainBlocks.createdAt,
        by: userSummaryColumns,
        accounts: sql<number>`(select count(*)::int from ${users} u where u.domain = ${domainBlocks.domain})`,
      })
      .from(domainBlocks)
      .leftJoin(users, eq(users.id, domainBlocks.createdBy))
      .where(domain === undefined ? undefined : eq(domainBlocks.domain, domain))
      .orderBy(asc(domainBlocks.domain));
    return rows.map(toDomainBlock);
  }

  /** Blocks a server (again: its reason is updated, nothing else changes). Admins only. The body as the route parsed it. */
  async block(viewer: SessionUser, body: { domain: string; reason: string }): Promise<DomainBlock> {
    requireAdmin(viewer);
    if (body.domain === this.ownHost) throw invalid('domain', 'This server cannot block itself.');
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const [created] = await tx
        .insert(domainBlocks)
        .values({ domain: body.domain, reason: body.reason, createdBy: viewer.userId })
        .onConflictDoNothing()
        .returning({ domain: domainBlocks.domain });
      if (!created) {
        await tx.update(domainBlocks).set({ reason: body.reason }).where(eq(domainBlocks.domain, body.domain));
        return;
      }
      for (const userId of await suspendAccountsOf(tx, body.domain)) {
        outbox.add({ type: 'user.suspended', userId, suspended: true });
      }
      await insertAudit(tx, {
        moderatorId: viewer.userId,
        action: 'domain.blocked',
        subjectUserId: null,
        reportId: null,
        detail: body.domain,
      });
    });
    const [found] = await this.find(body.domain);
    if (!found) throw domainNotFound();
    return found;
  }

  /** Lifts a block: the accounts it suspended are restored. Admins only; 404 when the server is not blocked. */
  async unblock(viewer: SessionUser, domain: string): Promise<void> {
    requireAdmin(viewer);
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      // In one statement: the block goes, and the accounts whose suspension is the block's (to the microsecond).
      const [result] = await executeRows<{ blocked: number; ids: string[] }>(
        tx,
        sql`with gone as (delete from ${domainBlocks} where domain = ${domain} returning created_at),
          restored as (
            update ${users} u set suspended_at = null from gone
            where u.domain = ${domain} and u.suspended_at = gone.created_at returning u.id
          )
          select (select count(*)::int from gone) as blocked,
            coalesce((select json_agg(id::text) from restored), '[]'::json) as ids`,
      );
      if (!result || result.blocked === 0) throw domainNotFound();
      const ids = typeof result.ids === 'string' ? (JSON.parse(result.ids) as string[]) : result.ids;
      for (const id of ids) outbox.add({ type: 'user.suspended', userId: Number(id), suspended: false });
      await insertAudit(tx, {
        moderatorId: viewer.userId,
        action: 'domain.unblocked',
        subjectUserId: null,
        reportId: null,
        detail: domain,
      });
    });
  }
}

/**
 * Suspends the server's accounts not suspended already, as of the block's own time (now(): the transaction's
 * start, as the block's created_at). Answers their ids.
 */
async function suspendAccountsOf(tx: Executor, domain: string): Promise<number[]> {
  const rows = await tx
    .update(users)
    .set({ suspendedAt: sql`now()` })
    .where(and(eq(users.domain, domain), isNull(users.suspendedAt)))
    .returning({ id: users.id });
  return rows.map((row) => row.id);
}

function requireAdmin(viewer: SessionUser): void {
  if (viewer.role !== 'admin') throw forbidden('Only admins can block or unblock a server.');
}

function toDomainBlock(row: {
  domain: string;
  reason: string;
  createdAt: Date;
  by: {
    id: number | null;
    name: string | null;
    username: string | null;
    profileImage: string | null;
    domain: string | null;
  } | null;
  accounts: number;
}): DomainBlock {
  const by = row.by;
  return {
    domain: row.domain,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    createdBy:
      by?.id != null && by.name !== null && by.username !== null
        ? toUserSummary({
            id: by.id,
            name: by.name,
            username: by.username,
            profileImage: by.profileImage,
            domain: by.domain,
          })
        : null,
    accounts: row.accounts,
  };
}
