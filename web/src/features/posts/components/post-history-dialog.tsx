import { describeChanges, type PostVersion } from '@pipit/contract';
import { ImageOff } from 'lucide-react';
import { Modal } from '../../../components/modal.tsx';
import { PostText } from '../../../components/post-text.tsx';
import { ErrorState, Spinner } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { fullDate } from '../../../lib/format-time.ts';
import { usePostHistory } from '../../../state/posts.ts';

/**
 * Every version of a post, oldest first (GET /api/posts/:id/history): when it was written, what
 * changed from the one before ("Text changed", "Content warning added", "2 pictures added"), its
 * warning, text and pictures. A picture removed since shows its place and alt text: its file is gone.
 */
export function PostHistoryDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const history = usePostHistory(postId);
  return (
    <Modal title={t('Edit history')} onClose={onClose}>
      {history.isPending ? (
        <Spinner label={t('Loading the versions')} />
      ) : history.isError ? (
        <ErrorState message={t('Couldn’t load the versions of this post.')} onRetry={() => void history.refetch()} />
      ) : (
        <ol aria-label={t('Versions, oldest first')} className="-mx-4 flex flex-col">
          {history.data.items.map((version, index) => (
            <VersionItem key={version.createdAt} version={version} index={index} />
          ))}
        </ol>
      )}
    </Modal>
  );
}

function VersionItem({ version, index }: { version: PostVersion; index: number }) {
  const changes = version.changes ? describeChanges(version.changes) : [];
  return (
    <li className="border-b border-line px-4 py-3 last:border-b-0">
      <p className="flex flex-wrap items-baseline gap-x-2 text-[15px]">
        <span className="font-bold">{index === 0 ? t('Original') : t('Edit {index}', { index })}</span>
        <time dateTime={version.createdAt} className="text-muted">
          {fullDate(version.createdAt)}
        </time>
      </p>
      {changes.length > 0 && (
        <ul aria-label={t('What changed')} className="mt-1 flex flex-wrap gap-1.5">
          {changes.map((change) => (
            <li key={change} className="rounded-full bg-accent/10 px-2 py-0.5 text-[13px] font-bold text-accent">
              {change}
            </li>
          ))}
        </ul>
      )}
      {version.spoilerText && (
        <p className="mt-2 text-[15px] font-medium">
          <span className="text-muted">{t('Content warning:')} </span>
          {version.spoilerText}
        </p>
      )}
      {version.text && <PostText text={version.text} className="mt-1 text-[15px] leading-5" />}
      {version.media.length > 0 && (
        <ul aria-label={t('Pictures')} className="mt-2 grid grid-cols-4 gap-1.5">
          {version.media.map((m, i) => (
            <li key={m.id} className="aspect-square overflow-hidden rounded-lg border border-line bg-surface">
              {m.previewUrl ? (
                <img
                  src={m.previewUrl}
                  alt={m.alt || t('Picture {index}', { index: i + 1 })}
                  className="size-full object-cover"
                />
              ) : (
                <span
                  role="img"
                  aria-label={
                    m.alt
                      ? t('Picture {index}, removed since: {alt}', { index: i + 1, alt: m.alt })
                      : t('Picture {index}, removed since', { index: i + 1 })
                  }
                  title={m.alt || undefined}
                  className="grid size-full place-items-center p-1 text-center text-[12px] text-muted"
                >
                  <ImageOff aria-hidden="true" className="size-5" />
                  {t('Removed')}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {version.poll && (
        <ul
          aria-label={version.poll.multiple ? t('Poll, several choices') : t('Poll')}
          className="mt-2 flex flex-col gap-1.5"
        >
          {version.poll.options.map((option) => (
            <li key={option} className="rounded-md border border-line px-3 py-1.5 text-[15px] [overflow-wrap:anywhere]">
              {option}
            </li>
          ))}
        </ul>
      )}
      {version.sensitive && !version.spoilerText && version.media.length > 0 && (
        <p className="mt-1 text-[13px] text-muted">{t('Pictures marked sensitive')}</p>
      )}
    </li>
  );
}
