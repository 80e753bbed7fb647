import type { Post, QuotedPost } from '@pipit/contract';
import { t } from '../i18n/i18n.ts';
import { cn } from '../lib/cn.ts';
import { paths } from '../lib/paths.ts';
import { Avatar } from './avatar.tsx';
import { Byline } from './byline.tsx';
import { PostContent } from './post-content.tsx';
import { useRowLink } from './use-row-link.ts';

type Quote = NonNullable<Post['quote']>;

/**
 * The post a quote quotes, in a bordered box that opens it (its time is the keyboard's link), one
 * level deep; "This post is unavailable" when it was deleted or is hidden from the viewer (the server
 * then sends nothing of it, and does not say which).
 */
export function QuoteEmbed({ quote, className }: { quote: Quote; className?: string }) {
  if (quote.state === 'unavailable') {
    return (
      <p className={cn('rounded-2xl border border-line bg-surface px-3 py-3 text-[15px] text-muted', className)}>
        {t('This post is unavailable')}
      </p>
    );
  }
  return <QuotedBox quoted={quote.post} className={className} />;
}

function QuotedBox({ quoted, className }: { quoted: QuotedPost; className?: string }) {
  const href = paths.post(quoted.id);
  const onClick = useRowLink(href);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the time link is the keyboard path to the quoted post
    <blockquote
      onClick={(event) => {
        onClick(event);
        // Not also the quoting post's row.
        event.stopPropagation();
      }}
      className={cn('cursor-pointer rounded-2xl border border-line px-3 py-2.5 hover:bg-fg/[0.03]', className)}
    >
      <div className="flex items-center gap-1 text-[15px] leading-5">
        <Avatar user={quoted.author} size="small" link={false} />
        <Byline author={quoted.author} href={href} createdAt={quoted.createdAt} linkName={false} className="ms-1" />
      </div>
      <PostContent post={quoted} textClassName="mt-1 text-[15px] leading-5" mediaClassName="mt-2" />
    </blockquote>
  );
}
