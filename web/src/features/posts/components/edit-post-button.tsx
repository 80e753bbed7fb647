import type { Post } from '@pipit/contract';
import { Pencil } from 'lucide-react';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { openModal } from '../../../lib/modals.ts';

/** The pencil beside the bin on one's own posts: opens the composer with the post in it ("Edit post", "Save"). */
export function EditPostButton({ post, className }: { post: Post; className?: string }) {
  return (
    <button
      type="button"
      aria-label={t('Edit')}
      title={t('Edit')}
      onClick={() => openModal('compose', { edit: post })}
      className={cn(
        '-my-2 grid size-9 place-items-center rounded-full text-muted hover:bg-accent/10 hover:text-accent',
        className,
      )}
    >
      <Pencil aria-hidden="true" className="size-[17px]" />
    </button>
  );
}
