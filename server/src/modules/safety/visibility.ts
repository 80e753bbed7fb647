/**
 * Who sees what, in one place: every list of posts or people a member reads goes through these
 * predicates (docs/decisions.md, "Who sees what"), so no new list can forget a block or a mute.
 *
 * - A **block** is mutual in what either sees: the blocker sees nothing of the blocked person, and
 *   the blocked person nothing of the blocker (posts, reposts of them, replies, search, hashtag
 *   pages, suggestions, notifications).
 * - A **mute** (a person, for good or until a time; or a word or phrase) is one-way and silent: the
 *   muter's lists leave the muted posts out; a muted person's own profile still shows their posts.
 * - A **suspension** (a moderator's) hides the person and everything of theirs from everyone,
 *   visitors included, until it is lifted.
 * - A post's **audience** (its visibility: the contract's VISIBILITIES) comes first and is never
 *   lifted: a followers-only post reaches its author, their followers and the people it mentions; a
 *   direct one its author and the people it mentions (post_mentions, which also holds the author a
 *   reply answers). Public and unlisted posts reach everyone; only public ones are **listed** on the
 *   lists of everyone's posts (Everyone, hashtag pages, trends, others' search: `listed`). An
 *   unfollow takes a followers-only post away from the next answer: the rule reads follows as they are.
 * - A **repost** of a hidden post is hidden (it shows nothing else). A **quote** of a hidden post is
 *   not: it is its author's own post, shown with "This post is unavailable" in place of the quoted one.
 *
 * Each predicate probes a primary key or a (user, …) index once per row it is asked about; for a
 * member with no blocks or mutes each probe finds nothing at once.
 */
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { blocks, follows, mutedWords, mutes, postMentions, posts, users } from '../../db/schema.ts';

type Id = SQL | Placeholder | number;

/** Which rules a list applies: all of them, or blocks only (someone's profile: a mute hides nothing there). */
export type VisibilityRule = 'all' | 'blocks';

/** True when `a` blocked `b` or `b` blocked `a`: two probes of blocks' primary key. */
export function blockedEitherWay(a: Id, b: Id): SQL {
  return sql`(exists (select 1 from ${blocks} vb where vb.blocker_id = ${a} and vb.blocked_id = ${b})
    or exists (select 1 from ${blocks} vb where vb.blocker_id = ${b} and vb.blocked_id = ${a}))`;
}

/** True when `viewer` muted `author` and the mute has not run out: one probe of mutes' primary key. */
export function mutedBy(viewer: Id, author: Id): SQL {
  return sql`exists (select 1 from ${mutes} vm where vm.muter_id = ${viewer} and vm.muted_id = ${author} and (vm.expires_at is null or vm.expires_at > now()))`;
}

/** True when `text` contains one of the viewer's muted words: one probe of muted_words_user_pattern_key. */
export function wordMutedBy(viewer: Id, text: SQL): SQL {
  return sql`exists (select 1 from ${mutedWords} vw where vw.user_id = ${viewer} and lower(${text}) ~ vw.pattern)`;
}

/**
 * The words of the post row `row` that muted words are matched against: its text and its content
 * warning (a muted word in the warning hides the post as one in the text does), one probe for both.
 */
export function postWords(row: SQL): SQL {
  return sql`(${row}.text || E'\n' || ${row}.spoiler_text)`;
}

/**
 * True when the viewer has any block (either way), mute or muted word at all. It does not depend on
 * the row, so PostgreSQL runs it once per statement (an InitPlan): for the many members with none,
 * the per-row probes below are never made.
 */
function hasAnyRule(viewer: Id): SQL {
  return sql`(exists (select 1 from ${blocks} ab where ab.blocker_id = ${viewer})
    or exists (select 1 from ${blocks} ab where ab.blocked_id = ${viewer})
    or exists (select 1 from ${mutes} am where am.muter_id = ${viewer})
    or exists (select 1 from ${mutedWords} aw where aw.user_id = ${viewer}))`;
}

/**
 * True when anyone at all is suspended: like hasAnyRule, once per statement, on the partial index
 * users_suspended_idx (as small as the number of suspended people). When nobody is, no row is probed.
 */
const anySuspended = sql`exists (select 1 from ${users} sx where sx.suspended_at is not null)`;

/**
 * The suspended people's ids, read once per statement (an InitPlan on users_suspended_idx). Rows are
 * matched against the array (`= any`): simple to plan, where a correlated EXISTS per row made the
 * planner weigh hashed subplans and parallel joins for every statement (planning cost ~3 ms, 20× the
 * execution of a visitor's page; bench/README.md).
 */
const suspendedIds = sql`array(select si.id from ${users} si where si.suspended_at is not null)`;

/** True when the person `userId` is suspended (never null). */
function suspended(userId: Id | SQL): SQL {
  return sql`coalesce(${userId} = any(${suspendedIds}), false)`;
}

/** True when the person is suspended (hidden from everyone). */
export function userSuspended(userId: Id): SQL {
  return sql`(${anySuspended} and ${suspended(userId)})`;
}

/** True when the person `userId` is hidden from `viewer` by `rule`, or suspended. */
export function userHiddenFrom(viewer: Id, userId: Id, rule: VisibilityRule = 'all'): SQL {
  const blocked = blockedEitherWay(viewer, userId);
  return sql`(${userSuspended(userId)} or (${hasAnyRule(viewer)} and ${rule === 'blocks' ? blocked : sql`(${blocked} or ${mutedBy(viewer, userId)})`}))`;
}

/**
 * True when `byWriter` holds for the post row `post` (an SQL alias of posts: author_id, text,
 * repost_of_id) or, for a repost, for the reposted post: a repost shows nothing but that post. A
 * quote is its author's own post: what it quotes decides only whether the quote part is shown
 * (quoteHiddenFrom), never whether the quote is.
 */
function shownBy(post: SQL, byWriter: (row: SQL) => SQL): SQL {
  return sql`(${byWriter(post)} or (${post}.repost_of_id is not null and exists (
      select 1 from ${posts} vo where vo.id = ${post}.repost_of_id and ${byWriter(sql`vo`)})))`;
}

/**
 * True when the post row `post`, or for a repost the reposted post, is by a suspended person: hidden
 * from everyone. The reposted post's author is read by a scalar lookup of posts' primary key, only
 * when someone is suspended.
 */
export function postOfSuspended(post: SQL): SQL {
  const authorOf = (id: SQL) => sql`(select sp.author_id from ${posts} sp where sp.id = ${id})`;
  return sql`(${anySuspended} and (${suspended(sql`${post}.author_id`)}
    or (${post}.repost_of_id is not null and ${suspended(authorOf(sql`${post}.repost_of_id`))})))`;
}

/**
 * True when `viewer` (null: a visitor) is in the audience of the post row `post` (an SQL alias of
 * posts: id, author_id, visibility). Public and unlisted: everyone, no probe. Otherwise the author,
 * the people it mentions (a probe of post_mentions' key) and for followers-only their followers (a
 * probe of follows' key). A repost's row carries the reposted post's visibility (public or unlisted).
 */
export function inAudience(viewer: Id | null, post: SQL): SQL {
  const open = sql`${post}.visibility in ('public', 'unlisted')`;
  if (viewer === null) return open;
  return sql`(${open} or ${post}.author_id = ${viewer}
    or exists (select 1 from ${postMentions} am where am.post_id = ${post}.id and am.user_id = ${viewer})
    or (${post}.visibility = 'followers' and exists (select 1 from ${follows} af where af.follower_id = ${viewer} and af.followee_id = ${post}.author_id)))`;
}

/** True for a post row that the lists of everyone's posts show (Everyone, hashtag pages, trends, search): a public one. */
export function listed(post: SQL): SQL {
  return sql`${post}.visibility = 'public'`;
}

/**
 * True for a post row a person's profile shows `viewer`: a direct post only to its author (the people
 * it mentions read it in their conversations), as Mastodon does.
 */
export function onProfile(viewer: Id | null, post: SQL): SQL {
  return viewer === null
    ? sql`${post}.visibility <> 'direct'`
    : sql`(${post}.visibility <> 'direct' or ${post}.author_id = ${viewer})`;
}

/**
 * True when the post row `post` is hidden from `viewer`: outside its audience (inAudience); by its
 * author and text, or for a repost by the reposted post's (shownBy); or by a suspension.
 */
export function postHiddenFrom(viewer: Id, post: SQL, rule: VisibilityRule = 'all'): SQL {
  const byWriter = (row: SQL) =>
    rule === 'blocks'
      ? blockedEitherWay(viewer, sql`${row}.author_id`)
      : // One's own posts are never hidden by one's own muted words.
        sql`(${blockedEitherWay(viewer, sql`${row}.author_id`)} or ${mutedBy(viewer, sql`${row}.author_id`)} or (${row}.author_id <> ${viewer} and ${wordMutedBy(viewer, postWords(row))}))`;
  return sql`(${postOfSuspended(post)} or not ${inAudience(viewer, post)} or (${hasAnyRule(viewer)} and ${shownBy(post, byWriter)}))`;
}

/** True when the post row `post` is hidden from a visitor: outside a visitor's audience, or by a suspension. */
function postHiddenFromVisitor(post: SQL): SQL {
  return sql`(${postOfSuspended(post)} or not ${inAudience(null, post)})`;
}

/**
 * True when the post `quotedId` (an SQL expression; null for none) exists and is hidden from
 * `viewer` (a visitor: suspended) by `rule`: a quote of it then shows "This post is unavailable"
 * instead of it, to this viewer only (posts.pack.ts), while the quote itself stays in their lists.
 */
export function quoteHiddenFrom(viewerId: Id | null, quotedId: SQL, rule: VisibilityRule = 'all'): SQL {
  const row = sql`vqh`;
  const hidden = viewerId === null ? postHiddenFromVisitor(row) : postHiddenFrom(viewerId, row, rule);
  return sql`exists (select 1 from ${posts} vqh where vqh.id = ${quotedId} and ${hidden})`;
}

/** The posts of a list that `viewer` may see (a visitor: public and unlisted ones, but suspended people's). */
export function visiblePosts(
  viewerId: number | null | Placeholder,
  rule: VisibilityRule = 'all',
  row: SQL = sql`"posts"`,
): SQL {
  return viewerId === null ? sql`not ${postHiddenFromVisitor(row)}` : sql`not ${postHiddenFrom(viewerId, row, rule)}`;
}

/** The people of a list that `viewer` may see, `userId` being the list's user id column. */
export function visibleUsers(viewerId: number | null, userId: SQL, rule: VisibilityRule = 'all'): SQL {
  return viewerId === null ? sql`not ${userSuspended(userId)}` : sql`not ${userHiddenFrom(viewerId, userId, rule)}`;
}

/** A muted word's pattern: the phrase lower-cased, its regex characters escaped, between word boundaries. */
export function mutedWordPattern(phrase: string): string {
  const escaped = phrase.toLowerCase().replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  // Not \m / \M: a phrase may start or end with a non-word character (#tag, C++).
  return `(^|[^[:alnum:]_])${escaped}($|[^[:alnum:]_])`;
}
