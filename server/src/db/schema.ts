import {
  AUDIT_ACTIONS,
  LIST_REPLIES_POLICIES,
  NOTIFICATION_TYPES,
  type NotificationType,
  QUOTE_POLICIES,
  type QuotePolicy,
  REPORT_CATEGORIES,
  REPORT_OUTCOMES,
  ROLES,
  VISIBILITIES,
  type Visibility,
} from '@pipit/contract';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Language } from '../lib/languages.ts';

// Index columns stay ascending: Postgres scans them backwards for ORDER BY … DESC
// (Drizzle's .desc() emits NULLS LAST, which an ORDER BY … DESC cannot use).

/** PostgreSQL's tsvector, read as its text form (nothing reads it: search matches it in SQL). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

const VISIBILITY_SQL = VISIBILITIES.map((v) => `'${v}'`).join(', ');
const QUOTE_POLICY_SQL = QUOTE_POLICIES.map((v) => `'${v}'`).join(', ');

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Null for remote people (`domain` set), who sign in elsewhere; a CHECK keeps local rows whole. */
    email: text('email'),
    username: text('username').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    bio: text('bio').notNull().default(''),
    profileImage: text('profile_image'),
    coverImage: text('cover_image'),
    followersCount: integer('followers_count').notNull().default(0),
    followingCount: integer('following_count').notNull().default(0),
    postsCount: integer('posts_count').notNull().default(0),
    /** One of the contract's ROLES. */
    role: text('role').notNull().default('member'),
    /** Set while a moderator's suspension holds: no sign-in, nothing of theirs shown (modules/safety/visibility.ts). */
    suspendedAt: timestamp('suspended_at', { withTimezone: true, mode: 'date' }),
    /** The visibility the composer starts with (the contract's VISIBILITIES). */
    defaultVisibility: text('default_visibility').$type<Visibility>().notNull().default('public'),
    /** "Approve followers": following them asks first (follow_requests) until they approve. */
    locked: boolean('locked').notNull().default(false),
    /** "Always expand posts with content warnings": their text and pictures show without "Show more". */
    expandSpoilers: boolean('expand_spoilers').notNull().default(false),
    /**
     * Where the person lives: null for members of this instance, the remote server's host (lower case,
     * with a port when it has one) for people elsewhere in the fediverse, whose actor is in `remote_actors`.
     */
    domain: text('domain'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // A member has an email and a password; a remote person has neither (they sign in at home).
    check('users_local_whole', sql`(${t.domain} IS NULL) = (${t.email} IS NOT NULL AND ${t.passwordHash} IS NOT NULL)`),
    // "Is anyone suspended?" once per statement, then "is this author?" per row: a tiny index.
    index('users_suspended_idx').on(t.id).where(sql`${t.suspendedAt} IS NOT NULL`),
    // The moderation team list.
    index('users_staff_idx').on(t.role, t.id).where(sql`${t.role} <> 'member'`),
    check('users_default_visibility_check', sql`${t.defaultVisibility} IN (${sql.raw(VISIBILITY_SQL)})`),
    check('users_role_check', sql`${t.role} IN (${sql.raw(ROLES.map((r) => `'${r}'`).join(', '))})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    // Usernames are unique per domain: members among members (this index, so a lookup of a member by
    // username says `domain IS NULL`), remote people per server.
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`).where(sql`${t.domain} IS NULL`),
    uniqueIndex('users_remote_username_key')
      .on(t.domain, sql`lower(${t.username})`)
      .where(sql`${t.domain} IS NOT NULL`),
    index('users_created_at_id_idx').on(t.createdAt, t.id),
    // Search's people typeahead: name or username starting with what was typed (LIKE 'abc%').
    index('users_username_prefix_idx').on(sql`lower(${t.username}) text_pattern_ops`),
    index('users_name_prefix_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    // "Does anyone still use this image?" before a replaced file is deleted (media.repository.ts).
    index('users_profile_image_idx').on(t.profileImage).where(sql`${t.profileImage} IS NOT NULL`),
    index('users_cover_image_idx').on(t.coverImage).where(sql`${t.coverImage} IS NOT NULL`),
    check(
      'users_counts_nonnegative',
      sql`${t.followersCount} >= 0 AND ${t.followingCount} >= 0 AND ${t.postsCount} >= 0`,
    ),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    /** sha256 of the opaque cookie token, hex. The token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    /** Last time the expiry was pushed forward (renewal is throttled to once a day). */
    renewedAt: timestamp('renewed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The browser's User-Agent at sign-in (at most 256 characters), shown in Settings' session list. */
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

/**
 * A password reset asked for by email: only the token's sha256 is kept, valid until `expires_at`,
 * spent once (`used_at`). Every reset of the account is spent when one is used.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId), index('password_resets_expires_at_idx').on(t.expiresAt)],
);

export const posts = pgTable(
  'posts',
  {
    id: id(),
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The post this one replies to; set null when that post is deleted so the reply stays readable. */
    parentId: bigint('parent_id', { mode: 'number' }).references((): AnyPgColumn => posts.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    /**
     * The post this one quotes. No foreign key: when the quoted post is deleted the id stays, so the
     * quote can say "This post is unavailable".
     */
    quoteOfId: bigint('quote_of_id', { mode: 'number' }),
    /**
     * Set on a repost: a row of the reposter's (no text) that stands for the reposted post in their
     * followers' timelines; deleted with it.
     */
    repostOfId: bigint('repost_of_id', { mode: 'number' }).references((): AnyPgColumn => posts.id, {
      onDelete: 'cascade',
    }),
    replyCount: integer('reply_count').notNull().default(0),
    likeCount: integer('like_count').notNull().default(0),
    repostCount: integer('repost_count').notNull().default(0),
    /**
     * Who may see it (the contract's VISIBILITIES; modules/safety/visibility.ts `inAudience`). A repost's
     * row carries the reposted post's (only public and unlisted posts are reposted).
     */
    visibility: text('visibility').$type<Visibility>().notNull().default('public'),
    /** Who may quote it (the contract's QUOTE_POLICIES). */
    quotePolicy: text('quote_policy').$type<QuotePolicy>().notNull().default('anyone'),
    createdAt: createdAt(),
    /** A content warning: shown instead of the text and pictures until the reader opens it ('' for none). */
    spoilerText: text('spoiler_text').notNull().default(''),
    /** Its pictures are covered until the reader shows them (always set with a content warning). */
    sensitive: boolean('sensitive').notNull().default(false),
    /** When its author last edited it; null when never (post_edits keeps every version). */
    editedAt: timestamp('edited_at', { withTimezone: true, mode: 'date' }),
    /**
     * The text's words for search ('simple' configuration: no language assumed, words as written,
     * lower-cased), kept with the row: a search checks each candidate row against it instead of parsing
     * the text again, which made a common word's first page 20× slower right after a burst of posts
     * without the word (docs/performance.md, "Search"). Never selected: it stays in SQL.
     */
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`to_tsvector('simple', ${posts.text})`),
    /**
     * A post written elsewhere (its author remote): its ActivityPub id (the Note's URI), by which its
     * Update, Delete and replies find it and a Create that arrives twice is stored once. Null for
     * members' posts, whose URI is `/posts/<id>` here.
     */
    uri: text('uri'),
  },
  (t) => [
    uniqueIndex('posts_uri_key').on(t.uri).where(sql`${t.uri} IS NOT NULL`),
    index('posts_created_at_id_idx').on(t.createdAt, t.id),
    index('posts_author_created_at_id_idx').on(t.authorId, t.createdAt, t.id),
    index('posts_parent_created_at_id_idx').on(t.parentId, t.createdAt, t.id),
    // One repost per person and post; "did I repost it?" probes it.
    uniqueIndex('posts_author_repost_key').on(t.authorId, t.repostOfId).where(sql`${t.repostOfId} IS NOT NULL`),
    // A post's reposts, oldest first (timelines show a post once: its first entry), and their cascade.
    index('posts_repost_of_created_idx').on(t.repostOfId, t.createdAt, t.id).where(sql`${t.repostOfId} IS NOT NULL`),
    // Search: the stored words of each post (a rare word's posts in a few index pages).
    index('posts_search_vector_idx').using('gin', t.searchVector),
    check('posts_visibility_check', sql`${t.visibility} IN (${sql.raw(VISIBILITY_SQL)})`),
    check('posts_quote_policy_check', sql`${t.quotePolicy} IN (${sql.raw(QUOTE_POLICY_SQL)})`),
    check('posts_counts_nonnegative', sql`${t.replyCount} >= 0 AND ${t.likeCount} >= 0 AND ${t.repostCount} >= 0`),
  ],
);

/**
 * Posts written but not yet fanned out to the home feeds (the transactional outbox of modules/feeds,
 * and the fan-out's durable queue): a row is inserted with the post — one small insert, where a
 * pg-boss job costs a plan, a partitioned insert, a fetch and a completion — and deleted by
 * FeedsService.fanOutPending in the transaction that wrote the post to the feeds. Used only with home
 * feeds (PostgreSQL + Redis).
 */
export const feedOutbox = pgTable('feed_outbox', {
  postId: bigint('post_id', { mode: 'number' })
    .primaryKey()
    .references(() => posts.id, { onDelete: 'cascade' }),
});

/**
 * The people a post mentions (its @usernames that name someone), and for a reply the author it
 * answers: who a followers-only post also reaches, and the whole audience of a direct one
 * (modules/safety/visibility.ts `inAudience`); a direct post's conversation (modules/conversations).
 */
export const postMentions = pgTable(
  'post_mentions',
  {
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.userId] }),
    // "The posts that mention me": a person's conversations, and the cascade of a deleted account.
    index('post_mentions_user_post_idx').on(t.userId, t.postId),
  ],
);

/**
 * Each direct post's conversation (modules/conversations): the root of its thread, which is its
 * parent's root when the parent is a direct post, else the post itself. No key to the root: a
 * conversation outlives the deletion of the post that started it.
 */
export const directThreads = pgTable(
  'direct_threads',
  {
    postId: bigint('post_id', { mode: 'number' })
      .primaryKey()
      .references(() => posts.id, { onDelete: 'cascade' }),
    rootId: bigint('root_id', { mode: 'number' }).notNull(),
  },
  // A conversation's posts, newest first (its last post as a viewer sees it, its participants).
  (t) => [index('direct_threads_root_post_idx').on(t.rootId, t.postId)],
);

/**
 * One row per person in a conversation (the author and the people each direct post of it reaches),
 * written with the post (PostsService.create). Deleting one's row hides the conversation from
 * oneself until a new post in it brings it back; reading it clears `unread`.
 */
export const conversations = pgTable(
  'conversations',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rootId: bigint('root_id', { mode: 'number' }).notNull(),
    /** The newest post that reached this person in it, and when it was written: the list's key. */
    lastPostId: bigint('last_post_id', { mode: 'number' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
    unread: boolean('unread').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.rootId] }),
    // A person's conversations, newest first, keyed on (updated_at, last_post_id).
    index('conversations_user_updated_idx').on(t.userId, t.updatedAt, t.lastPostId),
    // The unread count (the nav's badge): as small as what is unread.
    index('conversations_user_unread_idx').on(t.userId).where(sql`${t.unread}`),
  ],
);

export const likes = pgTable(
  'likes',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.postId] }), index('likes_post_id_idx').on(t.postId)],
);

/**
 * Images uploaded for posts (modules/media). A row is an upload until a post takes it (`post_id` set,
 * with its place in the post's grid); uploads no post took are deleted after a day. `key` and
 * `preview_key` name content-addressed files in the media store (shared by identical uploads; a file
 * is deleted once no row references it).
 */
export const mediaAttachments = pgTable(
  'media_attachments',
  {
    id: id(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: bigint('post_id', { mode: 'number' }).references(() => posts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    key: text('key').notNull(),
    previewKey: text('preview_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    blurhash: text('blurhash').notNull(),
    alt: text('alt').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    // A post's images in order (and its delete's cascade).
    index('media_attachments_post_idx').on(t.postId, t.position).where(sql`${t.postId} IS NOT NULL`),
    // The sweep of uploads no post took.
    index('media_attachments_unattached_idx').on(t.createdAt).where(sql`${t.postId} IS NULL`),
    // "Does anyone still use this file?" before it is deleted.
    index('media_attachments_key_idx').on(t.key),
    index('media_attachments_preview_key_idx').on(t.previewKey),
    check('media_attachments_position_range', sql`${t.position} >= 0 AND ${t.position} < 4`),
  ],
);

/** A picture of a post as one version of it had it (post_edits.media): enough to show it, or its place. */
export interface EditedMedia {
  id: number;
  key: string;
  previewKey: string;
  width: number;
  height: number;
  blurhash: string;
  alt: string;
}

/** A poll as one version of a post had it (post_edits.poll): its options in order, and whether several could be chosen. */
export interface EditedPoll {
  options: string[];
  multiple: boolean;
}

/**
 * Every version of an edited post, oldest first: the original is written at the first edit (with the
 * post's own time), then one row per edit, in the edit's transaction. A post never edited has none.
 */
export const postEdits = pgTable(
  'post_edits',
  {
    id: id(),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    spoilerText: text('spoiler_text').notNull().default(''),
    sensitive: boolean('sensitive').notNull().default(false),
    /** Its pictures in grid order, as they were (a picture removed later has its file deleted). */
    media: jsonb('media').$type<EditedMedia[]>().notNull().default(sql`'[]'::jsonb`),
    /** Its poll's options as they were (null: no poll); votes and counts are not kept per version. */
    poll: jsonb('poll').$type<EditedPoll>(),
    createdAt: createdAt(),
  },
  (t) => [index('post_edits_post_created_idx').on(t.postId, t.createdAt, t.id)],
);

/**
 * The hashtags of each post, in their stored form (contract `hashtagOf`: NFKC, lower case), with the
 * post's author and time copied so a tag's page and the trending count read this table alone.
 */
export const postHashtags = pgTable(
  'post_hashtags',
  {
    tag: text('tag').notNull(),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    authorId: bigint('author_id', { mode: 'number' }).notNull(),
    /** The post's own created_at (to the microsecond): a tag's page pages on the posts' keys. */
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tag, t.postId] }),
    // A tag's page, newest first: one range.
    index('post_hashtags_tag_created_idx').on(t.tag, t.createdAt, t.postId),
    // Trending: the last 24 hours.
    index('post_hashtags_created_idx').on(t.createdAt),
    // A post's delete cascades through this index.
    index('post_hashtags_post_id_idx').on(t.postId),
    // Search's hashtags: tags starting with what was typed.
    index('post_hashtags_tag_prefix_idx').on(sql`${t.tag} text_pattern_ops`),
  ],
);

/**
 * Hashtags a member follows: their public posts join the member's Home, merged at read
 * (timelines.repository `followingPageIds`; docs/decisions.md). The tag in its stored form
 * (contract `hashtagOf`, as post_hashtags.tag), so it matches post_hashtags exactly.
 */
export const followedTags = pgTable(
  'followed_tags',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tag: text('tag').notNull(),
    /** The follow's own number: keys the list's pages (and Mastodon's max_id), as a tag name cannot. */
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    createdAt: createdAt(),
  },
  (t) => [
    // A member's tags (the Home merge reads them all; the list pages them by (created_at, id)).
    primaryKey({ columns: [t.userId, t.tag] }),
    index('followed_tags_user_created_idx').on(t.userId, t.createdAt, t.id),
    // Who follows a tag.
    index('followed_tags_tag_idx').on(t.tag, t.userId),
  ],
);

/** Posts a member keeps for later: private to them, listed newest bookmark first. */
export const bookmarks = pgTable(
  'bookmarks',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.postId] }),
    // The Bookmarks page: one member's, newest first, keyset on (created_at, post_id).
    index('bookmarks_user_created_idx').on(t.userId, t.createdAt, t.postId),
    // A post's delete cascades through this index.
    index('bookmarks_post_id_idx').on(t.postId),
  ],
);

export const follows = pgTable(
  'follows',
  {
    followerId: bigint('follower_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: bigint('followee_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index('follows_follower_created_idx').on(t.followerId, t.createdAt, t.followeeId),
    index('follows_followee_created_idx').on(t.followeeId, t.createdAt, t.followerId),
    check('follows_not_self', sql`${t.followerId} <> ${t.followeeId}`),
  ],
);

/**
 * `requester` asked to follow `target`, whose account is locked: a follow once the target approves
 * (modules/follows). At most one per pair; never alongside a follow of the same pair, nor across a block.
 */
export const followRequests = pgTable(
  'follow_requests',
  {
    requesterId: bigint('requester_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetId: bigint('target_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.requesterId, t.targetId] }),
    // The owner's requests, newest first (and all of them when "Approve followers" is turned off).
    index('follow_requests_target_created_idx').on(t.targetId, t.createdAt, t.requesterId),
    check('follow_requests_not_self', sql`${t.requesterId} <> ${t.targetId}`),
  ],
);

/** `blocker` blocked `blocked`: neither sees the other (modules/safety/visibility.ts); no follows between them. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: bigint('blocker_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: bigint('blocked_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    // The Blocked accounts list, newest first.
    index('blocks_blocker_created_idx').on(t.blockerId, t.createdAt, t.blockedId),
    // Who blocked someone (the live stream's readers; the foreign key's cascade).
    index('blocks_blocked_idx').on(t.blockedId, t.blockerId),
    check('blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

/** `muter` muted `muted`, for good (`expires_at` null) or until `expires_at`: one-way and silent. */
export const mutes = pgTable(
  'mutes',
  {
    muterId: bigint('muter_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mutedId: bigint('muted_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.muterId, t.mutedId] }),
    index('mutes_muter_created_idx').on(t.muterId, t.createdAt, t.mutedId),
    index('mutes_muted_idx').on(t.mutedId, t.muterId),
    index('mutes_expires_at_idx').on(t.expiresAt).where(sql`${t.expiresAt} IS NOT NULL`),
    check('mutes_not_self', sql`${t.muterId} <> ${t.mutedId}`),
  ],
);

/** A word or phrase a member muted: posts containing it (as whole words, ignoring case) leave their lists. */
export const mutedWords = pgTable(
  'muted_words',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** As the member wrote it (trimmed, NFKC), shown in settings. */
    phrase: text('phrase').notNull(),
    /** The POSIX regular expression matched against lower(text): the phrase, lower-cased and escaped, between word boundaries. */
    pattern: text('pattern').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('muted_words_user_pattern_key').on(t.userId, t.pattern)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    /** The person notified. */
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorId: bigint('actor_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One of the contract's NOTIFICATION_TYPES. */
    type: text('type').notNull(),
    /** The liked post, the reply, or the mentioning post; null for a follow. */
    postId: bigint('post_id', { mode: 'number' }).references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('notifications_user_created_id_idx').on(t.userId, t.createdAt, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} IS NULL`),
    // Deleting a post cascades to its notifications: without this, every delete scans the table.
    index('notifications_post_id_idx').on(t.postId),
    // One notification per (recipient, actor, kind, post): liking twice never notifies twice.
    unique('notifications_once_key').on(t.userId, t.actorId, t.type, t.postId).nullsNotDistinct(),
    // The contract's list, written into the constraint (test/notifications/types.test.ts checks the database's).
    check(
      'notifications_type_check',
      sql`${t.type} IN (${sql.raw(NOTIFICATION_TYPES.map((type) => `'${type}'`).join(', '))})`,
    ),
  ],
);

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * A member's report of a post or a person. Open while `outcome` is null; a moderator closes it with
 * one of the contract's REPORT_OUTCOMES. A reporter has at most one open report per post or person
 * (reporting again updates it).
 */
export const reports = pgTable(
  'reports',
  {
    id: id(),
    reporterId: bigint('reporter_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The person reported, or the reported post's author. */
    subjectUserId: bigint('subject_user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The reported post; null for a report of a person. Not a foreign key: it still names the post
     * after the post is removed (ids are never reused), and the one-open-report key stays true.
     */
    postId: bigint('post_id', { mode: 'number' }),
    /** The reported post's text when reported: moderators still read it after the post is removed. */
    postText: text('post_text'),
    category: text('category').notNull(),
    comment: text('comment').notNull().default(''),
    /** Also sent to the reported person's own server (a Flag), as the reporter asked; never for a member. */
    forwarded: boolean('forwarded').notNull().default(false),
    outcome: text('outcome'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    resolvedBy: bigint('resolved_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    // The open queue, oldest first; the closed list, newest first.
    index('reports_open_idx').on(t.createdAt, t.id).where(sql`${t.outcome} IS NULL`),
    index('reports_closed_idx').on(t.resolvedAt, t.id).where(sql`${t.outcome} IS NOT NULL`),
    index('reports_reporter_idx').on(t.reporterId, t.createdAt, t.id),
    index('reports_subject_open_idx').on(t.subjectUserId).where(sql`${t.outcome} IS NULL`),
    index('reports_post_idx').on(t.postId),
    index('reports_resolved_by_idx').on(t.resolvedBy),
    uniqueIndex('reports_open_once_key')
      .on(t.reporterId, t.subjectUserId, sql`coalesce(${t.postId}, 0)`)
      .where(sql`${t.outcome} IS NULL`),
    check('reports_category_check', sql`${t.category} IN (${inList(REPORT_CATEGORIES.map((c) => c.value))})`),
    check('reports_outcome_check', sql`${t.outcome} IS NULL OR ${t.outcome} IN (${inList(REPORT_OUTCOMES)})`),
  ],
);

/** What moderators and admins did, for every moderator to read. Rows outlive the accounts they name. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    moderatorId: bigint('moderator_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    subjectUserId: bigint('subject_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    reportId: bigint('report_id', { mode: 'number' }).references(() => reports.id, { onDelete: 'set null' }),
    /** The removed post's text; the new role. */
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt, t.id),
    index('audit_log_moderator_idx').on(t.moderatorId),
    index('audit_log_subject_idx').on(t.subjectUserId),
    index('audit_log_report_idx').on(t.reportId),
    check('audit_log_action_check', sql`${t.action} IN (${inList(AUDIT_ACTIONS)})`),
  ],
);

/** An OAuth 2 client (a Mastodon app) registered with POST /api/v1/apps. */
export const oauthApps = pgTable(
  'oauth_apps',
  {
    id: id(),
    /** The public client id (random, 43 characters). */
    clientId: text('client_id').notNull(),
    /** sha256 of the client secret (the secret itself is shown once, at registration). */
    clientSecretHash: text('client_secret_hash').notNull(),
    name: text('name').notNull(),
    /** Where an authorization may send its code (exact match), or urn:ietf:wg:oauth:2.0:oob. */
    redirectUris: text('redirect_uris').array().notNull(),
    /** The scopes the app may ask for, space-separated. */
    scopes: text('scopes').notNull(),
    website: text('website'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oauth_apps_client_id_key').on(t.clientId)],
);

/** An authorization code (RFC 6749 §4.1): single use, 10 minutes, bound to the app, redirect URI and PKCE challenge. */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    id: id(),
    codeHash: text('code_hash').notNull(),
    appId: bigint('app_id', { mode: 'number' })
      .notNull()
      .references(() => oauthApps.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    scopes: text('scopes').notNull(),
    /** RFC 7636: the S256 challenge, when the app sent one. */
    codeChallenge: text('code_challenge'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('oauth_codes_code_hash_key').on(t.codeHash),
    index('oauth_codes_app_idx').on(t.appId),
    index('oauth_codes_user_idx').on(t.userId),
    index('oauth_codes_expires_at_idx').on(t.expiresAt),
  ],
);

/** An access token: only its sha256 is stored. A user token (authorization code) or an app token (client credentials). */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    appId: bigint('app_id', { mode: 'number' })
      .notNull()
      .references(() => oauthApps.id, { onDelete: 'cascade' }),
    /** Null for a client-credentials token (the app acting as itself). */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    scopes: text('scopes').notNull(),
    /** A code reused (RFC 6749 §4.1.2) revokes the tokens it gave: this is that code. */
    codeId: bigint('code_id', { mode: 'number' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('oauth_tokens_token_hash_key').on(t.tokenHash),
    index('oauth_tokens_user_idx').on(t.userId, t.appId),
    index('oauth_tokens_app_idx').on(t.appId),
    index('oauth_tokens_code_idx').on(t.codeId),
  ],
);

/**
 * A member's list of people they follow: its own timeline (modules/lists), and when `exclusive` its
 * members' posts leave the owner's Home. `replies_policy`: which replies of members it shows.
 */
export const lists = pgTable(
  'lists',
  {
    id: id(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** One of the contract's LIST_REPLIES_POLICIES. */
    repliesPolicy: text('replies_policy').notNull().default('list'),
    exclusive: boolean('exclusive').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    // The owner's lists, oldest first; the members' foreign key (owner_id, list_id) points here.
    unique('lists_owner_id_key').on(t.ownerId, t.id),
    check(
      'lists_replies_policy_check',
      sql`${t.repliesPolicy} IN (${sql.raw(LIST_REPLIES_POLICIES.map((p) => `'${p}'`).join(', '))})`,
    ),
  ],
);

/**
 * Who is on a list. Each row rests on the owner's follow of the member (a foreign key to follows):
 * only people one follows can be added, and an unfollow — or a block, an account deleted, anything
 * that removes the follow — takes them off the owner's lists in the same statement.
 */
export const listMembers = pgTable(
  'list_members',
  {
    listId: bigint('list_id', { mode: 'number' }).notNull(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.userId] }),
    foreignKey({ columns: [t.ownerId, t.listId], foreignColumns: [lists.ownerId, lists.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.ownerId, t.userId], foreignColumns: [follows.followerId, follows.followeeId] }).onDelete(
      'cascade',
    ),
    // The follow's cascade, "is this author on an exclusive list of the viewer's?" (Home), a person's lists.
    index('list_members_owner_user_idx').on(t.ownerId, t.userId),
    // The live stream: which lists a new post's author is on.
    index('list_members_user_idx').on(t.userId),
  ],
);

/**
 * Durable work due at a time (lib/timed-jobs.ts): a poll's end, a scheduled post's publication. A row
 * is written in the transaction of the change that needs it and deleted in the transaction that does
 * the work, so the work happens once; (kind, key) names it, so rescheduling replaces it.
 */
export const timedJobs = pgTable(
  'timed_jobs',
  {
    id: id(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    payload: jsonb('payload').notNull(),
    /** Failed runs so far (each retried after a longer wait). */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [uniqueIndex('timed_jobs_kind_key').on(t.kind, t.key), index('timed_jobs_run_at_idx').on(t.runAt)],
);

/**
 * Link previews (modules/cards), one per link (its normalized URL), shared by every post that has it.
 * `fetchedAt` is when the last fetch was claimed: a URL is fetched at most once per CARD_REFRESH_MS,
 * across posts and processes (the claim is one conditional upsert). `state`: pending (being fetched),
 * ready (shown), failed (no card: not a page, no title, refused, unreachable).
 */
export const previewCards = pgTable(
  'preview_cards',
  {
    id: id(),
    url: text('url').notNull(),
    state: text('state').notNull().default('pending'),
    fetchedAt: timestamp('fetched_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    siteName: text('site_name').notNull().default(''),
    authorName: text('author_name').notNull().default(''),
    /** The picture, re-encoded and stored like post images (`/media/<key>`), or null. */
    imageKey: text('image_key'),
    imageWidth: integer('image_width'),
    imageHeight: integer('image_height'),
    blurhash: text('blurhash'),
  },
  (t) => [
    uniqueIndex('preview_cards_url_key').on(t.url),
    // "Does anyone still use this file?" before it is deleted.
    index('preview_cards_image_key_idx').on(t.imageKey).where(sql`${t.imageKey} IS NOT NULL`),
    check('preview_cards_state', sql`${t.state} IN ('pending', 'ready', 'failed')`),
  ],
);

/** The card of a post (its first link's): written by the card job, read by the post view (one probe of the key). */
export const postCards = pgTable(
  'post_cards',
  {
    postId: bigint('post_id', { mode: 'number' })
      .primaryKey()
      .references(() => posts.id, { onDelete: 'cascade' }),
    cardId: bigint('card_id', { mode: 'number' })
      .notNull()
      .references(() => previewCards.id, { onDelete: 'cascade' }),
  },
  (t) => [
    // The posts waiting for a card when it is fetched.
    index('post_cards_card_idx').on(t.cardId),
  ],
);

/**
 * A remote person's actor (issue 29): the `users` row with their `domain` is who they are to every list,
 * follow and notification; this is what federation needs to reach them. Refetched when stale.
 */
export const remoteActors = pgTable(
  'remote_actors',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The actor's id (its ActivityPub URI). */
    uri: text('uri').notNull().unique(),
    /** Person, Service, Application, Group or Organization. */
    type: text('type').notNull(),
    inbox: text('inbox').notNull(),
    sharedInbox: text('shared_inbox'),
    /** The profile page people open (`url`), which may differ from the id. */
    url: text('url'),
    followersUrl: text('followers_url'),
    /** Public keys the actor publishes: `[{id, type: 'RSASSA-PKCS1-v1_5' | 'Ed25519', jwk}]`. */
    publicKeys: jsonb('public_keys').notNull().default([]),
    /** The avatar's address on their server that `users.profile_image` (our copy) was made from; null for none. */
    avatarSource: text('avatar_source'),
    fetchedAt: timestamp('fetched_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // Deliveries to a server's shared inbox group the followers who share it.
  (t) => [index('remote_actors_shared_inbox_idx').on(t.sharedInbox).where(sql`${t.sharedInbox} IS NOT NULL`)],
);

/**
 * Key pairs of local actors (modules/federation/keys.ts): a member's (`user_id`) or the instance actor's
 * (`user_id` null), one per algorithm, made on first need. The private key never leaves the server: no
 * API answer or export reads this table.
 */
export const actorKeys = pgTable(
  'actor_keys',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    /** RSASSA-PKCS1-v1_5 (HTTP Signatures, Linked Data Signatures) or Ed25519 (Object Integrity Proofs). */
    keyType: text('key_type').notNull(),
    publicKey: jsonb('public_key').notNull(),
    privateKey: jsonb('private_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('actor_keys_user_type').on(t.userId, t.keyType).nullsNotDistinct(),
    check('actor_keys_type_check', sql`${t.keyType} IN ('RSASSA-PKCS1-v1_5', 'Ed25519')`),
  ],
);

/**
 * A post's poll (modules/polls): one per post, keyed by it (the poll's id on the wire is the post's),
 * deleted with it. The counts are kept with the votes, in the vote's transaction, under this row's
 * lock (one vote at a time per poll): `voters_count` people, `votes_count` choices.
 */
export const polls = pgTable(
  'polls',
  {
    postId: bigint('post_id', { mode: 'number' })
      .primaryKey()
      .references(() => posts.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    multiple: boolean('multiple').notNull().default(false),
    /** The options' counts are shown to the author only until it ends. */
    hideTotals: boolean('hide_totals').notNull().default(false),
    votersCount: integer('voters_count').notNull().default(0),
    votesCount: integer('votes_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [check('polls_counts_nonnegative', sql`${t.votersCount} >= 0 AND ${t.votesCount} >= 0`)],
);

/** A poll's options in order (`position` from 0), each with its count of votes. */
export const pollOptions = pgTable(
  'poll_options',
  {
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => polls.postId, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    votesCount: integer('votes_count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.position] }),
    check('poll_options_votes_nonnegative', sql`${t.votesCount} >= 0`),
  ],
);

/**
 * Who chose what: one row per option chosen (a single-choice poll: one per person, which the vote's
 * check under the poll's lock keeps). The key also answers "did I vote, and for what" per post.
 */
export const pollVotes = pgTable(
  'poll_votes',
  {
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => polls.postId, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.userId, t.position] }),
    // A deleted account's votes go with it (the counts stay, as Mastodon's do): without this, its delete scans.
    index('poll_votes_user_idx').on(t.userId),
  ],
);

/**
 * Posts not sent yet (modules/drafts): a member's drafts, kept on the server so they follow the person
 * across devices. `body` is the create body as far as written (the contract's `draftPostBody`, a partial
 * `createPostBody`, stored whole so fields added to posts come along); `media_ids` are the uploads it
 * holds, so the sweep of uploads no post took leaves them (media.repository `deleteStaleUploads`).
 */
export const drafts = pgTable(
  'drafts',
  {
    id: id(),
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: jsonb('body').notNull(),
    mediaIds: bigint('media_ids', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // A member's drafts, latest edited first, and the cap's count.
    index('drafts_author_idx').on(t.authorId, t.updatedAt, t.id),
    // "Is this upload held by a draft?" (the uploads' sweep).
    index('drafts_media_ids_idx').using('gin', t.mediaIds),
  ],
);

/**
 * Fedify's key–value store (lib/fed-kv.ts): cached remote documents and keys, activity ids already
 * handled, what signature scheme each server speaks. `key` is Fedify's key (an array of strings);
 * an entry past `expires_at` reads as absent and is swept.
 */
export const fedKv = pgTable(
  'fed_kv',
  {
    key: text('key').array().primaryKey(),
    value: jsonb('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('fed_kv_expires_at_idx').on(t.expiresAt).where(sql`${t.expiresAt} IS NOT NULL`)],
);

/**
 * Fedify's message queue (lib/fed-queue.ts): deliveries to other servers and incoming activities, run
 * at least once by whichever process takes them (a lease, `locked_until`), retried with backoff; a
 * message waits for every earlier one with its ordering key (a Delete never overtakes its Create).
 */
export const fedQueue = pgTable(
  'fed_queue',
  {
    id: id(),
    queue: text('queue').notNull(),
    message: jsonb('message').notNull(),
    orderingKey: text('ordering_key'),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Failed runs so far. */
    attempts: integer('attempts').notNull().default(0),
    /** Taken by a listener until then; a listener that died leaves it to be taken again after. */
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('fed_queue_due_idx').on(t.queue, t.runAt, t.id),
    index('fed_queue_ordering_idx').on(t.queue, t.orderingKey, t.id).where(sql`${t.orderingKey} IS NOT NULL`),
  ],
);

/**
 * Posts to publish at a time (modules/drafts/scheduled.service.ts): the validated `createPostBody`
 * (visibility and quote policy resolved when scheduled) published by the timed job `post.scheduled`
 * keyed by this row's id, in the transaction that deletes the row. A publication refused at its time
 * (the parent deleted, an image gone…) keeps the row with `failure` set, shown in the Scheduled list.
 */
export const scheduledPosts = pgTable(
  'scheduled_posts',
  {
    id: id(),
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: jsonb('body').notNull(),
    mediaIds: bigint('media_ids', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Why publication was refused at its time ({code, message, at}); null while it waits. */
    failure: jsonb('failure'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // A member's scheduled posts, soonest first, and the caps' counts.
    index('scheduled_posts_author_idx').on(t.authorId, t.scheduledAt, t.id),
    index('scheduled_posts_media_ids_idx').using('gin', t.mediaIds),
  ],
);

/**
 * A member's authenticator app (TOTP, RFC 6238): the shared secret encrypted with a key derived from
 * AUTH_SECRET (modules/two-factor/two-factor.crypto.ts). `pendingSecret` is a secret being set up
 * (shown once, not yet confirmed with a code); `secret` is set once confirmed (`enabledAt`): from then
 * on sign-in asks for a code. `lastUsedStep` is the 30-second step of the last code accepted: a code
 * of that step or an earlier one is refused (no replay).
 */
export const twoFactor = pgTable('two_factor', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret'),
  pendingSecret: text('pending_secret'),
  enabledAt: timestamp('enabled_at', { withTimezone: true, mode: 'date' }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** The ten single-use recovery codes of a member's two-factor sign-in: only their sha256 is kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [unique('recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/**
 * A member's passkey (a WebAuthn credential): its id and COSE public key (base64url), the
 * authenticator's signature counter (a counter that does not grow means a cloned key: refused),
 * the transports the browser reported, and the name the member gave it.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * A WebAuthn challenge handed out and not yet answered: single-use (deleted when an answer names it)
 * and short-lived (`expiresAt`). A registration's is bound to the member adding the passkey
 * (`userId`); a sign-in's to nobody (the passkey says whose it is).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose').$type<'register' | 'authenticate'>().notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('webauthn_challenges_expires_at_idx').on(t.expiresAt),
    check('webauthn_challenges_purpose_check', sql`${t.purpose} IN ('register', 'authenticate')`),
  ],
);

/**
 * Servers an admin cut off (modules/moderation/domain-blocks.service.ts): nothing of theirs is taken in, and their
 * accounts known here are suspended while the block lasts — those the block suspended have `suspended_at` equal to
 * the block's `created_at` (one transaction's now()), so lifting it restores exactly them.
 */
export const domainBlocks = pgTable('domain_blocks', {
  /** The host, lower case, with a port when it has one (users.domain's form). */
  domain: text('domain').primaryKey(),
  reason: text('reason').notNull().default(''),
  createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * Keys this server made for itself once and keeps (modules/push: the VAPID key pair of Web Push, made
 * at first start unless the environment gives one). `name` says which; `value` is the key's JSON.
 */
export const instanceKeys = pgTable('instance_keys', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Where a member's notifications are pushed (Web Push, RFC 8030/8291): a browser of the web app, tied
 * to the session that subscribed it (`sessionId`: signing out ends it), or a Mastodon app, tied to its
 * access token (`oauthTokenId`, one per token as Mastodon has it: revoking the token ends it). The
 * endpoint is the push service's URL; `p256dh` and `auth` the browser's keys (base64url) the payload
 * is encrypted for. `kinds`: which notifications are pushed. `policy`: from whom (Mastodon's all,
 * followed, follower, none). `standard`: RFC 8291's aes128gcm, else the legacy aesgcm some apps
 * still ask for. `accessToken`: an app's token, encrypted (Mastodon puts it in each payload).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: bigint('session_id', { mode: 'number' }).references(() => sessions.id, { onDelete: 'cascade' }),
    oauthTokenId: bigint('oauth_token_id', { mode: 'number' }).references(() => oauthTokens.id, {
      onDelete: 'cascade',
    }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The notification types pushed (the contract's NOTIFICATION_TYPES). */
    kinds: text('kinds').array().$type<NotificationType[]>().notNull(),
    /** A Mastodon app's alerts as it set them (its words, some naming what Pipit never sends); null for a browser. */
    alerts: jsonb('alerts').$type<Record<string, boolean>>(),
    policy: text('policy').notNull().default('all'),
    standard: boolean('standard').notNull().default(true),
    accessToken: text('access_token'),
    /** The language its titles are written in (lib/languages.ts): the subscriber's Accept-Language when subscribing. */
    language: text('language').$type<Language>().notNull().default('en'),
    createdAt: createdAt(),
  },
  (t) => [
    index('push_subscriptions_user_idx').on(t.userId),
    uniqueIndex('push_subscriptions_session_key').on(t.sessionId),
    uniqueIndex('push_subscriptions_token_key').on(t.oauthTokenId),
    check('push_subscriptions_owner_check', sql`(${t.sessionId} IS NULL) <> (${t.oauthTokenId} IS NULL)`),
    check('push_subscriptions_policy_check', sql`${t.policy} IN ('all', 'followed', 'follower', 'none')`),
  ],
);
