import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../lib/cn.ts';

export type Token =
  | { type: 'text'; value: string }
  | { type: 'url'; value: string }
  | { type: 'hashtag'; value: string; tag: string }
  | { type: 'mention'; value: string; username: string };

/**
 * URLs (http/https, trailing punctuation left out), #hashtags (at least one letter) and
 * @mentions (the username rule: letters, digits, _), not inside words or e-mail addresses.
 */
const TOKENS =
  /(https?:\/\/[^\s<>"]*[^\s<>".,:;!?'")\]])|(?<![\p{L}\p{N}_&#/])#([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)|(?<![\p{L}\p{N}_@./])@([A-Za-z0-9_]{1,30})(?![A-Za-z0-9_@])/gu;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKENS)) {
    const index = match.index ?? 0;
    if (index > last) tokens.push({ type: 'text', value: text.slice(last, index) });
    const [value, url, tag, username] = match;
    if (url) tokens.push({ type: 'url', value: url });
    else if (tag) tokens.push({ type: 'hashtag', value, tag });
    else if (username) tokens.push({ type: 'mention', value, username });
    last = index + value.length;
  }
  if (last < text.length) tokens.push({ type: 'text', value: text.slice(last) });
  return tokens;
}

/** "https://example.com/a/very/long/path" → "example.com/a/very/long…" */
function displayUrl(url: string) {
  const bare = url.replace(/^https?:\/\/(www\.)?/, '');
  return bare.length > 32 ? `${bare.slice(0, 31)}…` : bare;
}

const linkClass = 'text-accent hover:underline';

/**
 * A post's text as text: links for URLs, hashtags and mentions, everything else is rendered by
 * React as plain text (never as HTML).
 */
export function PostText({ text, className }: { text: string; className?: string }) {
  const parts: ReactNode[] = tokenize(text).map((token, i) => {
    const key = `${i}-${token.type}`;
    switch (token.type) {
      case 'url':
        return (
          <a key={key} href={token.value} target="_blank" rel="noopener noreferrer nofollow ugc" className={linkClass}>
            {displayUrl(token.value)}
          </a>
        );
      case 'hashtag':
        return (
          <Link key={key} to={`/hashtag/${encodeURIComponent(token.tag)}`} className={linkClass}>
            {token.value}
          </Link>
        );
      case 'mention':
        return (
          <Link key={key} to={`/users/@${token.username}`} className={linkClass}>
            {token.value}
          </Link>
        );
      default:
        return token.value;
    }
  });
  return <div className={cn('whitespace-pre-wrap break-words [overflow-wrap:anywhere]', className)}>{parts}</div>;
}
