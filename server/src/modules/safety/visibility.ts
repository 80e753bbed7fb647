/**
 * Who sees what, in one place: every list of posts or people a member reads goes through these
 * predicates (docs/architecture.md), so no new list can forget a block or a mute.
 *
 * - A **block** is mutual in what either sees: the blocker sees nothing of the blocked person, and
 *   the blocked person nothing of the blocker (posts, reposts of them, replies, search, hashtag
 *   pages, suggestions, notifications).
 * - A **mute** (a person, for good or until a time; or a word or phrase) is one-way and silent: the
 *   muter's lists leave the muted posts out; a muted person's own profile still shows their posts.
 *
 * Each predicate probes a primary key or a (user, …) index once per row it is asked about; for a
 * member with no blocks or mutes each probe finds nothing at once.
 */
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { blocks, mutedWords, mutes, posts } from '../../db/schema.ts';

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

/** True when the person `userId` is hidden from `viewer` by `rule`. */
export function userHiddenFrom(viewer: Id, userId: Id, rule: VisibilityRule = 'all'): SQL {
  const blocked = blockedEitherWay(viewer, userId);
  return sql`(${hasAnyRule(viewer)} and ${rule === 'blocks' ? blocked : sql`(${blocked} or ${mutedBy(viewer, userId)})`})`;
}

/**
 * True when the post row `post` (an SQL alias of posts: author_id, text, repost_of_id, quote_of_id) is
 * hidden from `viewer`: by its author and text; for a repost also by the reposted post's; for a quote
 * also by the quoted post's (a quote shows the quoted post: a post quoting someone hidden is hidden).
 */
export function postHiddenFrom(viewer: Id, post: SQL, rule: VisibilityRule = 'all'): SQL {
  const byWriter = (row: SQL) =>
    rule === 'blocks'
      ? blockedEitherWay(viewer, sql`${row}.author_id`)
      : // One's own posts are never hidden by one's own muted words.
        sql`(${userHiddenFrom(viewer, sql`${row}.author_id`)} or (${row}.author_id <> ${viewer} and ${wordMutedBy(viewer, sql`${row}.text`)}))`;
  const shown = (column: string, alias: string) =>
    sql`(${post}.${sql.raw(column)} is not null and exists (
      select 1 from ${posts} ${sql.raw(alias)} where ${sql.raw(alias)}.id = ${post}.${sql.raw(column)} and ${byWriter(sql.raw(alias))}))`;
  // A repost of a quote: the quote inside is checked too (one level, as a quote embeds one level).
  const inner = sql`(${post}.repost_of_id is not null and exists (
      select 1 from ${posts} vr join ${posts} vq on vq.id = vr.quote_of_id
      where vr.id = ${post}.repost_of_id and ${byWriter(sql`vq`)}))`;
  return sql`(${hasAnyRule(viewer)} and (${byWriter(post)} or ${shown('repost_of_id', 'vo')} or ${shown('quote_of_id', 'vqo')} or ${inner}))`;
}

/** The posts of a list that `viewer` may see (nothing to add for a visitor). */
export function visiblePosts(viewerId: number | null, rule: VisibilityRule = 'all'): SQL | undefined {
  return viewerId === null ? undefined : sql`not ${postHiddenFrom(viewerId, sql`"posts"`, rule)}`;
}

/** The people of a list that `viewer` may see, `userId` being the list's user id column. */
export function visibleUsers(viewerId: number | null, userId: SQL, rule: VisibilityRule = 'all'): SQL | undefined {
  return viewerId === null ? undefined : sql`not ${userHiddenFrom(viewerId, userId, rule)}`;
}

/** A muted word's pattern: the phrase lower-cased, its regex characters escaped, between word boundaries. */
export function mutedWordPattern(phrase: string): string {
  const escaped = phrase.toLowerCase().replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  // Not \m / \M: a phrase may start or end with a non-word character (#tag, C++).
  return `(^|[^[:alnum:]_])${escaped}($|[^[:alnum:]_])`;
}
