import type { Draft } from '@pipit/contract';
import { ImageIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState, ErrorState, Spinner } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { relativeTime } from '../../../lib/format-time.ts';
import { openModal } from '../../../lib/modals.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useDrafts } from '../../../state/unsent.ts';
import { useDeleteDraft } from '../api/unsent.ts';

/** One draft: its text (or that it has none), its images, when it was saved; Edit resumes it in the composer. */
function DraftRow({ draft }: { draft: Draft }) {
  const remove = useDeleteDraft();
  const [confirming, setConfirming] = useState(false);
  const text = draft.post.text?.trim() ?? '';
  return (
    <li className="flex items-start gap-3 border-b border-line px-4 py-3">
      <div className="min-w-0 flex-1">
        <p className={text ? 'line-clamp-3 break-words whitespace-pre-wrap' : 'text-muted italic'}>
          {text || t('No text')}
        </p>
        <p className="mt-1 flex items-center gap-2 text-[13px] text-muted">
          {draft.media.length > 0 && (
            <span className="flex items-center gap-1">
              <ImageIcon aria-hidden="true" className="size-4" />
              {t('{count, plural, one {# image} other {# images}}', { count: draft.media.length })}
            </span>
          )}
          <span>{t('Saved {time}', { time: relativeTime(draft.updatedAt) })}</span>
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="secondary" size="sm" onClick={() => openModal('compose', { draft })}>
          {t('Edit')}
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => setConfirming(true)}
          aria-label={t('Delete draft: {text}', { text: text || t('No text') })}
        >
          {t('Delete')}
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={t('Delete draft?')}
          confirm={t('Delete')}
          variant="danger"
          busy={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(draft.id, {
              onSuccess: () => {
                setConfirming(false);
                notify(t('Draft deleted'));
              },
              onError: () => notifyError(t('Couldn’t delete the draft. Try again.')),
            })
          }
        >
          {t('It can’t be brought back.')}
        </ConfirmDialog>
      )}
    </li>
  );
}

/** The member's drafts, the latest saved first; Edit opens the composer filled, sending deletes the draft. */
export function DraftsList() {
  const drafts = useDrafts();
  if (drafts.isPending) return <Spinner label={t('Loading your drafts')} />;
  if (drafts.isError) return <ErrorState message={t('Couldn’t load your drafts.')} onRetry={() => drafts.refetch()} />;
  if (drafts.data.length === 0) {
    return (
      <EmptyState title={t('No drafts')}>
        {t(
          'Posts you save with “Save draft” wait here, on every device you sign in on, until you send or delete them.',
        )}
      </EmptyState>
    );
  }
  return (
    <ul aria-label={t('Your drafts')}>
      {drafts.data.map((draft) => (
        <DraftRow key={draft.id} draft={draft} />
      ))}
    </ul>
  );
}
