import type { Redis, Result } from 'ioredis';

/**
 * A home feed in Redis: a sorted set of post ids, scored by the post's time in microseconds (so it
 * sorts as the Following query does, on (created_at, id); ids are zero-padded so ties on the time
 * fall back on the id), and a floor: every post of the member's home newer than the floor is in
 * the set ('complete' when the set holds the whole home). Trimming to `size` raises the floor.
 *
 * The floor key says a feed exists (its set may be empty: Redis then drops the key). A set without a
 * floor is a feed being built (a rebuild has claimed it; fan-outs add to it, reads do not trust it). Both keys expire after the activity window; each read renews them, so only the
 * feeds of members who read their home lately are kept and written to.
 */

/** A position in a feed: the post's time in µs and its id, zero-padded (so both compare as text). */
export interface FeedKey {
  score: number;
  member: string;
}

export const COMPLETE = 'complete';
const PLACEHOLDER = 'building';
const ID_DIGITS = 16;

export const padId = (id: number) => String(id).padStart(ID_DIGITS, '0');

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ` (lib/cursor.ts) → µs since 1970, exact in a double until the year 2255. */
export function micros(time: string): number {
  const ms = Date.parse(`${time.slice(0, 23)}Z`);
  return ms * 1000 + Number(time.slice(23, 26));
}

/** Raises `floor` to the newest entry that trimming to `size` removes. KEYS: feed, floor. */
const TRIM = `
local function trim(feed, floorKey, size)
  local extra = redis.call('ZCARD', feed) - size
  if extra <= 0 then return end
  local removed = redis.call('ZRANGE', feed, 0, extra - 1, 'WITHSCORES')
  redis.call('ZREMRANGEBYRANK', feed, 0, extra - 1)
  local member, score = removed[#removed - 1], removed[#removed]
  local floor = redis.call('GET', floorKey)
  local candidate = score .. ':' .. member
  if floor == '${COMPLETE}' or not floor then
    redis.call('SET', floorKey, candidate, 'KEEPTTL')
    return
  end
  local fs, fm = string.match(floor, '^([^:]+):(.+)$')
  if tonumber(score) > tonumber(fs) or (tonumber(score) == tonumber(fs) and member > fm) then
    redis.call('SET', floorKey, candidate, 'KEEPTTL')
  end
end
`;

/**
 * Adds one post to a feed that exists: built (it has a floor; its set may be empty, which Redis
 * keeps as no key at all) or being built (its set holds the placeholder). A missing feed belongs to
 * nobody active. ARGV: score, member, size.
 */
const ADD = `${TRIM}
local ttl = redis.call('PTTL', KEYS[2])
if ttl == -2 then
  if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
  return 1
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
trim(KEYS[1], KEYS[2], tonumber(ARGV[3]))
return 1`;

/**
 * Claims a missing feed for a rebuild: the set is created (with a placeholder) before the rebuild
 * reads the database, so a post committed meanwhile is fanned out into it. ARGV: lease seconds (a
 * rebuild that dies leaves a claim that lapses). Answers 0 when the feed exists (built, or being built).
 */
const CLAIM = `
if redis.call('EXISTS', KEYS[1], KEYS[2]) > 0 then return 0 end
redis.call('ZADD', KEYS[1], 0, '${PLACEHOLDER}')
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1`;

/** How long a rebuild may take before its claim lapses and another may start. */
const BUILD_LEASE_SECONDS = 60;

/**
 * Completes a rebuild: the posts read (ARGV after the first three: score, member pairs) join what
 * fan-outs added meanwhile, and the floor is set. Nothing happens if the feed was dropped meanwhile
 * (a follow or unfollow): what was read may be stale. ARGV: size, ttl, floor.
 */
const FINISH = `${TRIM}
if redis.call('ZSCORE', KEYS[1], '${PLACEHOLDER}') == false then return 0 end
for i = 4, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('ZREM', KEYS[1], '${PLACEHOLDER}')
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[2])
trim(KEYS[1], KEYS[2], tonumber(ARGV[1]))
return 1`;

/**
 * A read: the floor, up to ARGV[2] entries at or below score ARGV[1], and the pulled accounts; renews
 * the feed's lifetime (ARGV[3] s) and records the member's read (ARGV[4] = now, ARGV[5] = member).
 * One command, so the floor and the entries are read together. KEYS: feed, floor, pulled, active.
 */
const READ = `
local floor = redis.call('GET', KEYS[2])
local entries = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], '-inf', 'WITHSCORES', 'LIMIT', 0, ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5])
return {floor, entries, redis.call('SMEMBERS', KEYS[3])}`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    feedRead(
      feed: string,
      floor: string,
      pulled: string,
      active: string,
      max: string,
      count: number,
      ttl: number,
      now: number,
      member: string,
    ): Result<[string | null, string[], string[]], Context>;
    feedAdd(feed: string, floor: string, score: number, member: string, size: number): Result<number, Context>;
    feedClaim(feed: string, floor: string, leaseSeconds: number): Result<number, Context>;
    feedFinish(feed: string, floor: string, ...args: (string | number)[]): Result<number, Context>;
  }
}

export interface FeedRead {
  /** Entries below the cursor, newest first (at most the number asked), or null for no usable feed. */
  entries: FeedKey[] | null;
  /** 'complete', or the floor below which the feed knows nothing. */
  floor: FeedKey | typeof COMPLETE | null;
  /** True when the read returned as many entries as it asked for (more may be below). */
  full: boolean;
  /** Accounts whose posts are read from the database with each page (FeedStore.markPulled). */
  pulled: number[];
}

export class FeedStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly size: number,
    private readonly ttlSeconds: number,
  ) {
    if (!redis.feedAdd) {
      redis.defineCommand('feedAdd', { numberOfKeys: 2, lua: ADD });
      redis.defineCommand('feedClaim', { numberOfKeys: 2, lua: CLAIM });
      redis.defineCommand('feedFinish', { numberOfKeys: 2, lua: FINISH });
      redis.defineCommand('feedRead', { numberOfKeys: 4, lua: READ });
    }
  }

  private keys(userId: number): [string, string] {
    return [`${this.prefix}feed:${userId}`, `${this.prefix}feed:${userId}:floor`];
  }

  /**
   * Up to `count` entries older than `before` (all when null), and the accounts whose posts are
   * pulled at read time; renews the feed's lifetime. One round trip.
   */
  async read(userId: number, before: FeedKey | null, count: number): Promise<FeedRead> {
    const [feed, floorKey] = this.keys(userId);
    const max = before ? String(before.score) : '+inf';
    const [floorText, flat, pulledIds] = await this.redis.feedRead(
      feed,
      floorKey,
      this.pulledKey,
      this.activeKey,
      max,
      count,
      this.ttlSeconds,
      Math.floor(Date.now() / 1000),
      String(userId),
    );
    const pulled = pulledIds.map(Number);
    if (floorText === null) return { entries: null, floor: null, full: false, pulled };
    const entries: FeedKey[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      const member = flat[i] as string;
      if (member === PLACEHOLDER) continue;
      const score = Number(flat[i + 1]);
      // Ties on the cursor's microsecond: only ids below the cursor's.
      if (before && score === before.score && member >= before.member) continue;
      entries.push({ score, member });
    }
    return { entries, floor: parseFloor(floorText), full: flat.length / 2 >= count, pulled };
  }

  /**
   * Marks an account as pulled: its posts are no longer fanned out but read with each page. Never
   * undone (an account dropping back under the threshold stays pulled), so each of its posts is
   * found in one of the two places a page reads (in both for posts from before: read once).
   */
  async markPulled(userId: number): Promise<void> {
    await this.redis.sadd(this.pulledKey, String(userId));
  }

  /** Of `userIds`, those whose posts are pulled: one command. */
  async pulledOf(userIds: readonly number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const flags = await this.redis.smismember(this.pulledKey, ...userIds.map(String));
    return new Set(userIds.filter((_, i) => flags[i] === 1));
  }

  private get pulledKey() {
    return `${this.prefix}feed-pulled`;
  }

  /** Members by the time (s) they last read their home. */
  private get activeKey() {
    return `${this.prefix}feed-active`;
  }

  /**
   * Of `userIds`, those who read their home within the activity window (each read records when):
   * the only feeds a fan-out writes to. One command for any number of people; also forgets those
   * who stopped reading.
   */
  async active(userIds: readonly number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    const since = Math.floor(Date.now() / 1000) - this.ttlSeconds;
    const [[, scores], [removeError]] = ((await this.redis
      .multi()
      .zmscore(this.activeKey, ...userIds.map(String))
      .zremrangebyscore(this.activeKey, '-inf', `(${since}`)
      .exec()) ?? [[null, []], [null]]) as [[Error | null, (string | null)[]], [Error | null]];
    if (removeError) throw removeError;
    return userIds.filter((_, i) => {
      const at = scores[i];
      return at !== null && at !== undefined && Number(at) >= since;
    });
  }

  /** Adds each entry's post to its member's feed, if that feed exists: pipelined, 1,000 commands a round trip. */
  async addMany(entries: readonly { userId: number; key: FeedKey }[]): Promise<void> {
    const BATCH = 1_000;
    for (let i = 0; i < entries.length; i += BATCH) {
      const pipeline = this.redis.pipeline();
      for (const { userId, key } of entries.slice(i, i + BATCH)) {
        const [feed, floorKey] = this.keys(userId);
        pipeline.feedAdd(feed, floorKey, key.score, key.member, this.size);
      }
      const results = await pipeline.exec();
      for (const [error] of results ?? []) if (error) throw error;
    }
  }

  async remove(userId: number, members: readonly string[]): Promise<void> {
    if (members.length === 0) return;
    await this.redis.zrem(this.keys(userId)[0], ...members);
  }

  /** Forgets a feed (its follows changed): the next read rebuilds it. */
  async drop(userId: number): Promise<void> {
    await this.redis.del(...this.keys(userId));
  }

  claim(userId: number): Promise<number> {
    const [feed, floorKey] = this.keys(userId);
    return this.redis.feedClaim(feed, floorKey, BUILD_LEASE_SECONDS);
  }

  /** `entries` newest first; `complete` when they are the member's whole home. */
  finish(userId: number, entries: readonly FeedKey[], complete: boolean): Promise<number> {
    const [feed, floorKey] = this.keys(userId);
    const kept = entries.slice(0, this.size);
    const below = entries[this.size];
    const floor = complete || !below ? COMPLETE : `${below.score}:${below.member}`;
    const args: (string | number)[] = [this.size, this.ttlSeconds, floor];
    for (const entry of kept) args.push(entry.score, entry.member);
    return this.redis.feedFinish(feed, floorKey, ...args);
  }

  /** Bytes Redis uses for one member's feed (MEMORY USAGE of both keys), for the benchmark. */
  async memoryOf(userId: number): Promise<number> {
    const [feed, floorKey] = this.keys(userId);
    const [a, b] = await Promise.all([this.redis.memory('USAGE', feed), this.redis.memory('USAGE', floorKey)]);
    return (a ?? 0) + (b ?? 0);
  }
}

function parseFloor(text: string): FeedKey | typeof COMPLETE {
  if (text === COMPLETE) return COMPLETE;
  const at = text.indexOf(':');
  return { score: Number(text.slice(0, at)), member: text.slice(at + 1) };
}

/** a > b in feed order (newer). */
export const newer = (a: FeedKey, b: FeedKey) => a.score > b.score || (a.score === b.score && a.member > b.member);
