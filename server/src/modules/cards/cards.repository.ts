import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type Executor, executeRows } from '../../db/client.ts';
import { postCards, posts, previewCards } from '../../db/schema.ts';

/** A ready card as the post view's subquery selects it (cards.pack.ts packs it). */
export interface CardJson {
  url: string;
  title: string;
  description: string;
  siteName: string;
  authorName: string;
  imageKey: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
  blurhash: string | null;
}

/**
 * The ready card of the post `postId` (an SQL expression), as JSON, or null: one probe of post_cards'
 * key (most posts have none), then one of preview_cards'.
 */
export function cardJson(postId: SQL) {
  return sql<
    CardJson | string | null
  >`(select json_build_object('url', c.url, 'title', c.title, 'description', c.description, 'siteName', c.site_name, 'authorName', c.author_name, 'imageKey', c.image_key, 'imageWidth', c.image_width, 'imageHeight', c.image_height, 'blurhash', c.blurhash) from ${postCards} pc join ${previewCards} c on c.id = pc.card_id where pc.post_id = ${postId} and c.state = 'ready')`;
}

export type CardRow = typeof previewCards.$inferSelect;

/**
 * Claims the fetch of `url`, in one statement: its row is created (pending), or its `fetched_at` moved
 * to now when the last fetch is older than `refreshMs` — or when it is still pending after
 * `abandonedMs` (the process fetching it died: a fetch takes seconds). Answers the row, whether this
 * caller claimed it, and whether it had never been fetched (`firstFetch`: every post waiting for it is
 * told when it is ready); two callers at once (two processes) — one waits on the other's row and finds
 * it fresh, so a URL is fetched at most once per `refreshMs`.
 */
export async function claimCard(
  db: Executor,
  url: string,
  refreshMs: number,
  abandonedMs: number,
): Promise<{ card: CardRow; claimed: boolean; firstFetch: boolean }> {
  const [claimed] = await executeRows<{ id: string | number; first_fetch: boolean }>(
    db,
    // RETURNING's subquery reads the statement's snapshot: the row as it was before (none: inserted now).
    sql`insert into ${previewCards} as c (url) values (${url})
        on conflict (url) do update set fetched_at = now()
        where c.fetched_at < now() - make_interval(secs => ${refreshMs / 1000})
           or (c.state = 'pending' and c.fetched_at < now() - make_interval(secs => ${abandonedMs / 1000}))
        returning c.id,
          coalesce((select p.state from ${previewCards} p where p.id = c.id), 'pending') = 'pending' as first_fetch`,
  );
  const [card] = await db.select().from(previewCards).where(eq(previewCards.url, url)).limit(1);
  if (!card) throw new Error(`preview card of ${url} vanished`);
  return { card, claimed: claimed !== undefined, firstFetch: claimed?.first_fetch === true };
}

/** Gives the post its card (the card of its first link); false when the post is gone. */
export async function linkPost(db: Executor, postId: number, cardId: number): Promise<boolean> {
  const rows = await executeRows<{ post_id: string }>(
    db,
    sql`insert into ${postCards} (post_id, card_id) select id, ${cardId} from ${posts} where id = ${postId}
        on conflict (post_id) do update set card_id = excluded.card_id returning post_id`,
  );
  return rows.length > 0;
}

/** The link of the card the post has (ready, pending or failed), or null when it has none. */
export async function linkedUrl(db: Executor, postId: number): Promise<string | null> {
  const [row] = await db
    .select({ url: previewCards.url })
    .from(postCards)
    .innerJoin(previewCards, eq(previewCards.id, postCards.cardId))
    .where(eq(postCards.postId, postId))
    .limit(1);
  return row?.url ?? null;
}

/** Takes the post's card away (an edit changed its link, or gave it pictures); the card stays for other posts. */
export async function unlinkPost(db: Executor, postId: number): Promise<void> {
  await db.delete(postCards).where(eq(postCards.postId, postId));
}

/** What a fetch found: a card but for its URL. */
export type CardContent = Omit<CardJson, 'url'>;

/** The fetch's result: the card ready with `content`, or failed (no card); answers the picture it replaced. */
export async function finishCard(
  db: Executor,
  id: number,
  content: CardContent | null,
): Promise<{ replacedImage: string | null }> {
  const [before] = await db
    .select({ imageKey: previewCards.imageKey })
    .from(previewCards)
    .where(eq(previewCards.id, id))
    .for('update');
  if (content)
    await db
      .update(previewCards)
      .set({ state: 'ready', ...content })
      .where(eq(previewCards.id, id));
  else
    await db
      .update(previewCards)
      .set({ state: 'failed' })
      .where(and(eq(previewCards.id, id), eq(previewCards.state, 'pending')));
  const old = before?.imageKey ?? null;
  return { replacedImage: content && old !== content.imageKey ? old : null };
}

/** The card's state now (after linking a post to it). */
export async function cardState(db: Executor, id: number): Promise<string | null> {
  const [row] = await db.select({ state: previewCards.state }).from(previewCards).where(eq(previewCards.id, id));
  return row?.state ?? null;
}

/** The posts that show card `id`, the newest `limit`: those that waited for its first fetch. */
export async function findWaitingPosts(
  db: Executor,
  id: number,
  limit: number,
): Promise<{ postId: number; authorId: number }[]> {
  return db
    .select({ postId: postCards.postId, authorId: posts.authorId })
    .from(postCards)
    .innerJoin(posts, eq(posts.id, postCards.postId))
    .where(eq(postCards.cardId, id))
    .orderBy(desc(postCards.postId))
    .limit(limit);
}
