import { graphemeLength, LIMITS, type ScheduledPost } from '@pipit/contract';
import { CircleAlert, ImageIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState, ErrorState, Spinner } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { serverMessage } from '../../../i18n/server-messages.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import {
  fromLocalInput,
  localTimeZone,
  scheduleLabel,
  scheduleProblem,
  soonestSchedule,
  toLocalInput,
} from '../../../lib/schedule-time.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useScheduledPosts } from '../../../state/unsent.ts';
import { useCancelScheduledPost, useUpdateScheduledPost } from '../api/unsent.ts';

/** Edits a scheduled post's text and time in place; saving schedules it again (and clears a failure). */
function EditScheduled({ post, onDone }: { post: ScheduledPost; onDone: () => void }) {
  const update = useUpdateScheduledPost();
  const id = useId();
  const [text, setText] = useState(post.post.text);
  const past = new Date(post.scheduledAt).getTime() < Date.now() + 5 * 60_000;
  const [at, setAt] = useState(toLocalInput(past ? new Date(Date.now() + 3_600_000) : new Date(post.scheduledAt)));
  const when = fromLocalInput(at);
  const problem = when ? scheduleProblem(when) : t('Choose a day and time.');
  const over = graphemeLength(text.trim()) > LIMITS.postMax;
  const empty = text.trim() === '' && post.media.length === 0;
  return (
    <form
      className="mt-2 flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (problem || over || empty || !when) return;
        update.mutate(
          { id: post.id, body: { post: { ...post.post, text: text.trim() }, scheduledAt: when.toISOString() } },
          {
            onSuccess: (saved) => {
              notify(t('Scheduled for {time}', { time: scheduleLabel(saved.scheduledAt) }));
              onDone();
            },
            onError: (error) =>
              notifyError(error instanceof ApiRequestError ? error.message : t('Couldn’t save it. Try again.')),
          },
        );
      }}
    >
      <label htmlFor={`${id}-text`} className="sr-only">
        {t('Text')}
      </label>
      <textarea
        id={`${id}-text`}
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={3}
        className="w-full rounded-md border border-line-strong bg-transparent p-2 text-[15px] outline-none focus:border-accent"
      />
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-at`} className="text-[14px]">
          {t('Post on')}
        </label>
        <input
          id={`${id}-at`}
          type="datetime-local"
          value={at}
          min={toLocalInput(soonestSchedule())}
          onChange={(event) => setAt(event.target.value)}
          className="h-9 rounded-md border border-line-strong bg-transparent px-2 text-[14px] outline-none focus:border-accent"
        />
        <span className="text-[13px] text-muted">{localTimeZone()}</span>
      </div>
      {(problem || over) && (
        <p role="alert" className="text-[13px] text-danger">
          {over ? t('At most {postMax} characters.', { postMax: LIMITS.postMax }) : problem}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={update.isPending || !!problem || over || empty}>
          {t('Save')}
        </Button>
        <Button variant="secondary" size="sm" onClick={onDone} disabled={update.isPending}>
          {t('Cancel')}
        </Button>
      </div>
    </form>
  );
}

function ScheduledRow({ post }: { post: ScheduledPost }) {
  const cancel = useCancelScheduledPost();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const text = post.post.text.trim();
  return (
    <li className="border-b border-line px-4 py-3">
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-[13px] font-bold text-muted">
            <time dateTime={post.scheduledAt}>{scheduleLabel(post.scheduledAt)}</time>
          </p>
          {!editing && (
            <p className={text ? 'mt-0.5 line-clamp-3 break-words whitespace-pre-wrap' : 'mt-0.5 text-muted italic'}>
              {text || t('No text')}
            </p>
          )}
          {post.media.length > 0 && (
            <p className="mt-1 flex items-center gap-1 text-[13px] text-muted">
              <ImageIcon aria-hidden="true" className="size-4" />
              {t('{count, plural, one {# image} other {# images}}', { count: post.media.length })}
            </p>
          )}
          {post.failure && !editing && (
            <p role="status" className="mt-1 flex items-start gap-1 text-[14px] text-danger">
              <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>
                {t('Not posted: {reason} Edit it to schedule it again, or cancel it.', {
                  reason: serverMessage(post.failure.code, post.failure.message),
                })}
              </span>
            </p>
          )}
        </div>
        {!editing && (
          <div className="flex shrink-0 gap-2">
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
              {t('Edit')}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirming(true)}>
              {t('Cancel')}
            </Button>
          </div>
        )}
      </div>
      {editing && <EditScheduled post={post} onDone={() => setEditing(false)} />}
      {confirming && (
        <ConfirmDialog
          title={t('Cancel scheduled post?')}
          confirm={t('Cancel post')}
          variant="danger"
          busy={cancel.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            cancel.mutate(post.id, {
              onSuccess: () => {
                setConfirming(false);
                notify(t('Scheduled post cancelled'));
              },
              onError: () => notifyError(t('Couldn’t cancel it. Try again.')),
            })
          }
        >
          {t('It won’t be posted, and it can’t be brought back.')}
        </ConfirmDialog>
      )}
    </li>
  );
}

/** The member's scheduled posts, soonest first: time and text, Edit (text and time) and Cancel. */
export function ScheduledList() {
  const scheduled = useScheduledPosts();
  if (scheduled.isPending) return <Spinner label={t('Loading your scheduled posts')} />;
  if (scheduled.isError) {
    return <ErrorState message={t('Couldn’t load your scheduled posts.')} onRetry={() => scheduled.refetch()} />;
  }
  if (scheduled.data.length === 0) {
    return (
      <EmptyState title={t('Nothing scheduled')}>
        {t('Choose Schedule in the composer to post at a time of your choosing. Scheduled posts wait here until then.')}
      </EmptyState>
    );
  }
  return (
    <ul aria-label={t('Your scheduled posts')}>
      {scheduled.data.map((post) => (
        <ScheduledRow key={post.id} post={post} />
      ))}
    </ul>
  );
}
