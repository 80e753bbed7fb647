import type { Post } from '@pipit/contract';
import { lazy, Suspense, useState } from 'react';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { fullDate } from '../../../lib/format-time.ts';

const PostHistoryDialog = lazy(() =>
  import('./post-history-dialog.tsx').then((m) => ({ default: m.PostHistoryDialog })),
);

/** "Edited" next to a post's time when its author changed it: opens every version (PostHistoryDialog). */
export function EditedLink({ post, className }: { post: Pick<Post, 'id' | 'editedAt'>; className?: string }) {
  const [open, setOpen] = useState(false);
  if (!post.editedAt) return null;
  return (
    <>
      <button
        type="button"
        title={t('Edited {time}: see every version', { time: fullDate(post.editedAt) })}
        onClick={() => setOpen(true)}
        className={cn('shrink-0 text-muted underline-offset-2 hover:underline', className)}
      >
        {t('Edited')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <PostHistoryDialog postId={post.id} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
