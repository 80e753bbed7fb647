import type { NotificationType } from '@pipit/contract';
import { and, count, eq, ne, or, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../../db/client.ts';
import { pushSubscriptions } from '../../db/schema.ts';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
export type NewPushSubscription = typeof pushSubscriptions.$inferInsert;

/** Who a subscription belongs to: a browser's session or an app's token. */
export type PushOwner = { sessionId: number } | { oauthTokenId: number };

const ownedBy = (owner: PushOwner) =>
  'sessionId' in owner
    ? eq(pushSubscriptions.sessionId, owner.sessionId)
    : eq(pushSubscriptions.oauthTokenId, owner.oauthTokenId);

export async function findSubscription(db: Executor, owner: PushOwner): Promise<PushSubscriptionRow | null> {
  const [row] = await db.select().from(pushSubscriptions).where(ownedBy(owner)).limit(1);
  return row ?? null;
}

export async function findSubscriptionById(db: Executor, id: number): Promise<PushSubscriptionRow | null> {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)).limit(1);
  return row ?? null;
}

/** The member's subscriptions other than `owner`'s (which a new one replaces). */
export async function countOtherSubscriptions(db: Executor, userId: number, owner: PushOwner): Promise<number> {
  const other =
    'sessionId' in owner
      ? or(sql`${pushSubscriptions.sessionId} is null`, ne(pushSubscriptions.sessionId, owner.sessionId))
      : or(sql`${pushSubscriptions.oauthTokenId} is null`, ne(pushSubscriptions.oauthTokenId, owner.oauthTokenId));
  const [row] = await db
    .select({ n: count() })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), other));
  return Number(row?.n ?? 0);
}

/** Writes `owner`'s subscription, replacing the one it had (a session or a token has at most one). */
export async function replaceSubscription(
  db: Executor,
  owner: PushOwner,
  row: NewPushSubscription,
): Promise<PushSubscriptionRow> {
  await db.delete(pushSubscriptions).where(ownedBy(owner));
  const [written] = await db.insert(pushSubscriptions).values(row).returning();
  return written as PushSubscriptionRow;
}

export async function updateSubscription(
  db: Executor,
  owner: PushOwner,
  changes: Pick<NewPushSubscription, 'kinds' | 'alerts' | 'policy'>,
): Promise<PushSubscriptionRow | null> {
  const [row] = await db.update(pushSubscriptions).set(changes).where(ownedBy(owner)).returning();
  return row ?? null;
}

export async function deleteSubscription(db: Executor, owner: PushOwner): Promise<void> {
  await db.delete(pushSubscriptions).where(ownedBy(owner));
}

/** A subscription the push service said is gone (404, 410). */
export async function deleteSubscriptionById(db: Executor, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

/**
 * Queues one delivery per subscription of each notification's recipient, in the notification's
 * transaction (a `fed_queue` message of the `push` queue): none for people without a subscription,
 * one indexed look each. Answers how many were queued.
 */
export async function enqueueDeliveries(
  db: Executor,
  queue: string,
  written: readonly { id: number; userId: number }[],
): Promise<number> {
  if (written.length === 0) return 0;
  const rows = await executeRows<{ id: string }>(
    db,
    sql`insert into fed_queue (queue, message)
        select ${queue}, jsonb_build_object('notificationId', w.id, 'subscriptionId', s.id)
        from jsonb_to_recordset(${JSON.stringify(written)}::jsonb) as w(id bigint, "userId" bigint)
        join push_subscriptions s on s.user_id = w."userId"
        order by w.id, s.id
        returning id`,
  );
  return rows.length;
}

/** What a push says of a notification: its kind, who did it, and the post it is about (null for a follow). */
export interface PushedNotification {
  id: number;
  userId: number;
  actorId: number;
  type: NotificationType;
  actorName: string;
  actorUsername: string;
  actorDomain: string | null;
  actorImage: string | null;
  postId: number | null;
  postText: string | null;
  postSpoilerText: string | null;
  actorBio: string;
}

export async function findPushedNotification(db: Executor, id: number): Promise<PushedNotification | null> {
  const [row] = await executeRows<{
    id: string | number;
    user_id: string | number;
    actor_id: string | number;
    type: NotificationType;
    name: string;
    username: string;
    domain: string | null;
    profile_image: string | null;
    bio: string | null;
    post_id: string | number | null;
    text: string | null;
    spoiler_text: string | null;
  }>(
    db,
    sql`select n.id, n.user_id, n.actor_id, n.type, a.name, a.username, a.domain, a.profile_image, a.bio,
               p.id as post_id, p.text, p.spoiler_text
        from notifications n
        join users a on a.id = n.actor_id
        left join posts p on p.id = n.post_id
        where n.id = ${id}`,
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    actorId: Number(row.actor_id),
    type: row.type,
    actorName: row.name,
    actorUsername: row.username,
    actorDomain: row.domain,
    actorImage: row.profile_image,
    actorBio: row.bio ?? '',
    postId: row.post_id === null ? null : Number(row.post_id),
    postText: row.text,
    postSpoilerText: row.spoiler_text,
  };
}

/** Whether `a` follows `b` (a policy of `followed` or `follower`). */
export async function follows(db: Executor, a: number, b: number): Promise<boolean> {
  const rows = await executeRows(
    db,
    sql`select 1 from follows where follower_id = ${a} and followee_id = ${b} limit 1`,
  );
  return rows.length > 0;
}
