import {
  QUOTE_POLICIES,
  type QuotePolicy,
  quotesWider,
  VISIBILITIES,
  type Visibility,
  widerThan,
  widestQuotePolicy,
} from '@pipit/contract';
import { t } from '../i18n/i18n.ts';

/**
 * The words for who sees a post and who may quote it, and the rules the composer offers them by
 * (the server's, packages/contract posts.ts): a reply is never wider than its parent; a
 * followers-only post can be quoted by followers at most, a mentioned-only one by nobody.
 */

/** In the reader's language: each word is read (getters) where it is shown, after the language is chosen. */
export const VISIBILITY_WORDS: Record<
  Visibility,
  { readonly label: string; readonly mine: string; readonly theirs: string }
> = {
  public: {
    get label() {
      return t('Public');
    },
    get mine() {
      return t('Anyone can see this');
    },
    get theirs() {
      return t('Anyone can see this');
    },
  },
  unlisted: {
    get label() {
      return t('Unlisted');
    },
    get mine() {
      return t('Anyone can see this, but not on Everyone, hashtags or search');
    },
    get theirs() {
      return t('Not shown on Everyone, hashtags or search');
    },
  },
  followers: {
    get label() {
      return t('Followers only');
    },
    get mine() {
      return t('Only your followers and people you mention');
    },
    get theirs() {
      return t('Only the author’s followers and the people mentioned can see this');
    },
  },
  direct: {
    get label() {
      return t('Mentioned people only');
    },
    get mine() {
      return t('Only people you mention');
    },
    get theirs() {
      return t('Only the people mentioned can see this');
    },
  },
};

export const QUOTE_WORDS: Record<QuotePolicy, string> = {
  get anyone() {
    return t('Anyone');
  },
  get followers() {
    return t('Your followers');
  },
  get nobody() {
    return t('Nobody');
  },
};

/** The narrower of two visibilities. */
export const narrower = (a: Visibility, b: Visibility): Visibility => (widerThan(a, b) ? b : a);

/** Where a composer starts: the member's default, or the parent's when a reply's parent is narrower. */
export const initialVisibility = (defaultVisibility: Visibility, parent?: Visibility): Visibility =>
  parent ? narrower(defaultVisibility, parent) : defaultVisibility;

export interface VisibilityOption {
  value: Visibility;
  /** Why it cannot be chosen (a reply wider than its parent); null when it can. */
  refused: string | null;
}

/** Every visibility, widest first, those wider than a reply's parent refused with the reason. */
export const visibilityOptions = (parent?: Visibility): VisibilityOption[] =>
  VISIBILITIES.map((value) => ({
    value,
    refused:
      parent && widerThan(value, parent)
        ? t('A reply can’t be seen by more people than the post it answers ({visibility})', {
            visibility: VISIBILITY_WORDS[parent].label.toLowerCase(),
          })
        : null,
  }));

/** The policy asked for, narrowed to what the visibility allows. */
export const allowedQuotePolicy = (asked: QuotePolicy, visibility: Visibility): QuotePolicy => {
  const widest = widestQuotePolicy(visibility);
  return quotesWider(asked, widest) ? widest : asked;
};

/** Every quote policy, those wider than the visibility allows refused with the reason. */
export const quotePolicyOptions = (visibility: Visibility): { value: QuotePolicy; refused: string | null }[] =>
  QUOTE_POLICIES.map((value) => ({
    value,
    refused: quotesWider(value, widestQuotePolicy(visibility))
      ? t('Not for a {visibility} post', { visibility: VISIBILITY_WORDS[visibility].label.toLowerCase() })
      : null,
  }));

/** Why a post cannot be reposted (only public and unlisted ones can), or null. */
export const repostRefusal = (visibility: Visibility): string | null =>
  visibility === 'followers'
    ? t('Followers-only posts can’t be reposted')
    : visibility === 'direct'
      ? t('Posts for mentioned people only can’t be reposted')
      : null;

/** Why this viewer cannot quote a post (its author allows nobody else), or null; `followers` is left to the server. */
export const quoteRefusal = (post: { quotePolicy: QuotePolicy; author: { id: string } }, viewerId?: string) =>
  post.quotePolicy === 'nobody' && post.author.id !== viewerId
    ? t('The author doesn’t allow quotes of this post')
    : null;
