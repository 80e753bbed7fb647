import {
  QUOTE_POLICIES,
  type QuotePolicy,
  quotesWider,
  VISIBILITIES,
  type Visibility,
  widerThan,
  widestQuotePolicy,
} from '@pipit/contract';

/**
 * The words for who sees a post and who may quote it, and the rules the composer offers them by
 * (the server's, packages/contract posts.ts): a reply is never wider than its parent; a
 * followers-only post can be quoted by followers at most, a mentioned-only one by nobody.
 */

export const VISIBILITY_WORDS: Record<Visibility, { label: string; mine: string; theirs: string }> = {
  public: { label: 'Public', mine: 'Anyone can see this', theirs: 'Anyone can see this' },
  unlisted: {
    label: 'Unlisted',
    mine: 'Anyone can see this, but not on Everyone, hashtags or search',
    theirs: 'Not shown on Everyone, hashtags or search',
  },
  followers: {
    label: 'Followers only',
    mine: 'Only your followers and people you mention',
    theirs: 'Only the author’s followers and the people mentioned can see this',
  },
  direct: {
    label: 'Mentioned people only',
    mine: 'Only people you mention',
    theirs: 'Only the people mentioned can see this',
  },
};

export const QUOTE_WORDS: Record<QuotePolicy, string> = {
  anyone: 'Anyone',
  followers: 'Your followers',
  nobody: 'Nobody',
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
        ? `A reply can’t be seen by more people than the post it answers (${VISIBILITY_WORDS[parent].label.toLowerCase()})`
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
      ? `Not for a ${VISIBILITY_WORDS[visibility].label.toLowerCase()} post`
      : null,
  }));

/** Why a post cannot be reposted (only public and unlisted ones can), or null. */
export const repostRefusal = (visibility: Visibility): string | null =>
  visibility === 'followers'
    ? 'Followers-only posts can’t be reposted'
    : visibility === 'direct'
      ? 'Posts for mentioned people only can’t be reposted'
      : null;

/** Why this viewer cannot quote a post (its author allows nobody else), or null; `followers` is left to the server. */
export const quoteRefusal = (post: { quotePolicy: QuotePolicy; author: { id: string } }, viewerId?: string) =>
  post.quotePolicy === 'nobody' && post.author.id !== viewerId ? 'The author doesn’t allow quotes of this post' : null;
