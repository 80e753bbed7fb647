import type { Post } from '@pipit/contract';
import { Flag } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { t } from '../i18n/i18n.ts';
import { cn } from '../lib/cn.ts';

const ReportDialog = lazy(() => import('./report-dialog.tsx').then((m) => ({ default: m.ReportDialog })));

/** The flag on other people's posts (where one's own have the bin): opens "Report @x’s post". */
export function ReportPostButton({ post, className }: { post: Post; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-label={t('Report post')}
        onClick={() => setOpen(true)}
        className={cn(
          '-my-2 -me-2 grid size-9 place-items-center rounded-full text-muted hover:bg-danger/10 hover:text-danger',
          className,
        )}
      >
        <Flag aria-hidden="true" className="size-[16px]" />
      </button>
      {open && (
        <Suspense fallback={null}>
          <ReportDialog
            kind="post"
            id={post.id}
            username={post.author.username}
            domain={post.author.domain}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
