import type { Post } from '@pipit/contract';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useDeletePost } from '../api/delete-post.ts';

interface DeletePostButtonProps {
  post: Post;
  onDeleted?: () => void;
  className?: string;
}

/** The bin on one's own posts, behind a confirmation. */
export function DeletePostButton({ post, onDeleted, className }: DeletePostButtonProps) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeletePost(post);
  const busy = remove.isPending;

  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        notify(t('Your post was deleted'));
        onDeleted?.();
      },
      onError: () => notifyError(t('Could not delete the post. Try again.')),
    });

  return (
    <>
      <button
        type="button"
        aria-label={t('Delete')}
        onClick={() => setConfirming(true)}
        className={cn(
          '-my-2 -me-2 grid size-9 place-items-center rounded-full text-muted hover:bg-danger/10 hover:text-danger',
          className,
        )}
      >
        <Trash2 aria-hidden="true" className="size-[18px]" />
      </button>
      {confirming && (
        <ConfirmDialog
          title={t('Delete post?')}
          confirm={t('Delete')}
          variant="danger"
          busy={busy}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('This can’t be undone. The post will be removed from your profile and from the timelines.')}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
