import type { QuotePolicy, Visibility } from '@pipit/contract';

/**
 * Pipit's audience words as Mastodon's, and back: one place for every presenter and form. A
 * visibility is Mastodon's `visibility` / `source[privacy]` (followers only is `private`); a quote
 * policy is its `quote_approval_policy` (anyone is `public`).
 */
export const MASTODON_VISIBILITY = {
  public: 'public',
  unlisted: 'unlisted',
  followers: 'private',
  direct: 'direct',
} as const satisfies Record<Visibility, string>;

export const MASTODON_QUOTE_POLICY = {
  anyone: 'public',
  followers: 'followers',
  nobody: 'nobody',
} as const satisfies Record<QuotePolicy, string>;

/** The inverse of `words`, answering only its own keys (never `constructor`, `toString`…). */
function reader<P extends string>(words: Record<P, string>): (word: string) => P | undefined {
  const back = new Map(Object.entries(words).map(([pipit, mastodon]) => [mastodon as string, pipit as P]));
  return (word) => back.get(word);
}

/** A Mastodon visibility word as Pipit's visibility; undefined when it is none of Mastodon's four. */
export const visibilityOf = reader<Visibility>(MASTODON_VISIBILITY);

/** A Mastodon quote approval policy as Pipit's quote policy; undefined when it is none of the three. */
export const quotePolicyOf = reader<QuotePolicy>(MASTODON_QUOTE_POLICY);
