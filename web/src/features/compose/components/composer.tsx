import {
  type Draft,
  type DraftPostBody,
  graphemeLength,
  hasVisibleContent,
  LIMITS,
  type Post,
  type QuotePolicy,
  type Visibility,
} from '@pipit/contract';
import { CalendarClock } from 'lucide-react';
import { type KeyboardEvent, type RefObject, useId, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { QuoteEmbed } from '../../../components/quote-embed.tsx';
import { t } from '../../../i18n/i18n.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { fieldErrorsOf } from '../../../lib/field-errors.ts';
import { paths } from '../../../lib/paths.ts';
import {
  fromLocalInput,
  localTimeZone,
  scheduleLabel,
  scheduleProblem,
  soonestSchedule,
  toLocalInput,
} from '../../../lib/schedule-time.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { allowedQuotePolicy, initialVisibility } from '../../../lib/visibility.ts';
import { useViewer } from '../../../state/viewer.tsx';
import { useCreatePost } from '../api/create-post.ts';
import { useEditPost } from '../api/edit-post.ts';
import { useDeleteDraft, useSaveDraft, useSchedulePost } from '../api/unsent.ts';
import { CharacterCounter } from './character-counter.tsx';
import { AddImagesButton, ComposerImageList, useComposerImages } from './composer-images.tsx';
import { AddPollButton, ComposerPollEditor, useComposerPoll } from './composer-poll.tsx';
import { useSuggestions } from './suggestions.tsx';
import { VisibilityMenu } from './visibility-menu.tsx';

interface ComposerProps {
  /** Set for a reply composer. */
  parentId?: string;
  /** A reply's parent's visibility: the reply starts there when narrower than the default, and never goes wider. */
  parentVisibility?: Visibility;
  /** The post this one quotes, shown under the text box. */
  quote?: Post;
  /** One's own post to edit: the composer starts with its text, warning, pictures and poll, and saves it. */
  editing?: Post;
  /** The text box's label and placeholder. */
  label?: string;
  submitLabel?: string;
  autoFocus?: boolean;
  onPosted?: (post: Post) => void;
  className?: string;
  /**
   * Drafts and scheduling: "Save draft", the Schedule control, and links to Drafts and Scheduled
   * (the compose modal and Home's composer; not replies).
   */
  unsent?: boolean;
  /** A draft to resume: the composer opens filled with it; sending or saving it again replaces it. */
  draft?: Draft;
  /** After a draft is saved or a post scheduled (the modal closes). */
  onSettled?: () => void;
  /** A link to Drafts or Scheduled was followed: the owner decides how to leave (the modal asks to save first). */
  onLeave?: (to: string) => void;
  /** What the owner may ask of the composer (the modal, when closed with unsent text). */
  controls?: RefObject<ComposerControls | null>;
}

/** What a composer's owner may ask of it. */
export interface ComposerControls {
  /** Something is written or attached that was not sent or saved. */
  hasUnsent: () => boolean;
  /** Saves it as a draft; resolves once saved (rejects when the server refused). */
  saveDraft: () => Promise<void>;
}

/**
 * Writes a post: grows with its text, counts user-perceived characters against the limit, suggests
 * people after `@` and hashtags after `#` (suggestions.tsx), Ctrl/Cmd+Enter posts. The button stays disabled while the text is empty or too long.
 */
export function Composer({
  parentId,
  parentVisibility,
  quote,
  editing,
  label = t("What's happening?"),
  submitLabel = t('Tweet'),
  autoFocus,
  onPosted,
  className,
  unsent = false,
  draft,
  onSettled,
  onLeave,
  controls,
}: ComposerProps) {
  const { user } = useViewer();
  const [text, setText] = useState(editing?.text ?? draft?.post.text ?? '');
  const startWarning = editing?.spoilerText ?? draft?.post.spoilerText ?? '';
  // The content warning ("CW"): a field above the text while on; sent only while on.
  const [warning, setWarning] = useState({ on: startWarning !== '', text: startWarning });
  // Its own mark: one that came with a warning is the warning's (it goes when the warning does).
  const [markSensitive, setMarkSensitive] = useState(
    Boolean(editing ? editing.sensitive && !editing.spoilerText : draft?.post.sensitive && !draft.post.spoilerText),
  );
  const create = useCreatePost();
  const saveEdit = useEditPost(editing?.id ?? '');
  const warningId = useId();
  const saveDraft = useSaveDraft();
  const deleteDraft = useDeleteDraft();
  const schedule = useSchedulePost();
  // The draft this composer writes to (saving again replaces it; sending deletes it).
  const [draftId, setDraftId] = useState<string | null>(draft?.id ?? null);
  // What was last saved (or opened) as a draft: anything else written is unsent.
  const [savedAs, setSavedAs] = useState(() =>
    signatureOf(
      draft?.post.text ?? '',
      (draft?.media ?? []).map((m) => m.id),
    ),
  );
  // The Schedule control: open or not, and the chosen local time (a datetime-local value).
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const [scheduleAt, setScheduleAt] = useState('');
  const scheduleId = useId();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const counterId = useId();
  const [caret, setCaret] = useState(0);
  const images = useComposerImages(editing?.media ?? draft?.media);
  const poll = useComposerPoll(editing?.poll);
  // Null until chosen: the member's default (known once their profile is) or the parent's.
  const [chosenVisibility, setVisibility] = useState<Visibility | null>(draft?.post.visibility ?? null);
  const [chosenQuotePolicy, setQuotePolicy] = useState<QuotePolicy>(draft?.post.quotePolicy ?? 'anyone');
  // A resumed draft's quote is sent as it was saved.
  const quoteOfId = quote?.id ?? draft?.post.quoteOfId;
  const visibility = chosenVisibility ?? initialVisibility(user?.defaultVisibility ?? 'public', parentVisibility);
  const quotePolicy = allowedQuotePolicy(chosenQuotePolicy, visibility);
  // Posted before the member's profile (their default) has arrived and with nothing chosen: the
  // server applies the default, rather than the 'Public' shown meanwhile.
  const sendsAudience = chosenVisibility !== null || user !== null;
  const suggestions = useSuggestions(text, caret, (next, at) => {
    setText(next);
    setCaret(at);
    requestAnimationFrame(() => textareaRef.current?.setSelectionRange(at, at));
  });

  const trimmed = text.trim();
  const remaining = LIMITS.postMax - graphemeLength(trimmed);
  const spoilerText = warning.on ? warning.text.trim() : '';
  const warningTooLong = graphemeLength(spoilerText) > LIMITS.spoilerTextMax;
  // A warning covers the pictures too (the server marks the post sensitive with it).
  const sensitive = spoilerText !== '' || (markSensitive && images.images.length > 0);
  const busy = create.isPending || schedule.isPending || saveDraft.isPending || saveEdit.isPending;
  const scheduledFor = scheduleOpen ? fromLocalInput(scheduleAt) : null;
  const scheduleError = scheduledFor ? scheduleProblem(scheduledFor) : null;
  // As the contract: something a reader can see (not only spaces or zero-width characters) or an
  // image, within the limits, every image uploaded; a poll needs its text and every choice filled in;
  // a chosen time far enough ahead.
  const canPost =
    (hasVisibleContent(trimmed) || (images.images.length > 0 && !poll.open)) &&
    remaining >= 0 &&
    !warningTooLong &&
    !images.uploading &&
    poll.problem === null &&
    !busy &&
    (!scheduleOpen || (scheduledFor !== null && scheduleError === null));
  const signature = signatureOf(
    trimmed,
    images.images.map((image) => image.uploaded?.id ?? image.key),
  );
  const hasUnsent = () => (trimmed.length > 0 || images.images.length > 0 || poll.open) && signature !== savedAs;

  /** The post as the contract takes it (a draft takes the same fields). */
  const postBody = () => ({
    text: trimmed,
    parentId: parentId ?? null,
    ...(images.media.length > 0 ? { media: images.media } : {}),
    ...(quoteOfId ? { quoteOfId } : {}),
    ...(sendsAudience ? { visibility, quotePolicy } : {}),
    ...(spoilerText ? { spoilerText } : {}),
    ...(sensitive ? { sensitive } : {}),
    ...(poll.input ? { poll: poll.input } : {}),
  });

  const reset = () => {
    setText('');
    images.clear();
    poll.clear();
    setVisibility(null);
    setQuotePolicy('anyone');
    setWarning({ on: false, text: '' });
    setMarkSensitive(false);
    setScheduleOpen(false);
    setScheduleAt('');
    setSavedAs(signatureOf('', []));
  };

  /** Sent or scheduled: the draft it came from is done with. */
  const dropDraft = () => {
    if (draftId) deleteDraft.mutate(draftId);
    setDraftId(null);
  };

  const save = () =>
    new Promise<void>((resolve, reject) => {
      const body: DraftPostBody = postBody();
      saveDraft.mutate(
        { id: draftId, post: body },
        {
          onSuccess: (saved) => {
            setDraftId(saved.id);
            setSavedAs(signature);
            notify(t('Saved to Drafts'));
            resolve();
          },
          onError: (error) => {
            notifyError(error instanceof ApiRequestError ? error.message : t('Couldn’t save your draft. Try again.'));
            reject(error);
          },
        },
      );
    });
  if (controls) controls.current = { hasUnsent, saveDraft: save };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the text is what changes the height
  useLayoutEffect(() => {
    const textarea = textareaRef.current;
    if (!textarea) return;
    textarea.style.height = 'auto';
    textarea.style.height = `${textarea.scrollHeight}px`;
  }, [text]);

  const onFailure = (error: unknown, fallback: string) => {
    // The server's word when it is about the text or says when to try again; else a plain retry.
    // A quote its author does not allow (403) says so too.
    const fields = fieldErrorsOf(error, ['text', 'media', 'visibility', 'quotePolicy', 'spoilerText', 'poll'] as const);
    const said =
      fields.text ??
      fields.spoilerText ??
      fields.poll ??
      fields.media ??
      fields.visibility ??
      fields.quotePolicy ??
      (error instanceof ApiRequestError && (error.code === 'RATE_LIMITED' || error.status === 403)
        ? error.message
        : null);
    notifyError(said ?? fallback);
  };

  const submit = () => {
    if (!canPost) return;
    if (editing) {
      saveEdit.mutate(
        // The poll only when it changed (sent, its end moves to its length from now), or went (null).
        {
          text: trimmed,
          spoilerText,
          sensitive,
          media: images.media,
          ...(poll.changed ? { poll: poll.input ?? null } : {}),
        },
        {
          onSuccess: (post) => {
            notify(t('Your post was saved'));
            onPosted?.(post);
          },
          onError: (error) => onFailure(error, t('Couldn’t save your post. Try again.')),
        },
      );
      return;
    }
    if (scheduledFor) {
      schedule.mutate(
        { post: postBody(), scheduledAt: scheduledFor.toISOString() },
        {
          onSuccess: (scheduled) => {
            reset();
            dropDraft();
            notify(t('Scheduled for {time}', { time: scheduleLabel(scheduled.scheduledAt) }));
            onSettled?.();
          },
          onError: (error) => {
            const fields = fieldErrorsOf(error, ['scheduledAt', 'post'] as const);
            notifyError(
              fields.scheduledAt ??
                fields.post ??
                (error instanceof ApiRequestError && error.status < 500
                  ? error.message
                  : t('Couldn’t schedule your post. Try again.')),
            );
          },
        },
      );
      return;
    }
    create.mutate(postBody(), {
      onSuccess: (post) => {
        reset();
        dropDraft();
        notify(parentId ? t('Your reply was sent') : t('Your post was sent'));
        onPosted?.(post);
        // The box was disabled while sending; give it back for the next post.
        requestAnimationFrame(() => textareaRef.current?.focus());
      },
      onError: (error) =>
        onFailure(
          error,
          parentId ? t('Couldn’t send your reply. Try again.') : t('Couldn’t send your post. Try again.'),
        ),
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.onKeyDown(event)) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className={cn('flex gap-3 px-4 pt-1', className)}
    >
      {user && <Avatar user={user} className="mt-3" />}
      <div className="min-w-0 flex-1">
        {warning.on && (
          <div className="mt-2">
            <input
              id={warningId}
              type="text"
              aria-label={t('Content warning')}
              placeholder={t('Content warning: what the post is about')}
              value={warning.text}
              disabled={busy}
              aria-invalid={warningTooLong || undefined}
              onChange={(event) => setWarning({ on: true, text: event.target.value })}
              className="h-10 w-full rounded-md border border-line-strong bg-transparent px-3 text-[15px] text-fg outline-none placeholder:text-muted focus:border-accent aria-invalid:border-danger"
            />
            {warningTooLong && (
              <p className="mt-1 text-[13px] text-danger">
                {t('A content warning can be at most {max} characters.', { max: LIMITS.spoilerTextMax })}
              </p>
            )}
          </div>
        )}
        <div className="relative">
          <textarea
            ref={textareaRef}
            {...suggestions.inputProps}
            aria-label={label}
            aria-describedby={counterId}
            placeholder={label}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setCaret(event.target.selectionStart);
            }}
            onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
            onKeyDown={onKeyDown}
            disabled={busy}
            rows={2}
            data-autofocus={autoFocus ? true : undefined}
            // biome-ignore lint/a11y/noAutofocus: focus goes to the composer only when asked (reply, compose modal)
            autoFocus={autoFocus}
            className="block max-h-[60vh] min-h-[3.5rem] w-full resize-none bg-transparent py-3 text-xl leading-7 text-fg outline-none placeholder:text-muted disabled:opacity-60"
          />
          {suggestions.list}
        </div>
        <span id={counterId} className="sr-only">
          {remaining >= 0
            ? t('{count, plural, one {# character left} other {# characters left}}', { count: remaining })
            : t('{count, plural, one {# character over the limit} other {# characters over the limit}}', {
                count: -remaining,
              })}
        </span>
        <ComposerImageList images={images} disabled={busy} />
        {images.images.length > 0 && (
          <label className="mb-3 flex items-center gap-2 text-[15px] has-disabled:opacity-60">
            <input
              type="checkbox"
              checked={sensitive}
              disabled={busy || spoilerText !== ''}
              onChange={(event) => setMarkSensitive(event.target.checked)}
              className="size-4 accent-[var(--color-accent)]"
            />
            {spoilerText !== '' ? t('Pictures covered by the content warning') : t('Mark pictures sensitive')}
          </label>
        )}
        <ComposerPollEditor poll={poll} disabled={busy} />
        {quote && <QuoteEmbed quote={{ state: 'shown', post: quote }} className="mb-3" />}
        {scheduleOpen && (
          <fieldset className="mb-3 rounded-xl border border-line px-3 py-2">
            <legend className="px-1 text-[13px] font-bold text-muted">{t('Schedule')}</legend>
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor={scheduleId} className="text-[15px]">
                {t('Post on')}
              </label>
              <input
                id={scheduleId}
                type="datetime-local"
                value={scheduleAt}
                min={toLocalInput(soonestSchedule())}
                onChange={(event) => setScheduleAt(event.target.value)}
                disabled={busy}
                aria-describedby={`${scheduleId}-when`}
                className="h-9 rounded-md border border-line-strong bg-transparent px-2 text-[15px] text-fg outline-none focus:border-accent"
              />
              <button
                type="button"
                onClick={() => {
                  setScheduleOpen(false);
                  setScheduleAt('');
                }}
                className="rounded-full px-3 py-1 text-[14px] font-bold text-accent hover:bg-accent/10"
              >
                {t('Don’t schedule')}
              </button>
            </div>
            <p
              id={`${scheduleId}-when`}
              role={scheduleError ? 'alert' : undefined}
              className={cn('mt-1 text-[13px]', scheduleError ? 'text-danger' : 'text-muted')}
            >
              {scheduledFor
                ? (scheduleError ??
                  t('Will be posted {time} ({zone})', { time: scheduleLabel(scheduledFor), zone: localTimeZone() }))
                : t('Choose a day and time ({zone}), at least 5 minutes from now.', { zone: localTimeZone() })}
            </p>
          </fieldset>
        )}
        {/* Wraps on a phone when the controls outgrow one line: the send button then goes below, on the right. */}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 border-t border-line py-2">
          <AddImagesButton images={images} disabled={busy || poll.open} />
          <AddPollButton poll={poll} disabled={busy || images.images.length > 0} />
          <button
            type="button"
            aria-pressed={warning.on}
            // Its visible text first (label in name): "CW" said in full.
            aria-label={t('CW (content warning)')}
            title={warning.on ? t('Remove the content warning') : t('Add a content warning')}
            disabled={busy}
            onClick={() => {
              setWarning((w) => ({ ...w, on: !w.on }));
              if (!warning.on) requestAnimationFrame(() => document.getElementById(warningId)?.focus());
            }}
            className={cn(
              'grid h-9 min-w-9 place-items-center rounded-full px-1.5 text-[13px] font-extrabold text-accent hover:bg-accent/10 disabled:opacity-50',
              warning.on && 'bg-accent/15',
            )}
          >
            {t('CW')}
          </button>
          {unsent && (
            <button
              type="button"
              aria-label={t('Schedule for later')}
              aria-expanded={scheduleOpen}
              title={t('Schedule for later')}
              disabled={busy}
              onClick={() => {
                if (!scheduleOpen && !scheduleAt) setScheduleAt(toLocalInput(new Date(Date.now() + 3_600_000)));
                setScheduleOpen(!scheduleOpen);
              }}
              className={cn(
                'grid size-9 place-items-center rounded-full text-accent hover:bg-accent/10 disabled:cursor-not-allowed disabled:opacity-50',
                scheduleOpen && 'bg-accent/10',
              )}
            >
              <CalendarClock aria-hidden="true" className="size-5" />
            </button>
          )}
          {/* An edit keeps the post's audience: who may see or quote it does not change. */}
          {!editing && (
            <VisibilityMenu
              visibility={visibility}
              quotePolicy={quotePolicy}
              parent={parentVisibility}
              onVisibility={setVisibility}
              onQuotePolicy={setQuotePolicy}
              disabled={busy}
            />
          )}
          <div className="flex-1" />
          <CharacterCounter remaining={remaining} />
          <Button type="submit" disabled={!canPost} className="ms-auto">
            {scheduleOpen ? t('Schedule') : submitLabel}
          </Button>
        </div>
        {unsent && (
          <div className="flex flex-wrap items-center gap-1 pb-2 text-[14px]">
            {(['drafts', 'scheduled'] as const).map((page) => (
              <Link
                key={page}
                to={paths[page]}
                onClick={(event) => {
                  if (!onLeave) return;
                  event.preventDefault();
                  onLeave(paths[page]);
                }}
                className="whitespace-nowrap rounded-full px-2 py-1 font-bold text-accent hover:bg-accent/10"
              >
                {page === 'drafts' ? t('Drafts') : t('Scheduled')}
              </Link>
            ))}
            <div className="flex-1" />
            <button
              type="button"
              onClick={() =>
                void save().then(
                  () => onSettled?.(),
                  () => {},
                )
              }
              disabled={busy || images.uploading || !(trimmed.length > 0 || images.images.length > 0)}
              className="whitespace-nowrap rounded-full px-3 py-1 font-bold text-accent hover:bg-accent/10 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {t('Save draft')}
            </button>
          </div>
        )}
      </div>
    </form>
  );
}

/** What a composer holds, to tell whether it changed since it was saved. */
const signatureOf = (text: string, images: readonly string[]) => JSON.stringify([text.trim(), images]);
