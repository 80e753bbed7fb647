import type { NotificationType } from '@pipit/contract';
import { type SQL, sql } from 'drizzle-orm';

/**
 * Which notifications belong together, the way Mastodon 4.3 groups them for its grouped
 * notifications API: likes of one post, reposts of one post, follows — each within a time window;
 * every other kind (replies, mentions, quotes) stands alone. A group is named by its key, in
 * Mastodon's format: `favourite-<post id>-<window>`, `reblog-<post id>-<window>`, `follow-<window>`,
 * and `ungrouped-<notification id>` for one that stands alone.
 *
 * The window: Mastodon starts a group at its first notification's hour and keeps it open for 12
 * hours (state it keeps in Redis). Pipit derives the key from the notification alone — fixed
 * 12-hour windows (00:00 and 12:00 UTC), named by their first hour since the epoch — so the same
 * key comes out of every path (the grouped list, the v1 list, the live stream) with nothing stored,
 * and a notification's key never changes. The cost: a burst across 00:00 or 12:00 UTC makes two groups.
 */
export const GROUP_WINDOW_HOURS = 12;
const WINDOW_MS = GROUP_WINDOW_HOURS * 3_600_000;

/** The kinds that group, and the word that starts their keys (Mastodon's name for the kind). */
export const GROUPABLE: Partial<Record<NotificationType, string>> = {
  like: 'favourite',
  repost: 'reblog',
  follow: 'follow',
};
export const GROUPABLE_TYPES = Object.keys(GROUPABLE) as NotificationType[];

/** At most this many of a group's people are named (its newest). */
export const SAMPLE_ACCOUNTS = 8;

/** A notification's window: the first hour (since the epoch) of the 12-hour window it falls in. */
export const windowOf = (createdAt: Date) => Math.floor(createdAt.getTime() / WINDOW_MS) * GROUP_WINDOW_HOURS;

/** What a key needs of a notification. */
export interface Keyed {
  id: string | number;
  type: NotificationType;
  postId: string | number | null;
  createdAt: Date | string;
}

/** A notification's group key; kinds outside `grouped` (default: all that group) stand alone. */
export function groupKey(n: Keyed, grouped: readonly NotificationType[] = GROUPABLE_TYPES): string {
  const word = grouped.includes(n.type) ? GROUPABLE[n.type] : undefined;
  if (!word) return `ungrouped-${n.id}`;
  const window = windowOf(new Date(n.createdAt));
  return n.type === 'follow' ? `${word}-${window}` : `${word}-${n.postId}-${window}`;
}

/** The same key computed by PostgreSQL for the notification row `n` (groupKey's twin; the tests hold them together). */
export function groupKeySql(n: SQL, grouped: readonly NotificationType[]): SQL {
  const window = sql`(floor(extract(epoch from ${n}.created_at) / ${sql.raw(String(WINDOW_MS / 1000))}) * ${sql.raw(String(GROUP_WINDOW_HOURS))})::bigint`;
  const words = GROUPABLE_TYPES.filter((type) => grouped.includes(type));
  if (words.length === 0) return sql`('ungrouped-' || ${n}.id)`;
  const cases = words.map((type) =>
    type === 'follow'
      ? sql`when 'follow' then 'follow-' || ${window}`
      : sql`when ${sql.raw(`'${type}'`)} then ${sql.raw(`'${GROUPABLE[type]}-'`)} || ${n}.post_id || '-' || ${window}`,
  );
  return sql`(case ${n}.type ${sql.join(cases, sql` `)} else 'ungrouped-' || ${n}.id end)`;
}

/** A group key read back: one notification, or the kind, post and window of a group. Null for anything else. */
export type GroupRef = { id: number } | { type: NotificationType; postId: number | null; from: Date; to: Date };

const ID = /^[1-9]\d{0,15}$/;
const LAST_WINDOW_END = Date.UTC(10_000, 0, 1);

export function parseGroupKey(key: string): GroupRef | null {
  const single = /^ungrouped-(\d+)$/.exec(key);
  if (single) return ID.test(single[1]!) ? { id: Number(single[1]) } : null;
  const match = /^(favourite|reblog)-(\d+)-(\d+)$/.exec(key) ?? /^(follow)-(\d+)$/.exec(key);
  if (!match) return null;
  const type = GROUPABLE_TYPES.find((t) => GROUPABLE[t] === match[1])!;
  const post = type === 'follow' ? null : match[2]!;
  const window = type === 'follow' ? match[2]! : match[3]!;
  if ((post !== null && !ID.test(post)) || !/^(0|[1-9]\d{0,8})$/.test(window)) return null;
  const hours = Number(window);
  // A window's first hour, before the year 10000 (its dates are written as four-digit years for the database).
  if (hours % GROUP_WINDOW_HOURS !== 0 || hours * 3_600_000 + WINDOW_MS >= LAST_WINDOW_END) return null;
  return {
    type,
    postId: post === null ? null : Number(post),
    from: new Date(hours * 3_600_000),
    to: new Date(hours * 3_600_000 + WINDOW_MS),
  };
}

/** A group as a page shows it (Mastodon's NotificationGroup, in Pipit's words). */
export interface NotificationGroup {
  key: string;
  /** The kind of the notification that stands for the group on the page. */
  type: NotificationType;
  count: number;
  /** The group's newest notification up to the page's top (Mastodon's most_recent_notification_id, page_max_id). */
  newestId: string;
  /** Its oldest notification on the page (page_min_id). */
  oldestId: string;
  /** When its newest notification up to the page's top was made (latest_page_notification_at). */
  latestAt: string;
  /** Its newest people, newest first, at most SAMPLE_ACCOUNTS. */
  sampleActorIds: string[];
  postId: string | null;
}

/** Kinds whose notification is about a post (shown with it). */
export const ABOUT_A_POST: readonly NotificationType[] = ['like', 'repost', 'reply', 'mention', 'quote'];
