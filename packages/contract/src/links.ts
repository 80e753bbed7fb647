import { HASHTAG_PATTERN, hashtagOf } from './hashtags.ts';
import { MENTION_PATTERN } from './posts.ts';

/**
 * A link in a post's text: http or https, up to the first space, `<`, `>` or `"`, trailing punctuation
 * left out. The one definition: the web links what this finds, and the server gives the first one a
 * preview card (`firstLinkOf`).
 */
export const URL_PATTERN = /(https?:\/\/[^\s<>"]*[^\s<>".,:;!?'")\]])/u;

/** A post's text cut into what the web renders: plain text, links, #hashtags and @mentions. */
export type TextToken =
  | { type: 'text'; value: string }
  | { type: 'url'; value: string }
  | { type: 'hashtag'; value: string; tag: string }
  | { type: 'mention'; value: string; username: string };

const TOKENS = new RegExp([URL_PATTERN.source, HASHTAG_PATTERN.source, MENTION_PATTERN.source].join('|'), 'gu');

/** The tokens of a text, in order (the contract's rules: the ones the server stores hashtags and mentions by). */
export function tokenize(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKENS)) {
    const index = match.index ?? 0;
    if (index > last) tokens.push({ type: 'text', value: text.slice(last, index) });
    const [value, url, tag, username] = match;
    if (url) tokens.push({ type: 'url', value: url });
    else if (tag && hashtagOf(tag)) tokens.push({ type: 'hashtag', value, tag });
    else if (tag)
      tokens.push({ type: 'text', value }); // `#1`: no letter, no tag
    else if (username) tokens.push({ type: 'mention', value, username });
    last = index + value.length;
  }
  if (last < text.length) tokens.push({ type: 'text', value: text.slice(last) });
  return tokens;
}

/** The links of a text as the web renders them, in order. */
export function linksOf(text: string): string[] {
  return tokenize(text).flatMap((token) => (token.type === 'url' ? [token.value] : []));
}
