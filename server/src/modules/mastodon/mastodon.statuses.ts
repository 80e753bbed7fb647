import type { MediaAttachment, Notification, NotificationType, Post } from '@pipit/contract';
import type { Executor } from '../../db/client.ts';
import { groupKey } from '../notifications/notifications.groups.ts';
import { absolute, textToHtml, toAccount } from './mastodon.entities.ts';
import { findAccountRows } from './mastodon.repository.ts';

type Account = ReturnType<typeof toAccount>;

/** Mastodon's MediaAttachment of an image. */
export function toMedia(publicUrl: string, m: MediaAttachment) {
  const ratio = m.height > 0 ? Math.round((m.width / m.height) * 1000) / 1000 : 1;
  return {
    id: m.id,
    type: 'image' as const,
    url: absolute(publicUrl, m.url),
    preview_url: absolute(publicUrl, m.previewUrl),
    remote_url: null,
    preview_remote_url: null,
    text_url: null,
    meta: { original: { width: m.width, height: m.height, size: `${m.width}x${m.height}`, aspect: ratio } },
    description: m.alt === '' ? null : m.alt,
    blurhash: m.blurhash,
  };
}

/**
 * Posts as Mastodon's Statuses, with each person a whole Account (the posts carry only a summary):
 * their rows are read in one statement for the page. A repost is a status of the reposter whose
 * `reblog` is the post.
 */
export async function toStatuses(db: Executor, publicUrl: string, posts: Post[]) {
  const ids = new Set<number>();
  for (const p of posts) {
    ids.add(Number(p.author.id));
    if (p.repostedBy) ids.add(Number(p.repostedBy.id));
  }
  const accounts = new Map<string, Account>();
  for (const row of await findAccountRows(db, [...ids])) accounts.set(String(row.id), toAccount(publicUrl, row));
  return posts.map((p) => toStatus(publicUrl, p, accounts));
}

/** People (a page of a list, a search's finds) as Accounts, in their order: their rows read in one statement. */
export async function toAccounts(db: Executor, publicUrl: string, people: { id: string }[]) {
  const rows = await findAccountRows(
    db,
    people.map((u) => Number(u.id)),
  );
  const byId = new Map(rows.map((row) => [String(row.id), row]));
  return people.flatMap((u) => {
    const row = byId.get(u.id);
    return row ? [toAccount(publicUrl, row)] : [];
  });
}

export type Status = ReturnType<typeof toStatus>;

function toStatus(publicUrl: string, p: Post, accounts: Map<string, Account>) {
  const url = `${publicUrl}/posts/${p.id}`;
  const status = {
    id: p.id,
    uri: url,
    url,
    created_at: p.createdAt,
    edited_at: null,
    account: accounts.get(p.author.id) as Account,
    content: textToHtml(p.text),
    visibility: 'public' as const,
    sensitive: false,
    spoiler_text: '',
    media_attachments: p.media.map((m) => toMedia(publicUrl, m)),
    application: null,
    mentions: [],
    tags: [],
    emojis: [],
    reblogs_count: p.repostCount,
    favourites_count: p.likeCount,
    replies_count: p.replyCount,
    in_reply_to_id: p.parentId,
    in_reply_to_account_id: p.replyTo?.id ?? null,
    reblog: null as unknown,
    poll: null,
    card: null,
    language: null,
    favourited: p.likedByMe,
    reblogged: p.repostedByMe,
    bookmarked: p.bookmarkedByMe,
    muted: false,
    pinned: false,
    filtered: [],
  };
  if (!p.repostedBy) return status;
  return {
    ...status,
    id: p.entryId,
    uri: `${publicUrl}/posts/${p.entryId}`,
    url: `${publicUrl}/posts/${p.id}`,
    account: accounts.get(p.repostedBy.id) as Account,
    content: '',
    media_attachments: [],
    in_reply_to_id: null,
    in_reply_to_account_id: null,
    reblog: status,
  };
}

/** Pipit's notification kinds as Mastodon's. */
export const TYPES: Record<NotificationType, string> = {
  like: 'favourite',
  reply: 'mention',
  mention: 'mention',
  follow: 'follow',
  quote: 'quote',
  repost: 'reblog',
};

/** Notifications as Mastodon's, with whole accounts and statuses (two reads for the page). */
export async function toNotifications(db: Executor, publicUrl: string, items: Notification[]) {
  const actors = await findAccountRows(db, [...new Set(items.map((n) => Number(n.actor.id)))]);
  const accounts = new Map(actors.map((row) => [String(row.id), toAccount(publicUrl, row)]));
  const withPost = items.filter((n): n is Notification & { post: Post } => n.post !== null);
  const statuses = await toStatuses(
    db,
    publicUrl,
    withPost.map((n) => n.post),
  );
  const byNotification = new Map(statuses.map((status, i) => [withPost[i]!.id, status]));
  return items.flatMap((n) => {
    const account = accounts.get(n.actor.id);
    if (!account) return [];
    const status = byNotification.get(n.id);
    return [
      {
        id: n.id,
        type: TYPES[n.type],
        // The key of its group in the grouped notifications (apps merge live ones into their groups by it).
        group_key: groupKey({ id: n.id, type: n.type, postId: n.post?.id ?? null, createdAt: n.createdAt }),
        created_at: n.createdAt,
        account,
        ...(status ? { status } : {}),
      },
    ];
  });
}
