import type { QuotePolicy, Visibility } from '@pipit/contract';
import { and, asc, desc, eq, getTableColumns, inArray, isNull, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import { bigintArray, type Database, type Executor, executeRows, preparedOnce, preparedRows } from '../../db/client.ts';
import { bookmarks, likes, mediaAttachments, postMentions, posts, users } from '../../db/schema.ts';
import { afterCursor, type Cursor, cursorTime } from '../../lib/cursor.ts';
import { GroupRunner } from '../../lib/group.ts';
import type { PostId } from '../../lib/ids.ts';
import { cardJson } from '../cards/cards.repository.ts';
import type { AttachmentFields } from '../media/media.service.ts';
import { type PollJson, pollJson, pollMineJson } from '../polls/polls.repository.ts';
import {
  onProfile,
  postOfSuspended,
  quoteHiddenFrom,
  type VisibilityRule,
  visiblePosts,
  visibleUsers,
} from '../safety/visibility.ts';
import { type UserViewRow, userViewColumns } from '../users/users.repository.ts';

/** The post a row shows: the reposted one for a repost, else itself. */
const SHOWN = sql`coalesce("posts"."repost_of_id", "posts"."id")`;

/** A post's image as the view's subquery selects it (modules/media packs it). */
export type MediaJson = AttachmentFields & { id: string };

/** A quoted post as the view's subquery selects it. */
export interface QuotedJson {
  id: string;
  text: string;
  createdAt: string;
  author: { id: string; name: string; username: string; profileImage: string | null; domain?: string | null };
  media: MediaJson[] | null;
  spoilerText: string;
  sensitive: boolean;
}

/** The images of the post `postId` (an SQL expression) in grid order, as JSON, or null for none. */
function mediaJson(postId: SQL) {
  return sql<
    MediaJson[] | string | null
  >`(select json_agg(json_build_object('id', m.id::text, 'key', m.key, 'previewKey', m.preview_key, 'width', m.width, 'height', m.height, 'blurhash', m.blurhash, 'alt', m.alt) order by m.position) from ${mediaAttachments} m where m.post_id = ${postId})`;
}

/** The post `postId` (an SQL expression) as a quote embeds it, as JSON: one probe of posts' and users' keys. */
function quotedPostJson(postId: SQL) {
  return sql<
    QuotedJson | string | null
  >`(select json_build_object('id', q.id::text, 'text', q.text, 'createdAt', q.created_at, 'author', json_build_object('id', qu.id::text, 'name', qu.name, 'username', qu.username, 'profileImage', qu.profile_image, 'domain', qu.domain), 'media', ${mediaJson(sql`q.id`)}, 'spoilerText', q.spoiler_text, 'sensitive', q.sensitive) from ${posts} q join ${users} qu on qu.id = q.author_id where q.id = ${postId})`;
}

/** A reposted post as the view's subquery selects it: what every viewer sees alike. */
export interface RepostedJson {
  id: number;
  text: string;
  createdAt: string;
  parentId: number | null;
  replyTo: ReplyTo | null;
  replyCount: number;
  likeCount: number;
  repostCount: number;
  authorId: number;
  authorName: string;
  authorUsername: string;
  authorProfileImage: string | null;
  authorDomain: string | null;
  media: MediaJson[] | null;
  quoteOfId: number | null;
  quote: QuotedJson | null;
  visibility: Visibility;
  quotePolicy: QuotePolicy;
  spoilerText: string;
  sensitive: boolean;
  editedAt: string | null;
  poll: PollJson | null;
}

/** The post `postId` (an SQL expression) as a repost shows it, as JSON (null for none): one probe each. */
function repostedPostJson(postId: SQL) {
  return sql<
    RepostedJson | string | null
  >`(select json_build_object('id', o.id, 'text', o.text, 'createdAt', o.created_at, 'parentId', o.parent_id, 'replyTo', (select json_build_object('id', pu.id::text, 'username', pu.username, 'domain', pu.domain) from ${posts} op join ${users} pu on pu.id = op.author_id where op.id = o.parent_id), 'replyCount', o.reply_count, 'likeCount', o.like_count, 'repostCount', o.repost_count, 'authorId', ou.id, 'authorName', ou.name, 'authorUsername', ou.username, 'authorProfileImage', ou.profile_image, 'authorDomain', ou.domain, 'media', ${mediaJson(sql`o.id`)}, 'quoteOfId', o.quote_of_id, 'quote', ${quotedPostJson(sql`o.quote_of_id`)}, 'visibility', o.visibility, 'quotePolicy', o.quote_policy, 'spoilerText', o.spoiler_text, 'sensitive', o.sensitive, 'editedAt', o.edited_at, 'poll', ${pollJson(sql`o.id`)}) from ${posts} o join ${users} ou on ou.id = o.author_id where o.id = ${postId})`;
}

/** A post as a quote embeds it (null when it does not exist). */
export async function findQuoted(db: Executor, id: number): Promise<QuotedJson | string | null> {
  const [row] = await executeRows<{ quote: QuotedJson | string | null }>(
    db,
    sql`select ${quotedPostJson(sql`${id}::bigint`)} as quote`,
  );
  return row?.quote ?? null;
}

/** The author of the post a reply answers. */
export interface ReplyTo {
  id: string;
  username: string;
  domain: string | null;
}

/** The post a row's quote part embeds: its own quote's, or for a repost the reposted post's (one probe). */
const QUOTED = sql`coalesce("posts"."quote_of_id", (select rq.quote_of_id from ${posts} rq where rq.id = "posts"."repost_of_id"))`;

/**
 * The columns of a post as one viewer sees it: the post, its author (joined) and whether the viewer
 * liked it (a probe of the likes primary key), so a whole page is one statement. `rule` is the list's
 * (modules/safety/visibility.ts): it decides whether the quoted post is shown to this viewer.
 */
export function postViewColumns(viewerId: number | Placeholder | null, rule: VisibilityRule = 'all') {
  return {
    id: posts.id,
    text: posts.text,
    createdAt: posts.createdAt,
    cursorTime: cursorTime(posts.createdAt),
    parentId: posts.parentId,
    replyCount: posts.replyCount,
    likeCount: posts.likeCount,
    authorId: users.id,
    authorName: users.name,
    authorUsername: users.username,
    authorProfileImage: users.profileImage,
    authorDomain: users.domain,
    // Who wrote the parent ("Replying to @name"): one probe of posts' and users' primary keys, replies only.
    replyTo: sql<ReplyTo | null>`(select json_build_object('id', pu.id::text, 'username', pu.username, 'domain', pu.domain) from ${posts} parent join ${users} pu on pu.id = parent.author_id where parent.id = "posts"."parent_id")`,
    // Its images in grid order, or null: one probe of media_attachments_post_idx (most posts have none).
    media: mediaJson(sql`"posts"."id"`),
    quoteOfId: posts.quoteOfId,
    // The quoted post, one level (its own quote left out), or null when there is none or it was deleted.
    quote: quotedPostJson(sql`"posts"."quote_of_id"`),
    // Whether the quoted post (the row's own quote's, or the reposted post's) is hidden from this viewer:
    // then the quote shows it unavailable (posts.pack.ts). The JSON above is the same for every viewer
    // (posts.cache.ts shares it); this flag is the viewer's own, so the pack never shows it to them.
    // Most posts neither quote nor repost: no probe for them.
    quoteHidden: sql<boolean>`(case when "posts"."quote_of_id" is null and "posts"."repost_of_id" is null then false else ${quoteHiddenFrom(viewerId, QUOTED, rule)} end)`,
    repostCount: posts.repostCount,
    visibility: posts.visibility,
    quotePolicy: posts.quotePolicy,
    spoilerText: posts.spoilerText,
    sensitive: posts.sensitive,
    editedAt: posts.editedAt,
    repostOfId: posts.repostOfId,
    // For a repost: the reposted post as every viewer sees it (one probe), else null. The viewer's own
    // facts below are about it too, so the shared part stays viewer-free (posts.cache.ts).
    reposted: repostedPostJson(sql`"posts"."repost_of_id"`),
    likedByMe:
      viewerId === null
        ? sql<boolean>`false`
        : // A scalar subquery probing the (user_id, post_id) primary key once per row shown. Not EXISTS:
          // the planner turns EXISTS into a hash of all the viewer's likes (50,000 likes: 11 ms a page).
          // Qualified by hand: Drizzle leaves columns unqualified when a query reads a single table.
          sql<boolean>`coalesce((select true from ${likes} mine where mine.user_id = ${viewerId} and mine.post_id = ${SHOWN}), false)`,
    // The same probe of bookmarks' (user_id, post_id) primary key.
    bookmarkedByMe:
      viewerId === null
        ? sql<boolean>`false`
        : sql<boolean>`coalesce((select true from ${bookmarks} kept where kept.user_id = ${viewerId} and kept.post_id = ${SHOWN}), false)`,
    // A probe of posts_author_repost_key.
    repostedByMe:
      viewerId === null
        ? sql<boolean>`false`
        : sql<boolean>`coalesce((select true from ${posts} mine where mine.author_id = ${viewerId} and mine.repost_of_id = ${SHOWN}), false)`,
    // The link card of the post shown (a repost's: the reposted post's), when ready: one probe of post_cards' key.
    card: cardJson(SHOWN),
    // Its poll, or null: one probe of polls' key (a repost's is in `reposted`). The same for every viewer.
    poll: pollJson(sql`"posts"."id"`),
    // The viewer's own of the shown post's poll (their votes, whether it is theirs): a probe of polls'
    // key, and for a poll one of poll_votes' key; null for visitors.
    pollMine: pollMineJson(viewerId, SHOWN),
  };
}

/** A post row as postViewColumns selects it: the type follows the column list, never a copy of it. */
export type PostRow = SelectResultFields<ReturnType<typeof postViewColumns>>;

export type PageOrder = 'newest' | 'oldest';

/** Someone's posts: posts_author_created_at_id_idx. */
export const byAuthor = (authorId: number) => eq(posts.authorId, authorId);
/** Someone's posts as their profile lists them for `viewerId` (a direct post to its author only). */
export const onProfileOf = (authorId: number, viewerId: number | null) =>
  and(eq(posts.authorId, authorId), onProfile(viewerId, sql`"posts"`));
/**
 * The replies to a post the viewer may open (posts_parent_created_at_id_idx): none when the post itself
 * is hidden from them, checked once per statement (an InitPlan on posts' key).
 */
export const byParent = (parentId: number, viewerId: number | null) =>
  and(
    eq(posts.parentId, parentId),
    sql`exists (select 1 from ${posts} "parent_post" where "parent_post".id = ${parentId} and ${visiblePosts(viewerId, 'blocks', sql`"parent_post"`)})`,
  );

/**
 * One page of posts matching `where` that the viewer may see (`rule`: modules/safety/visibility.ts),
 * keyed on (created_at, id): `limit + 1` rows, one statement.
 */
export async function findPostPage(
  db: Executor,
  viewerId: number | null,
  where: SQL | undefined,
  cursor: Cursor | null,
  order: PageOrder,
  limit: number,
  rule: VisibilityRule = 'all',
): Promise<PostRow[]> {
  const by = order === 'newest' ? desc : asc;
  return db
    .select(postViewColumns(viewerId, rule))
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(and(where, visiblePosts(viewerId, rule), afterCursor(posts.createdAt, posts.id, cursor, order)))
    .orderBy(by(posts.createdAt), by(posts.id))
    .limit(limit + 1);
}

/** One post as the viewer sees it; null when it does not exist or a block hides it from them. */
export async function findPostView(db: Executor, viewerId: number | null, id: number): Promise<PostRow | null> {
  const [row] = await db
    .select(postViewColumns(viewerId, 'blocks'))
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(and(eq(posts.id, id), visiblePosts(viewerId, 'blocks')))
    .limit(1);
  return row ?? null;
}

/**
 * The ids of the posts above `id` (its parent, the parent's parent, …), nearest first, at most
 * `max`: one recursive walk up posts' primary key. Stops where a parent was deleted.
 */
export async function findAncestorIds(db: Executor, id: number, max: number): Promise<number[]> {
  const rows = await executeRows<{ id: string }>(
    db,
    sql`
    with recursive chain(id, depth) as (
      select p.parent_id, 1 from ${posts} p where p.id = ${id} and p.parent_id is not null
      union all
      select p.parent_id, c.depth + 1 from chain c
      join ${posts} p on p.id = c.id
      where p.parent_id is not null and c.depth < ${max}
    )
    select id::text as id from chain order by depth`,
  );
  return rows.map((row) => Number(row.id));
}

/**
 * Several posts as one viewer sees them, in no particular order: those `rule` hides left out when
 * given, and suspended people's always (a home feed's entries are pruned by that: feeds.service, whose
 * entries were written only to readers in the post's audience, and are dropped with an unfollow).
 */
export async function findPostViews(
  db: Executor,
  viewerId: number | null,
  ids: number[],
  rule?: VisibilityRule,
): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(postViewColumns(viewerId, rule ?? 'all'))
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(
      and(inArray(posts.id, ids), rule ? visiblePosts(viewerId, rule) : sql`not ${postOfSuspended(sql`"posts"`)}`),
    );
}

/**
 * Several posts as one viewer sees them, in the order of `ids`, sent prepared (one statement per viewer
 * kind): the second half of a page whose ids a small statement chose (search). The view columns are
 * most of a page statement's planning (~3–5 ms on PostgreSQL against well under a millisecond of
 * running), and this statement's plan does not depend on its parameters, so PostgreSQL keeps one
 * generic plan per connection; the statement that picks the ids keeps its custom plans (its cost does
 * depend on them: a search word's frequency). Suspended people's posts are left out, as in findPostViews.
 */
export async function findPostViewsInOrder(
  db: Database,
  viewerId: number | null,
  ids: readonly number[],
): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  const member = viewerId !== null;
  const statement = preparedOnce(db, `post_views_in_order_${member ? 'member' : 'visitor'}`, () =>
    db
      .select(postViewColumns(member ? sql.placeholder('viewer') : null))
      .from(posts)
      .innerJoin(users, eq(users.id, posts.authorId))
      .where(
        and(sql`${posts.id} = any(${sql.placeholder('ids')}::bigint[])`, sql`not ${postOfSuspended(sql`"posts"`)}`),
      )
      .prepare(`post_views_in_order_${member ? 'member' : 'visitor'}`),
  );
  const rows = await statement.execute({ viewer: viewerId ?? 0, ids: bigintArray(ids) });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The author of a post with their username (null when the post is gone). */
export async function findPostAuthorName(
  db: Executor,
  id: number,
): Promise<{ id: number; username: string; domain: string | null } | null> {
  const [row] = await db
    .select({ id: users.id, username: users.username, domain: users.domain })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(eq(posts.id, id))
    .limit(1);
  return row ?? null;
}

export async function findPostAuthor(db: Executor, id: number): Promise<number | null> {
  const [row] = await db.select({ authorId: posts.authorId }).from(posts).where(eq(posts.id, id)).limit(1);
  return row?.authorId ?? null;
}

/** Whether the post exists and the viewer may open it (a post page's rule, `blocks`; a visitor: public and unlisted). */
export async function postVisibleTo(db: Executor, viewerId: number | null, id: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(posts)
    .where(and(eq(posts.id, id), visiblePosts(viewerId, 'blocks')))
    .limit(1);
  return row !== undefined;
}

export async function postExists(db: Executor, id: number): Promise<boolean> {
  return (await findPostAuthor(db, id)) !== null;
}

/** The posts table's columns as the app reads them: all but the stored search words (they stay in SQL). */
const { searchVector: _searchVector, ...postTableColumns } = getTableColumns(posts);

/** A row of the posts table, as an insert returns it. */
export type PostTableRow = Omit<typeof posts.$inferSelect, 'searchVector'>;

export async function insertPost(
  db: Executor,
  row: {
    authorId: number;
    parentId: number | null;
    text: string;
    quoteOfId?: number | null;
    visibility: Visibility;
    quotePolicy: QuotePolicy;
    spoilerText?: string;
    sensitive?: boolean;
    /** A remote post's Note id (posts.uri). */
    uri?: string | null;
  },
) {
  const [created] = await db.insert(posts).values(row).returning(postTableColumns);
  return created!;
}

/**
 * A post that is no reply, in one statement: the post, its author's posts count, its hashtags and, with home feeds
 * (`queueForFeeds`), its row in modules/feeds' outbox (FeedsService.enqueueFanOut). One statement is
 * atomic without a transaction: one round trip where BEGIN, three writes and COMMIT took five.
 *
 * Posts written at the same moment share that statement (lib/group.ts, group commit): while two
 * statements are on their way, the posts that arrive wait and go together in the next one — one
 * round trip, one plan and one commit for all of them. A post alone goes at once. Each post is
 * answered once the statement that wrote it has committed, as before.
 */
export function insertTopLevelPost(db: Database, row: TopLevelRow, queueForFeeds: boolean): Promise<PostTableRow> {
  let groups = topLevelGroups.get(db);
  if (!groups) {
    groups = {
      plain: new GroupRunner((rows) => insertTopLevelPosts(db, rows, false), IN_FLIGHT, GROUP_MAX, refusedByDatabase),
      queued: new GroupRunner((rows) => insertTopLevelPosts(db, rows, true), IN_FLIGHT, GROUP_MAX, refusedByDatabase),
    };
    topLevelGroups.set(db, groups);
  }
  return (queueForFeeds ? groups.queued : groups.plain).add(row);
}

/** Statements of top-level posts on their way at once, and posts per statement at most. */
const IN_FLIGHT = 2;
const GROUP_MAX = 100;

/** A top-level post to write: `tags` only for a public one (post_hashtags lists public posts: hashtag pages, trends). */
type TopLevelRow = {
  authorId: number;
  text: string;
  tags: string[];
  visibility: Visibility;
  quotePolicy: QuotePolicy;
  /** A content warning ('' or left out: none) and the sensitive mark. */
  spoilerText?: string;
  sensitive?: boolean;
};
const topLevelGroups = new WeakMap<Database, Record<'plain' | 'queued', GroupRunner<TopLevelRow, PostTableRow>>>();

/** An error the database answered (a SQLSTATE): the statement was refused and rolled back, nothing written. */
const refusedByDatabase = (error: unknown) =>
  typeof (error as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((error as { code: string }).code);

/**
 * Several top-level posts in one statement, answered in the order given. Ids are drawn from the posts'
 * sequence row by row in that order (`input` is materialized once: nextval is volatile); every post
 * of the statement has the transaction's time, like posts written in one transaction.
 */
async function insertTopLevelPosts(db: Database, rows: TopLevelRow[], queueForFeeds: boolean): Promise<PostTableRow[]> {
  const tagOrd: number[] = [];
  const tagText: string[] = [];
  rows.forEach((row, i) => {
    for (const tag of row.tags) {
      tagOrd.push(i + 1);
      tagText.push(tag);
    }
  });
  const found = await preparedRows<{
    id: string;
    author_id: string;
    text: string;
    created_at: Date;
  }>(db, queueForFeeds ? 'insert_top_level_posts_queued' : 'insert_top_level_posts', topLevelInsertSql(queueForFeeds), [
    rows.map((r) => r.authorId),
    rows.map((r) => r.text),
    tagOrd,
    tagText,
    rows.map((r) => r.visibility),
    rows.map((r) => r.quotePolicy),
    rows.map((r) => r.spoilerText ?? ''),
    rows.map((r) => r.sensitive ?? false),
  ]);
  return found.map((r, i) => ({
    id: Number(r.id),
    authorId: Number(r.author_id),
    parentId: null,
    text: r.text,
    quoteOfId: null,
    repostOfId: null,
    replyCount: 0,
    likeCount: 0,
    repostCount: 0,
    visibility: rows[i]!.visibility,
    quotePolicy: rows[i]!.quotePolicy,
    spoilerText: rows[i]!.spoilerText ?? '',
    sensitive: rows[i]!.sensitive ?? false,
    editedAt: null,
    uri: null,
    createdAt: r.created_at,
  }));
}

const topLevelInsertSql = (queueForFeeds: boolean) => `
  with input as materialized (
    select nextval(pg_get_serial_sequence('posts', 'id')) as id, x.author_id, x.text, x.visibility, x.quote_policy, x.spoiler_text, x.sensitive, x.ord
    from unnest($1::bigint[], $2::text[], $5::text[], $6::text[], $7::text[], $8::boolean[]) with ordinality as x(author_id, text, visibility, quote_policy, spoiler_text, sensitive, ord)
    order by x.ord
  ),
  created as (
    insert into posts (id, author_id, text, visibility, quote_policy, spoiler_text, sensitive) overriding system value
    select id, author_id, text, visibility, quote_policy, spoiler_text, sensitive from input
    returning id, author_id, text, created_at
  ),
  counted as (
    update users u set posts_count = u.posts_count + c.n
    from (select author_id, count(*)::int as n from input group by author_id) c
    where u.id = c.author_id
  ),
  tagged as (
    insert into post_hashtags (tag, post_id, author_id, created_at)
    select t.tag, c.id, c.author_id, c.created_at
    from unnest($3::int[], $4::text[]) as t(ord, tag)
    join input i on i.ord = t.ord
    join created c on c.id = i.id
    on conflict do nothing
  )${queueForFeeds ? ',\n  queued as (insert into feed_outbox (post_id) select id from created)' : ''}
  select c.id::text as id, c.author_id::text as author_id, c.text, c.created_at
  from created c join input i on i.id = c.id
  order by i.ord`;

/**
 * The post_hashtags rows of the posts in `source` (an SQL relation of posts rows) for `tags` (an SQL
 * text array): each tag with the post's id, author and exact time. Both ways a post is written use it
 * (`insertTopLevelPost`'s statement, hashtags.repository `insertPostHashtags`).
 */
export function postHashtagRows(source: SQL, tags: SQL | Placeholder): SQL {
  return sql`select t.tag, p.id, p.author_id, p.created_at from ${source} p, unnest(${tags}::text[]) as t(tag)`;
}

/** Deletes a post only if `authorId` wrote it; answers its parent id, or undefined when nothing was deleted. */
/** Deletes a post (only `authorId`'s, when given); answers its parent and author, or undefined. */
export async function deletePostBy(db: Executor, id: number, authorId: number | null) {
  const [deleted] = await db
    .delete(posts)
    .where(and(eq(posts.id, id), authorId === null ? undefined : eq(posts.authorId, authorId)))
    .returning({ parentId: posts.parentId, authorId: posts.authorId, text: posts.text });
  return deleted;
}

/**
 * Adds `delta` to one of a post's counters (replies, likes), in the transaction that changed the rows
 * it counts; answers the post's author, or null when the post does not exist. Updating the row also
 * locks it for the rest of the transaction.
 */
export async function bumpPostCount(
  db: Executor,
  id: number,
  counter: 'replyCount' | 'likeCount' | 'repostCount',
  delta: 1 | -1,
): Promise<number | null> {
  const [row] = await db
    .update(posts)
    .set({ [counter]: sql`${posts[counter]} + ${delta}` })
    .where(eq(posts.id, id))
    .returning({ authorId: posts.authorId });
  return row?.authorId ?? null;
}

export async function addToPostsCount(db: Executor, userId: number, delta: number): Promise<void> {
  await db
    .update(users)
    .set({ postsCount: sql`${users.postsCount} + ${delta}` })
    .where(eq(users.id, userId));
}

/**
 * Inserts the like when the post exists and the like does not: true when a row was added.
 * (INSERT … SELECT, so an unknown post adds nothing instead of failing on the foreign key.)
 */
export async function insertLike(db: Executor, userId: number, postId: number): Promise<boolean> {
  const added = await db
    .insert(likes)
    .select(sql`select ${userId}::bigint, ${posts.id}, now() from ${posts} where ${posts.id} = ${postId}`)
    .onConflictDoNothing()
    .returning({ postId: likes.postId });
  return added.length > 0;
}

/** What reposting `id` reposts: the post itself, or for a repost the post it reposts; null when unknown. */
export async function findRepostTarget(db: Executor, id: PostId): Promise<PostId | null> {
  const [row] = await db
    .select({ target: sql<string>`coalesce(${posts.repostOfId}, ${posts.id})` })
    .from(posts)
    .where(eq(posts.id, id))
    .limit(1);
  return row ? (Number(row.target) as PostId) : null;
}

/**
 * The viewer's repost of `postId` (a row without text), unless they reposted it already or the post
 * is gone: its id, or null. Not counted in the reposter's posts.
 */
export async function insertRepost(db: Executor, userId: number, postId: number): Promise<number | null> {
  const [row] = await executeRows<{ id: string }>(
    db,
    sql`
    insert into ${posts} (author_id, text, repost_of_id, visibility)
    select ${userId}::bigint, '', p.id, p.visibility from ${posts} p where p.id = ${postId}
    on conflict do nothing
    returning id::text as id`,
  );
  return row ? Number(row.id) : null;
}

/** Who may see and quote a post, and its author (null when it does not exist). */
export async function findPostAudience(
  db: Executor,
  id: number,
): Promise<{ authorId: number; visibility: Visibility; quotePolicy: QuotePolicy } | null> {
  const [row] = await db
    .select({ authorId: posts.authorId, visibility: posts.visibility, quotePolicy: posts.quotePolicy })
    .from(posts)
    .where(eq(posts.id, id))
    .limit(1);
  return row ?? null;
}

/** Records whom a post mentions (and for a reply, whom it answers): its audience beyond the author's followers. */
export async function insertMentions(db: Executor, postId: number, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insert(postMentions)
    .values(userIds.map((userId) => ({ postId, userId })))
    .onConflictDoNothing();
}

/** The ids of a post's reposts, earliest first, at most `limit` (posts_repost_of_created_idx). */
export async function findRepostIds(db: Executor, postId: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: posts.id })
    .from(posts)
    .where(eq(posts.repostOfId, postId))
    .orderBy(asc(posts.createdAt), asc(posts.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** The id of `userId`'s repost of `postId` (posts_author_repost_key), or null. */
export async function findOwnRepost(db: Executor, userId: number, postId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.authorId, userId), eq(posts.repostOfId, postId)))
    .limit(1);
  return row?.id ?? null;
}

/** Removes the viewer's repost of `postId`: its row's id, or null when there was none. */
export async function deleteRepost(db: Executor, userId: number, postId: number): Promise<number | null> {
  const [row] = await db
    .delete(posts)
    .where(and(eq(posts.authorId, userId), eq(posts.repostOfId, postId)))
    .returning({ id: posts.id });
  return row?.id ?? null;
}

/** True when a like was removed. */
export async function deleteLike(db: Executor, userId: number, postId: number): Promise<boolean> {
  const removed = await db
    .delete(likes)
    .where(and(eq(likes.userId, userId), eq(likes.postId, postId)))
    .returning({ postId: likes.postId });
  return removed.length > 0;
}

/** Ids of the users with these usernames (lower-cased already), in one query on the lower(username) index. */
export async function findUserIdsByUsernames(db: Executor, lowerUsernames: string[]): Promise<number[]> {
  if (lowerUsernames.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    // Members: a mention of a remote person is written @user@host.
    .where(and(inArray(sql`lower(${users.username})`, lowerUsernames), isNull(users.domain)));
  return rows.map((r) => r.id);
}

/** The ids of people elsewhere Pipit knows, by `@user@host` (a handle nobody here knows finds nobody). */
export async function findRemoteIdsByHandles(
  db: Executor,
  handles: ReadonlyArray<{ username: string; host: string }>,
): Promise<number[]> {
  if (handles.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      or(
        ...handles.map((h) =>
          and(sql`lower(${users.username}) = ${h.username.toLowerCase()}`, eq(users.domain, h.host)),
        ),
      ),
    );
  return rows.map((r) => r.id);
}

/** The page key (created_at, id) of the post or repost entry `id`, or null when there is none. */
export async function findEntryCursor(db: Executor, id: number): Promise<Cursor | null> {
  const [row] = await db
    .select({ t: cursorTime(posts.createdAt) })
    .from(posts)
    .where(eq(posts.id, id))
    .limit(1);
  return row ? { t: row.t, id } : null;
}

/**
 * Who liked a post (likes_post_id_idx) or reposted it (posts_repost_of_created_idx), newest first,
 * at most `limit`, as `viewerId` sees them: people hidden from them (blocks, mutes, suspensions) are
 * left out, as from every list.
 */
export async function findPostPeople(
  db: Executor,
  viewerId: number | null,
  postId: number,
  kind: 'likers' | 'reposters',
  limit: number,
): Promise<UserViewRow[]> {
  const who = kind === 'likers' ? likes.userId : posts.authorId;
  const base = db.select(userViewColumns(viewerId)).from(users);
  const visible = visibleUsers(viewerId, sql`"users"."id"`);
  if (kind === 'likers') {
    return base
      .innerJoin(likes, eq(who, users.id))
      .where(and(eq(likes.postId, postId), visible))
      .orderBy(desc(likes.createdAt))
      .limit(limit);
  }
  const reposts = alias(posts, 'reposts');
  return base
    .innerJoin(reposts, eq(reposts.authorId, users.id))
    .where(and(eq(reposts.repostOfId, postId), visible))
    .orderBy(desc(reposts.createdAt))
    .limit(limit);
}

/** The posts a person liked, newest like first (the likes key), at most `limit`: their ids. */
export async function findLikedPostIds(db: Executor, userId: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: likes.postId })
    .from(likes)
    .where(eq(likes.userId, userId))
    .orderBy(desc(likes.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}
