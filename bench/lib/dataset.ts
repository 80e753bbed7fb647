// The synthetic social graph, generated in memory as typed arrays (compact, fast), from one seed.
// Ids are 1-based and dense: user id u is index u - 1, post id p is index p - 1.
import type { DatasetSpec } from './options.ts';
import { AliasTable, Rng } from './rng.ts';

const DAY = 86_400_000;
/** The data set's "now": every generated row is older. Fixed, so one seed gives one data set. */
export const ANCHOR_MS = Date.UTC(2026, 10, 1);
/** Posts are spread over the year before ANCHOR_MS; accounts were created before that. */
const POST_WINDOW_MS = 365 * DAY;
const NOTIFICATIONS_UNREAD_MS = 2 * DAY;
const REPLY_SHARE = 0.2;
const MENTION_SHARE = 0.03;

const FIRST = [
  'Ada',
  'Alan',
  'Alice',
  'Amara',
  'Ana',
  'Aram',
  'Ayo',
  'Bea',
  'Ben',
  'Bo',
  'Carla',
  'Chen',
  'Dana',
  'Dev',
  'Eli',
  'Emma',
  'Eva',
  'Farah',
  'Finn',
  'Grace',
  'Hana',
  'Ivan',
  'Jade',
  'Jon',
  'Kai',
  'Kim',
  'Lea',
  'Leo',
  'Lina',
  'Luis',
  'Maya',
  'Mia',
  'Nia',
  'Noah',
  'Omar',
  'Pia',
  'Raj',
  'Rosa',
  'Sam',
  'Sara',
  'Tao',
  'Tess',
  'Uma',
  'Vera',
  'Wes',
  'Yara',
  'Yuki',
  'Zoe',
];
const LAST = [
  'Abe',
  'Berg',
  'Costa',
  'Diaz',
  'Eze',
  'Fox',
  'Garcia',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowal',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Park',
  'Quinn',
  'Rossi',
  'Silva',
  'Tanaka',
  'Ueda',
  'Varga',
  'Weber',
  'Xu',
  'Young',
  'Zhou',
];
const WORDS = (
  'the a to and of in is it you that for on with this was just my have be are so at not but what all about ' +
  'today new time good love day people really think now know like one get more some great make want need ' +
  'coffee morning night weekend work code bug deploy release music book movie game team city train rain sun ' +
  'walk run idea thread question answer news photo garden kitchen dinner lunch friends family school project ' +
  'launch design data server database browser phone update week year finally again still never always maybe ' +
  'happy tired busy excited curious honest quick slow small big better best worst favourite interesting'
).split(' ');
const TAGS = ['pipit', 'buildinpublic', 'coffee', 'music', 'javascript', 'postgres', 'weekend', 'news', 'art', 'food'];

export interface Dataset {
  spec: DatasetSpec;
  // users
  userCreatedAt: Float64Array;
  usernames: string[];
  names: string[];
  followersCount: Int32Array;
  followingCount: Int32Array;
  postsCount: Int32Array;
  /** 0 = the most followed account. */
  popularityRank: Int32Array;
  // follows, grouped by follower
  followFollower: Int32Array;
  followFollowee: Int32Array;
  followAt: Float64Array;
  // posts, ids ascending with time
  postAuthor: Int32Array;
  /** Parent post id, 0 for a top-level post. */
  postParent: Int32Array;
  /** Mentioned user id, 0 when none. */
  postMention: Int32Array;
  postAt: Float64Array;
  postReplyCount: Int32Array;
  postLikeCount: Int32Array;
  // likes, grouped by post
  likeUser: Int32Array;
  likePost: Int32Array;
  likeAt: Float64Array;
  /** Benchmark members (user ids), each following exactly spec.memberFollows accounts. */
  members: number[];
  notificationCount: number;
}

export function generate(spec: DatasetSpec): Dataset {
  const { users: U, posts: P } = spec;
  if (U < spec.memberFollows + spec.members + 10) throw new Error(`Need more than ${spec.memberFollows} users`);

  // Users: popularity (who gets followed, liked, mentioned) and activity (who posts) are skewed.
  const rngUsers = Rng.stream(spec.seed, 'users');
  const userCreatedAt = new Float64Array(U);
  const createdStart = ANCHOR_MS - POST_WINDOW_MS - 400 * DAY;
  for (let i = 0; i < U; i++) userCreatedAt[i] = createdStart + ((i + rngUsers.next()) * 400 * DAY) / U;
  const usernames: string[] = [];
  const names: string[] = [];
  for (let i = 0; i < U; i++) {
    const first = rngUsers.pick(FIRST);
    const last = rngUsers.pick(LAST);
    names.push(`${first} ${last}`);
    usernames.push(`${first.toLowerCase()}${last.toLowerCase()}${i + 1}`);
  }
  const popularityRank = new Int32Array(U);
  const order = Array.from({ length: U }, (_, i) => i);
  for (let i = U - 1; i > 0; i--) {
    const j = rngUsers.int(i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  order.forEach((userIndex, rank) => {
    popularityRank[userIndex] = rank;
  });
  // Zipf-like: the top accounts collect thousands of followers, the tail a handful.
  const popularityWeight = new Float64Array(U);
  for (let i = 0; i < U; i++) popularityWeight[i] = 1 / ((popularityRank[i] as number) + 1) ** 0.85;
  const popularity = new AliasTable(popularityWeight);
  const activityWeight = new Float64Array(U);
  for (let i = 0; i < U; i++) activityWeight[i] = rngUsers.logNormal(1.1);
  const activity = new AliasTable(activityWeight);

  // Benchmark members: ordinary accounts (middle of the popularity ranking).
  const members: number[] = [];
  for (let rank = Math.floor(U / 5); members.length < spec.members; rank++) members.push((order[rank] as number) + 1);
  const memberSet = new Set(members);

  // Follows: most people follow 20–300 accounts, some fewer, a few many more.
  const rngFollows = Rng.stream(spec.seed, 'follows');
  const outDegree = new Int32Array(U);
  for (let i = 0; i < U; i++) {
    const r = rngFollows.next();
    let d: number;
    if (memberSet.has(i + 1)) d = spec.memberFollows;
    else if (r < 0.06) d = rngFollows.int(20);
    else if (r < 0.96) d = rngFollows.logUniformInt(20, 300);
    else d = rngFollows.logUniformInt(300, 1500);
    outDegree[i] = Math.min(d, U - 1);
  }
  const followTotal = outDegree.reduce((a, b) => a + b, 0);
  const followFollower = new Int32Array(followTotal);
  const followFollowee = new Int32Array(followTotal);
  const followAt = new Float64Array(followTotal);
  const followersCount = new Int32Array(U);
  const followingCount = new Int32Array(U);
  {
    let k = 0;
    const chosen = new Set<number>();
    for (let i = 0; i < U; i++) {
      chosen.clear();
      const d = outDegree[i] as number;
      let attempts = 0;
      while (chosen.size < d) {
        // Mostly by popularity; uniform picks once the popular accounts are taken.
        const j = attempts++ < d * 4 ? popularity.sample(rngFollows) : rngFollows.int(U);
        if (j !== i) chosen.add(j);
      }
      for (const j of [...chosen].sort((a, b) => a - b)) {
        const since = Math.max(userCreatedAt[i] as number, userCreatedAt[j] as number);
        followFollower[k] = i + 1;
        followFollowee[k] = j + 1;
        followAt[k] = since + rngFollows.next() * (ANCHOR_MS - since);
        followersCount[j] = (followersCount[j] as number) + 1;
        k++;
      }
      followingCount[i] = d;
    }
  }

  // Posts: ids ascend with time; a fifth are replies. Replies go to posts of the last few days,
  // mostly to those of popular accounts (some collect hundreds); a few top-level posts mention a
  // popular account.
  const rngPosts = Rng.stream(spec.seed, 'posts');
  const postAuthor = new Int32Array(P);
  const postParent = new Int32Array(P);
  const postMention = new Int32Array(P);
  const postAt = new Float64Array(P);
  const postReplyCount = new Int32Array(P);
  const postsCount = new Int32Array(U);
  const isReply = new Uint8Array(P);
  const replyWeight = new Float64Array(P);
  for (let i = 0; i < P; i++) {
    const author = activity.sample(rngPosts);
    postAuthor[i] = author + 1;
    postAt[i] = ANCHOR_MS - POST_WINDOW_MS + ((i + 0.1 + rngPosts.next() * 0.8) * POST_WINDOW_MS) / P;
    postsCount[author] = (postsCount[author] as number) + 1;
    if (i > 0 && rngPosts.next() < REPLY_SHARE) {
      isReply[i] = 1;
    } else if (rngPosts.next() < MENTION_SHARE) {
      const mentioned = popularity.sample(rngPosts);
      if (mentioned !== author) postMention[i] = mentioned + 1;
    }
    replyWeight[i] = (popularityWeight[author] as number) * rngPosts.logNormal(1) * (isReply[i] ? 0.2 : 1);
  }
  // One weighted table per block of ~1% of the posts (a few days): a reply picks its parent in
  // its own block or the one before, among posts that already exist.
  const block = Math.max(1000, Math.ceil(P / 100));
  const blocks: AliasTable[] = [];
  for (let start = 0; start < P; start += block) {
    blocks.push(new AliasTable(replyWeight.subarray(start, Math.min(P, start + block))));
  }
  for (let i = 1; i < P; i++) {
    if (!isReply[i]) continue;
    let parent = -1;
    const b = Math.floor(i / block);
    for (let attempt = 0; attempt < 10 && parent < 0; attempt++) {
      const pick = rngPosts.next() < 0.5 ? b : b - 1;
      if (pick < 0) continue;
      const candidate = pick * block + (blocks[pick] as AliasTable).sample(rngPosts);
      if (candidate < i) parent = candidate;
    }
    if (parent < 0) parent = Math.max(0, i - 1 - rngPosts.int(Math.min(i, 50)));
    postParent[i] = parent + 1;
    postReplyCount[parent] = (postReplyCount[parent] as number) + 1;
  }

  // Likes: posts by popular authors (and some lucky posts) collect most; likers are distinct per post.
  const rngLikes = Rng.stream(spec.seed, 'likes');
  const likeWeight = new Float64Array(P);
  for (let i = 0; i < P; i++) {
    const authorWeight = popularityWeight[(postAuthor[i] as number) - 1] as number;
    likeWeight[i] = authorWeight ** 0.7 * rngLikes.logNormal(1) * (postParent[i] ? 0.3 : 1);
  }
  const likeTable = new AliasTable(likeWeight);
  const postLikeCount = new Int32Array(P);
  const likeCap = Math.floor(U / 2);
  for (let total = 0; total < spec.likes; ) {
    const p = likeTable.sample(rngLikes);
    if ((postLikeCount[p] as number) < likeCap) {
      postLikeCount[p] = (postLikeCount[p] as number) + 1;
      total++;
    }
  }
  const likerWeight = new Float64Array(U);
  for (let i = 0; i < U; i++) likerWeight[i] = rngLikes.logNormal(1);
  const likers = new AliasTable(likerWeight);
  const likeUser = new Int32Array(spec.likes);
  const likePost = new Int32Array(spec.likes);
  const likeAt = new Float64Array(spec.likes);
  {
    let k = 0;
    const chosen = new Set<number>();
    for (let p = 0; p < P; p++) {
      const c = postLikeCount[p] as number;
      if (c === 0) continue;
      chosen.clear();
      const author = (postAuthor[p] as number) - 1;
      let attempts = 0;
      while (chosen.size < c) {
        const u = attempts++ < c * 4 ? likers.sample(rngLikes) : rngLikes.int(U);
        if (u !== author) chosen.add(u);
      }
      for (const u of chosen) {
        likeUser[k] = u + 1;
        likePost[k] = p + 1;
        likeAt[k] = Math.min(ANCHOR_MS - 1000, (postAt[p] as number) + rngLikes.exp(6 * 3_600_000));
        k++;
      }
    }
  }

  const dataset: Dataset = {
    spec,
    userCreatedAt,
    usernames,
    names,
    followersCount,
    followingCount,
    postsCount,
    popularityRank,
    followFollower,
    followFollowee,
    followAt,
    postAuthor,
    postParent,
    postMention,
    postAt,
    postReplyCount,
    postLikeCount,
    likeUser,
    likePost,
    likeAt,
    members,
    notificationCount: 0,
  };
  for (const _ of notificationRows(dataset)) dataset.notificationCount++;
  return dataset;
}

export interface NotificationRow {
  userId: number;
  actorId: number;
  type: 'follow' | 'reply' | 'mention' | 'like';
  postId: number | null;
  at: number;
  readAt: number | null;
}

/**
 * What the server would have written for these rows: a follow notifies the followee; a reply the
 * parent's author; a mention the mentioned person; a like the post's author; never oneself.
 * Older ones are read.
 */
export function* notificationRows(d: Dataset): Generator<NotificationRow> {
  const readAt = (at: number) => (at < ANCHOR_MS - NOTIFICATIONS_UNREAD_MS ? at + 3_600_000 : null);
  for (let k = 0; k < d.followFollower.length; k++) {
    const at = d.followAt[k] as number;
    const userId = d.followFollowee[k] as number;
    yield { userId, actorId: d.followFollower[k] as number, type: 'follow', postId: null, at, readAt: readAt(at) };
  }
  for (let i = 0; i < d.postAuthor.length; i++) {
    const actorId = d.postAuthor[i] as number;
    const at = d.postAt[i] as number;
    const parent = d.postParent[i] as number;
    if (parent) {
      const userId = d.postAuthor[parent - 1] as number;
      if (userId !== actorId) yield { userId, actorId, type: 'reply', postId: i + 1, at, readAt: readAt(at) };
    }
    const mentioned = d.postMention[i] as number;
    if (mentioned) yield { userId: mentioned, actorId, type: 'mention', postId: i + 1, at, readAt: readAt(at) };
  }
  for (let k = 0; k < d.likeUser.length; k++) {
    const postId = d.likePost[k] as number;
    const userId = d.postAuthor[postId - 1] as number;
    const actorId = d.likeUser[k] as number;
    const at = d.likeAt[k] as number;
    if (userId !== actorId) yield { userId, actorId, type: 'like', postId, at, readAt: readAt(at) };
  }
}

/** Post texts, generated in post order from their own stream (so they need no memory). */
export function* postTexts(d: Dataset): Generator<string> {
  const rng = Rng.stream(d.spec.seed, 'texts');
  for (let i = 0; i < d.postAuthor.length; i++) {
    const words = 4 + rng.int(30);
    let text = rng.pick(WORDS);
    text = text[0]?.toUpperCase() + text.slice(1);
    for (let w = 1; w < words; w++) text += ` ${rng.pick(WORDS)}`;
    if (rng.next() < 0.15) text += ` #${rng.pick(TAGS)}`;
    const mentioned = d.postMention[i] as number;
    if (mentioned) text = `@${d.usernames[mentioned - 1]} ${text}`;
    yield text;
  }
}

export function* bios(d: Dataset): Generator<string> {
  const rng = Rng.stream(d.spec.seed, 'bios');
  for (let i = 0; i < d.usernames.length; i++) {
    if (rng.next() < 0.4) {
      yield '';
      continue;
    }
    const words = 3 + rng.int(14);
    let bio = rng.pick(WORDS);
    for (let w = 1; w < words; w++) bio += ` ${rng.pick(WORDS)}`;
    yield bio;
  }
}

/** Things the load scenarios aim at, chosen from the generated rows. */
export function pickTargets(d: Dataset) {
  const U = d.usernames.length;
  const P = d.postAuthor.length;
  const byRank = new Int32Array(U);
  for (let i = 0; i < U; i++) byRank[d.popularityRank[i] as number] = i + 1;
  // The post with the most replies (a post page with a long thread).
  let threadPost = 1;
  for (let i = 0; i < P; i++)
    if ((d.postReplyCount[i] as number) > (d.postReplyCount[threadPost - 1] as number)) threadPost = i + 1;
  // Recent top-level posts by non-members, for like/unlike.
  const memberSet = new Set(d.members);
  const likePosts: number[] = [];
  for (let i = P - 1; i >= 0 && likePosts.length < 400; i--) {
    if (!d.postParent[i] && !memberSet.has(d.postAuthor[i] as number)) likePosts.push(i + 1);
  }
  // Search: a word few posts hold (the username of someone mentioned a few times) and a prefix people type.
  const mentions = new Int32Array(U);
  for (const m of d.postMention) if (m) mentions[m - 1] = (mentions[m - 1] as number) + 1;
  let rare = 0;
  while (rare < U - 1 && !((mentions[rare] as number) >= 2 && (mentions[rare] as number) <= 5)) rare++;
  return {
    /** A popular account (third most followed): a profile people actually open. */
    profileUserId: byRank[2] as number,
    profileFollowers: d.followersCount[(byRank[2] as number) - 1] as number,
    threadPostId: threadPost,
    threadReplies: d.postReplyCount[threadPost - 1] as number,
    likePostIds: likePosts,
    mostFollowers: d.followersCount[(byRank[0] as number) - 1] as number,
    /** A word in a handful of posts (a username mentioned 2–5 times), and one in ~1 post in 8. */
    searchRare: d.usernames[rare] as string,
    searchRareCount: mentions[rare] as number,
    searchCommon: 'coffee',
    /** A tag about 1 post in 65 carries (the generator appends one of TAGS to 15 % of posts). */
    hashtag: 'coffee',
    /** What someone types to find a popular account: its username's first three letters. */
    typeahead: (d.usernames[(byRank[2] as number) - 1] as string).slice(0, 3),
  };
}

export function describe(d: Dataset) {
  const replies = d.postParent.reduce((n, p) => n + (p ? 1 : 0), 0);
  const following = [...d.followingCount].sort((a, b) => a - b);
  const followers = [...d.followersCount].sort((a, b) => a - b);
  const q = (arr: number[], f: number) => arr[Math.min(arr.length - 1, Math.floor(arr.length * f))];
  return {
    users: d.usernames.length,
    posts: d.postAuthor.length,
    replies,
    follows: d.followFollower.length,
    likes: d.likeUser.length,
    notifications: d.notificationCount,
    followingP10P50P90: [q(following, 0.1), q(following, 0.5), q(following, 0.9)],
    followersP50P99Max: [q(followers, 0.5), q(followers, 0.99), followers[followers.length - 1]],
    accountsWith1000PlusFollowers: followers.filter((n) => n >= 1000).length,
  };
}
