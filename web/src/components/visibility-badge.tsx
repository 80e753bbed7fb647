import type { Visibility } from '@pipit/contract';
import { AtSign, Globe, Lock, Moon } from 'lucide-react';
import { cn } from '../lib/cn.ts';
import { VISIBILITY_WORDS } from '../lib/visibility.ts';

// Unlisted is Mastodon's "quiet public" moon: an open lock next to followers-only's lock is hard to tell apart at 15 px.
const ICONS = { public: Globe, unlisted: Moon, followers: Lock, direct: AtSign } as const;

/** The icon of a visibility, decorative (its words go beside it or in a label). */
export function VisibilityIcon({ visibility, className }: { visibility: Visibility; className?: string }) {
  const Icon = ICONS[visibility];
  return <Icon aria-hidden="true" className={cn('size-4 shrink-0', className)} />;
}

/**
 * Who sees a post, shown when that is not everyone: an icon with its name for screen readers and its
 * meaning on hover (a public post shows nothing). `withLabel` writes the name beside it too.
 */
export function VisibilityBadge({
  visibility,
  withLabel,
  className,
}: {
  visibility: Visibility;
  withLabel?: boolean;
  className?: string;
}) {
  if (visibility === 'public') return null;
  const words = VISIBILITY_WORDS[visibility];
  return (
    <span
      role="img"
      aria-label={words.label}
      title={`${words.label}: ${words.theirs}`}
      className={cn('inline-flex shrink-0 items-center gap-1 text-muted', className)}
    >
      <VisibilityIcon visibility={visibility} className="size-[15px]" />
      {withLabel && <span aria-hidden="true">{words.label}</span>}
    </span>
  );
}
