import { linksOf, type Post } from '@pipit/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database, Tx } from '../../db/client.ts';
import type { EventBus } from '../../lib/events.ts';
import type { Jobs } from '../../lib/jobs.ts';
import { type Resolve, SafeFetchError, safeFetch } from '../../lib/safe-fetch.ts';
import { type MediaService, mediaUrl } from '../media/media.service.ts';
import { toPost } from '../posts/posts.pack.ts';
import { findPostView } from '../posts/posts.repository.ts';
import { decodeHtml, parsePage } from './cards.parse.ts';
import * as repo from './cards.repository.ts';

/** A URL is fetched at most once in this long, whatever number of posts (and processes) have it. */
export const CARD_REFRESH_MS = 24 * 60 * 60 * 1000;
/**
 * A card still pending this long after its fetch was claimed was abandoned (the process died mid-fetch;
 * a fetch is bounded by seconds): the next post with the link claims it again instead of waiting a day.
 */
export const CARD_ABANDONED_MS = 2 * 60 * 1000;

/** At most this many posts that waited for a card's first fetch are told it is there (the newest). */
const ANNOUNCE_AT_MOST = 200;

const PAGE_TYPES = ['text/html', 'application/xhtml+xml'] as const;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/**
 * The link of a text that gets a card: its first link as the web renders it (contract `linksOf`), in the
 * WHATWG parser's normal form without its fragment; links to this server's own pages are passed over
 * (as Mastodon does). Null when there is none.
 */
export function cardLinkOf(text: string, publicUrl: string): string | null {
  const own = new URL(publicUrl).origin;
  for (const link of linksOf(text)) {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (url.origin === own) continue;
    url.hash = '';
    return url.href;
  }
  return null;
}

/**
 * Link preview cards. A post's first link is fetched by a background job after the post is committed
 * (creating a post never waits on it, and makes no query for it); the card is kept per URL in
 * `preview_cards` and shared by every post that has the link, fetched at most once per CARD_REFRESH_MS
 * across processes (the claim is one conditional upsert). When it is ready, each post that waited gets
 * a `post.card` event: open pages and streams show it (the live hub applies the post's audience).
 */
export class CardsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly media: MediaService,
    private readonly jobs: Jobs,
    private readonly config: Config['cards'],
    private readonly publicUrl: string,
    private readonly log: FastifyBaseLogger,
    /** How names are resolved (tests map names to chosen addresses); default: the system's. */
    private readonly resolve?: Resolve,
  ) {}

  /**
   * Called once a post has committed, on the create path: no query, no await — a job is started when
   * cards are on, the post has no images (Mastodon shows none then) and its text has a link.
   */
  postCreated(post: { id: number; authorId: number; text: string; hasMedia: boolean }): void {
    if (!this.config.enabled || post.hasMedia) return;
    const url = cardLinkOf(post.text, this.publicUrl);
    if (url === null) return;
    this.jobs.run('cards.fetch', () => this.attach(post.id, post.authorId, url));
  }

  /**
   * For an edit of the post (inside its transaction, after its new text and pictures are written): the
   * card follows the post's first link. When that link changed, or the post has pictures now (Mastodon
   * shows no card then), its card goes at once (the edit's `post.updated` shows it without); answers
   * the link whose card is to be fetched once the edit has committed (`cardAfterEdit`), or null.
   */
  async postEditedIn(tx: Tx, post: { id: number; text: string; hasMedia: boolean }): Promise<string | null> {
    const url = post.hasMedia ? null : cardLinkOf(post.text, this.publicUrl);
    const linked = await repo.linkedUrl(tx, post.id);
    if (linked === url) return null;
    if (linked !== null) await repo.unlinkPost(tx, post.id);
    return url !== null && this.config.enabled ? url : null;
  }

  /**
   * Once an edit that changed the post's first link has committed: its card is fetched as a new post's
   * is (`post.card` when it is ready; at once when the link's card is known already).
   */
  cardAfterEdit(post: { id: number; authorId: number }, url: string): void {
    this.jobs.run('cards.fetch', () => this.attach(post.id, post.authorId, url));
  }

  /**
   * The job: claims the URL (or finds it claimed), links the post to its card, and when this job
   * claimed it fetches the page and tells the posts that waited. Idempotent: running it again for the
   * same post links it again and fetches nothing new within CARD_REFRESH_MS.
   */
  async attach(postId: number, authorId: number, url: string): Promise<void> {
    const { card, claimed, firstFetch } = await repo.claimCard(this.db, url, CARD_REFRESH_MS, CARD_ABANDONED_MS);
    if (!(await repo.linkPost(this.db, postId, card.id))) return; // the post was deleted meanwhile
    if (!claimed) {
      // Another job (here or in another process) fetched it, or is fetching it: if it is ready the post
      // shows it now; if pending, that job tells this post when it is done (the link is there already).
      if ((await repo.cardState(this.db, card.id)) === 'ready') await this.announce([{ postId, authorId }]);
      return;
    }
    const content = await this.fetchCard(url);
    const { replacedImage } = await this.db.transaction(async (tx) => {
      if (content?.image) await this.media.storeWithin(tx, [content.image.image]);
      return repo.finishCard(tx, card.id, content ? this.contentOf(content) : null);
    });
    if (replacedImage) await this.media.collect([mediaUrl(replacedImage)]);
    if (!content) return;
    // A first fetch: every post that linked to it while it was pending; a refresh: this post (the others
    // had the card already and show the new one on their next read).
    await this.announce(
      firstFetch ? await repo.findWaitingPosts(this.db, card.id, ANNOUNCE_AT_MOST) : [{ postId, authorId }],
    );
  }

  private contentOf(content: FetchedCard): repo.CardContent {
    return {
      title: content.title,
      description: content.description,
      siteName: content.siteName,
      authorName: content.authorName,
      imageKey: content.image?.image.key ?? null,
      imageWidth: content.image?.width ?? null,
      imageHeight: content.image?.height ?? null,
      blurhash: content.image?.blurhash ?? null,
    };
  }

  /** The page's card, with its picture when it has one that decodes; null when there is no card to make. */
  private async fetchCard(url: string): Promise<FetchedCard | null> {
    const common = {
      timeoutMs: this.config.timeoutMs,
      allowLoopback: this.config.allowLoopback,
      userAgent: `Pipit (link preview; +${this.publicUrl})`,
      ...(this.resolve ? { resolve: this.resolve } : {}),
    };
    let page: Awaited<ReturnType<typeof safeFetch>>;
    try {
      page = await safeFetch(url, {
        ...common,
        maxBytes: this.config.maxPageBytes,
        types: PAGE_TYPES,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
      });
    } catch (error) {
      this.log.info({ url, reason: reasonOf(error) }, 'link card: page not fetched');
      return null;
    }
    const meta = parsePage(decodeHtml(page.body, page.charset), page.url);
    if (!meta) return null;
    let image: FetchedCard['image'] = null;
    if (meta.image) {
      try {
        const picture = await safeFetch(meta.image, {
          ...common,
          maxBytes: this.config.maxImageBytes,
          types: IMAGE_TYPES,
          accept: IMAGE_TYPES.join(','),
        });
        image = await this.media.prepareCardImage(picture.body);
      } catch (error) {
        // A picture that is refused, unreachable or does not decode: the card goes without one.
        this.log.info({ url: meta.image, reason: reasonOf(error) }, 'link card: picture not used');
      }
    }
    return { ...meta, image };
  }

  /** Tells open pages and streams that these posts have their card now (`post.card`, each as its author reads it). */
  private async announce(waiting: readonly { postId: number; authorId: number }[]): Promise<void> {
    const events = [];
    for (const { postId, authorId } of waiting) {
      const row = await findPostView(this.db, authorId, postId);
      if (!row) continue;
      // Nothing of the author's own (likes, bookmarks): the hub sends it to everyone in its audience.
      const view: Post = { ...toPost(row), likedByMe: false, repostedByMe: false, bookmarkedByMe: false };
      if (view.card) events.push({ type: 'post.card' as const, postId, authorId, view });
    }
    if (events.length > 0) await this.events.publish(events);
  }
}

interface FetchedCard {
  title: string;
  description: string;
  siteName: string;
  authorName: string;
  image: Awaited<ReturnType<MediaService['prepareCardImage']>> | null;
}

const reasonOf = (error: unknown) => (error instanceof SafeFetchError ? error.code : (error as Error).message);
