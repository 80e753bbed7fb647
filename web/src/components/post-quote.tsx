import type { Post } from '@pipit/contract';
import { lazy, Suspense } from 'react';
import { cn } from '../lib/cn.ts';

// On demand, as the image grid: most posts quote nothing, and a first visit should not pay for it.
const QuoteEmbed = lazy(() => import('./quote-embed.tsx').then((m) => ({ default: m.QuoteEmbed })));

/** A quote's embedded post (quote-embed.tsx), with a box of its usual height while it loads. */
export function PostQuote({ quote, className }: { quote: NonNullable<Post['quote']>; className?: string }) {
  return (
    <Suspense fallback={<div aria-hidden="true" className={cn('h-20 rounded-2xl border border-line', className)} />}>
      <QuoteEmbed quote={quote} className={className} />
    </Suspense>
  );
}
