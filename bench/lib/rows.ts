// COPY text-format lines for each table. Generated text never contains tabs, newlines or
// backslashes, so no escaping is needed; \N is NULL.
import { extractHashtags } from '@pipit/contract';
import { bios, type Dataset, notificationRows, postTexts } from './dataset.ts';

const ts = (ms: number) => new Date(ms).toISOString();

export const USER_COLUMNS = [
  'id',
  'email',
  'username',
  'name',
  'password_hash',
  'bio',
  'followers_count',
  'following_count',
  'posts_count',
  'created_at',
  'updated_at',
];

export function* userLines(d: Dataset, passwordHash: string): Generator<string> {
  const bio = bios(d);
  for (let i = 0; i < d.usernames.length; i++) {
    const username = d.usernames[i] as string;
    const created = ts(d.userCreatedAt[i] as number);
    yield `${i + 1}\t${username}@bench.pipit.test\t${username}\t${d.names[i]}\t${passwordHash}\t${bio.next().value}\t${
      d.followersCount[i]
    }\t${d.followingCount[i]}\t${d.postsCount[i]}\t${created}\t${created}\n`;
  }
}

export const FOLLOW_COLUMNS = ['follower_id', 'followee_id', 'created_at'];

export function* followLines(d: Dataset): Generator<string> {
  for (let k = 0; k < d.followFollower.length; k++) {
    yield `${d.followFollower[k]}\t${d.followFollowee[k]}\t${ts(d.followAt[k] as number)}\n`;
  }
}

export const POST_COLUMNS = [
  'id',
  'author_id',
  'parent_id',
  'text',
  'reply_count',
  'like_count',
  'created_at',
  'visibility',
  'quote_policy',
];

/** The contract's VISIBILITIES by index, and the quote policy each allows at most. */
const VISIBILITY = ['public', 'unlisted', 'followers', 'direct'] as const;
const QUOTE_POLICY = ['anyone', 'anyone', 'followers', 'nobody'] as const;

const visibilities = new WeakMap<Dataset, Uint8Array>();

/**
 * Each post's visibility (an index of VISIBILITY), as a fediverse server's mix: 85 % public, 8 %
 * unlisted, 5 % followers only, 2 % direct, drawn from the post's id (one seed, one data set); a reply
 * is never wider than its parent (the server's rule).
 */
export function postVisibilities(d: Dataset): Uint8Array {
  const known = visibilities.get(d);
  if (known) return known;
  const out = new Uint8Array(d.postAuthor.length);
  for (let i = 0; i < out.length; i++) {
    const roll = Math.imul(i + 1, 2654435761) >>> 0;
    const pick = roll % 100;
    let v = pick < 85 ? 0 : pick < 93 ? 1 : pick < 98 ? 2 : 3;
    const parent = d.postParent[i] as number;
    if (parent) v = Math.max(v, out[parent - 1] as number);
    out[i] = v;
  }
  visibilities.set(d, out);
  return out;
}

export function* postLines(d: Dataset): Generator<string> {
  const texts = postTexts(d);
  const vis = postVisibilities(d);
  for (let i = 0; i < d.postAuthor.length; i++) {
    const parent = d.postParent[i] as number;
    const v = vis[i] as number;
    yield `${i + 1}\t${d.postAuthor[i]}\t${parent || '\\N'}\t${texts.next().value}\t${d.postReplyCount[i]}\t${
      d.postLikeCount[i]
    }\t${ts(d.postAt[i] as number)}\t${VISIBILITY[v]}\t${QUOTE_POLICY[v]}\n`;
  }
}

export const MENTION_COLUMNS = ['post_id', 'user_id'];

/** Whom each post mentions and, for a reply, whom it answers (the author left out), as the server writes them. */
export function* mentionLines(d: Dataset): Generator<string> {
  for (let i = 0; i < d.postAuthor.length; i++) {
    const author = d.postAuthor[i] as number;
    const mentioned = d.postMention[i] as number;
    const parent = d.postParent[i] as number;
    const answered = parent ? (d.postAuthor[parent - 1] as number) : 0;
    if (mentioned && mentioned !== author) yield `${i + 1}\t${mentioned}\n`;
    if (answered && answered !== author && answered !== mentioned) yield `${i + 1}\t${answered}\n`;
  }
}

export const HASHTAG_COLUMNS = ['tag', 'post_id', 'author_id', 'created_at'];

/** The hashtags of the posts' texts, as the server stores them (modules/hashtags): a tag's page reads these. */
export function* hashtagLines(d: Dataset): Generator<string> {
  const texts = postTexts(d);
  const vis = postVisibilities(d);
  for (let i = 0; i < d.postAuthor.length; i++) {
    const text = texts.next().value as string;
    // Hashtag pages and trends list public posts only.
    if (!text.includes('#') || vis[i] !== 0) continue;
    for (const tag of extractHashtags(text))
      yield `${tag}\t${i + 1}\t${d.postAuthor[i]}\t${ts(d.postAt[i] as number)}\n`;
  }
}

export const LIKE_COLUMNS = ['user_id', 'post_id', 'created_at'];

export function* likeLines(d: Dataset): Generator<string> {
  for (let k = 0; k < d.likeUser.length; k++) {
    yield `${d.likeUser[k]}\t${d.likePost[k]}\t${ts(d.likeAt[k] as number)}\n`;
  }
}

export const NOTIFICATION_COLUMNS = ['user_id', 'actor_id', 'type', 'post_id', 'created_at', 'read_at'];

export function* notificationLines(d: Dataset): Generator<string> {
  for (const n of notificationRows(d)) {
    yield `${n.userId}\t${n.actorId}\t${n.type}\t${n.postId ?? '\\N'}\t${ts(n.at)}\t${n.readAt === null ? '\\N' : ts(n.readAt)}\n`;
  }
}

export const SESSION_COLUMNS = ['token_hash', 'user_id', 'expires_at', 'created_at', 'renewed_at'];
