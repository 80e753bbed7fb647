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

export const POST_COLUMNS = ['id', 'author_id', 'parent_id', 'text', 'reply_count', 'like_count', 'created_at'];

export function* postLines(d: Dataset): Generator<string> {
  const texts = postTexts(d);
  for (let i = 0; i < d.postAuthor.length; i++) {
    const parent = d.postParent[i] as number;
    yield `${i + 1}\t${d.postAuthor[i]}\t${parent || '\\N'}\t${texts.next().value}\t${d.postReplyCount[i]}\t${
      d.postLikeCount[i]
    }\t${ts(d.postAt[i] as number)}\n`;
  }
}

export const HASHTAG_COLUMNS = ['tag', 'post_id', 'author_id', 'created_at'];

/** The hashtags of the posts' texts, as the server stores them (modules/hashtags): a tag's page reads these. */
export function* hashtagLines(d: Dataset): Generator<string> {
  const texts = postTexts(d);
  for (let i = 0; i < d.postAuthor.length; i++) {
    const text = texts.next().value as string;
    if (!text.includes('#')) continue;
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
