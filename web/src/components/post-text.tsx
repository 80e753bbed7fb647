import { type TextToken, tokenize } from '@pipit/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../lib/cn.ts';
import { paths } from '../lib/paths.ts';

/**
 * URLs (http/https, trailing punctuation left out), #hashtags and @mentions: the contract's `tokenize`,
 * the rules the server stores hashtags, notifies mentions and picks a post's card link by.
 */
export type Token = TextToken;
export { tokenize };

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
  // dir="auto": a post reads in its own direction (a Hebrew post in an English page, and back).
  return (
    <div dir="auto" className={cn('whitespace-pre-wrap break-words [overflow-wrap:anywhere]', className)}>
      {parts}
    </div>
  );
}
