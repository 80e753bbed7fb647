import type { MediaAttachment } from '@pipit/contract';
import type { ReactNode } from 'react';
import { t } from '../i18n/i18n.ts';
import { cn } from '../lib/cn.ts';
import { setRevealed, useRevealed } from '../lib/spoilers.ts';
import { useViewer } from '../state/viewer.tsx';
import { PostMedia } from './post-media.tsx';
import { PostText } from './post-text.tsx';

interface PostContentProps {
  post: { id: string; text: string; spoilerText: string; sensitive: boolean; media: readonly MediaAttachment[] };
  /** The text's size. */
  textClassName?: string;
  mediaClassName?: string;
  /** What else the post shows under its pictures (its poll, its link card): behind the warning too, as on Mastodon. */
  children?: ReactNode;
}

/**
 * What a post says: its text and pictures, or, behind a content warning, the warning and "Show more"
 * (then "Show less"), opened per post while the page lives (lib/spoilers.ts) or always, with the
 * member's "Always expand posts with content warnings" (its poll and link card, `children`, with them).
 * Sensitive pictures without a warning are
 * covered until shown (PostMedia).
 */
export function PostContent({ post, textClassName, mediaClassName, children }: PostContentProps) {
  const { user } = useViewer();
  const warned = post.spoilerText !== '';
  const open = useRevealed('text', post.id, user?.expandSpoilers ?? false);
  const body = (
    <>
      <PostText text={post.text} className={textClassName} />
      {/* Opened past its warning, the pictures show too: one choice, as the reader made it. */}
      <PostMedia media={post.media} sensitive={post.sensitive && !warned} postId={post.id} className={mediaClassName} />
      {children}
    </>
  );
  if (!warned) return body;
  return (
    <>
      <div className={cn('flex flex-wrap items-center gap-x-3 gap-y-1', textClassName)}>
        <p className="min-w-0 font-medium [overflow-wrap:anywhere]">
          <span className="sr-only">{t('Content warning:')} </span>
          {post.spoilerText}
        </p>
        <button
          type="button"
          aria-expanded={open}
          onClick={(event) => {
            // Not the row's own click (which opens the post).
            event.stopPropagation();
            setRevealed('text', post.id, !open);
          }}
          className="rounded-full border border-line-strong px-3 py-0.5 text-[13px] font-bold text-fg hover:bg-fg/[0.06]"
        >
          {open ? t('Show less') : t('Show more')}
        </button>
      </div>
      {open && body}
    </>
  );
}
