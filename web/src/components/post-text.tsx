import { HASHTAG_PATTERN, hashtagOf, MENTION_PATTERN } from '@pipit/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../lib/cn.ts';
import { paths } from '../lib/paths.ts';

export type Token =
  | { type: 'text'; value: string }
  | { type: 'url'; value: string }
  | { type: 'hashtag'; value: string; tag: string }
  | { type: 'mention'; value: string; username: string };

/**
 * URLs (http/https, trailing punctuation left out), #hashtags and @mentions: the contract's rules, the
 * ones the server stores hashtags and notifies mentions by.
 */
const TOKENS = new RegExp(
  [/(https?:\/\/[^\s<>"]*[^\s<>".,:;!?'")\]])/u.source, HASHTAG_PATTERN.source, MENTION_PATTERN.source].join('|'),
  'gu',
);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
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

/** Underlined as well as coloured: the accent alone is too close to the text's white (WCAG 1.4.1). */
const linkClass = 'text-accent underline decoration-accent/40 underline-offset-2 hover:decoration-accent';

/**
 * A post's text as text: links for URLs, hashtags and mentions, everything else is rendered by
 * React as plain text (never as HTML). URLs are shown in full, exactly as written, so what a
 * link says is where it goes.
 */
export function PostText({ text, className }: { text: string; className?: string }) {
  const parts: ReactNode[] = tokenize(text).map((token, i) => {
    const key = `${i}-${token.type}`;
    switch (token.type) {
      case 'url':
        return (
          <a key={key} href={token.value} target="_blank" rel="noopener noreferrer nofollow ugc" className={linkClass}>
            {token.value}
          </a>
        );
      case 'hashtag':
        return (
          <Link key={key} to={paths.hashtag(token.tag)} className={linkClass}>
            {token.value}
          </Link>
        );
      case 'mention':
        return (
          <Link key={key} to={paths.mention(token.username)} className={linkClass}>
            {token.value}
          </Link>
        );
      default:
        // Text in its own element: a click on it is a click on the post, not on a neighbouring link.
        return <span key={key}>{token.value}</span>;
    }
  });
  return <div className={cn('whitespace-pre-wrap break-words [overflow-wrap:anywhere]', className)}>{parts}</div>;
}
