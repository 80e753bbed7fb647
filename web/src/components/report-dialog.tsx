import { REPORT_CATEGORIES, REPORT_COMMENT_MAX, type ReportCategory } from '@pipit/contract';
import { type FormEvent, useId, useState } from 'react';
import { t } from '../i18n/i18n.ts';
import { fieldErrorsOf, formProblem } from '../lib/field-errors.ts';
import { reportCategoryLabel } from '../lib/report-categories.ts';
import { notify, notifyError } from '../lib/toast.tsx';
import { useReport } from '../state/moderation.ts';
import { Button } from './button.tsx';
import { Modal } from './modal.tsx';
import { TextAreaField } from './text-field.tsx';

interface ReportDialogProps {
  /** A post (by its id) or a person. */
  kind: 'post' | 'user';
  id: string;
  /** Whose post or who: "@bob". */
  username: string;
  /** Their server when they are elsewhere in the fediverse: the report may be forwarded there too. */
  domain?: string | null;
  onClose: () => void;
}

/**
 * "Report post" / "Report @bob": why (one category, required), and what moderators should know
 * (optional). Sent, it says a moderator will look at it and where the outcome will show.
 */
export function ReportDialog({ kind, id, username, domain = null, onClose }: ReportDialogProps) {
  const [category, setCategory] = useState<ReportCategory | null>(null);
  const [comment, setComment] = useState('');
  const [forward, setForward] = useState(false);
  const [missing, setMissing] = useState(false);
  const report = useReport();
  const name = useId();
  const legendId = useId();
  const errors = fieldErrorsOf(report.error, ['category', 'comment'] as const);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (report.isPending) return;
    if (!category) {
      setMissing(true);
      return;
    }
    report.mutate(
      { kind, id, body: { category, comment, ...(domain ? { forward } : {}) } },
      {
        onSuccess: () => {
          notify(t('Thanks. A moderator will look at it; Settings shows what came of it.'));
          onClose();
        },
        onError: (error) => {
          const problem = formProblem(error, t('Could not send the report. Try again.'));
          if (problem) notifyError(problem);
        },
      },
    );
  };

  return (
    <Modal
      title={kind === 'post' ? t('Report @{username}’s post', { username }) : t('Report @{username}', { username })}
      onClose={() => !report.isPending && onClose()}
      className="sm:max-w-[440px]"
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <fieldset aria-labelledby={legendId} aria-describedby={missing ? `${legendId}-error` : undefined}>
          <legend id={legendId} className="mb-2 font-bold">
            {t('What is wrong with it?')}
          </legend>
          {REPORT_CATEGORIES.map((option) => (
            <label key={option.value} className="flex items-center gap-3 py-1.5 text-[15px]">
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={category === option.value}
                onChange={() => {
                  setCategory(option.value);
                  setMissing(false);
                }}
                className="size-4 accent-[var(--color-accent)]"
              />
              {reportCategoryLabel(option.value)}
            </label>
          ))}
          <p id={`${legendId}-error`} aria-live="polite" className="mt-1 min-h-5 text-sm text-danger">
            {missing ? t('Choose what is wrong.') : (errors.category ?? null)}
          </p>
        </fieldset>
        <TextAreaField
          label={t('Anything moderators should know (optional)')}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          maxLength={REPORT_COMMENT_MAX}
          hint={`${comment.length} / ${REPORT_COMMENT_MAX}`}
          rows={3}
          error={errors.comment}
        />
        {domain ? (
          <label className="flex items-start gap-3 text-[15px]">
            <input
              type="checkbox"
              checked={forward}
              onChange={(event) => setForward(event.target.checked)}
              className="mt-1 size-4 accent-[var(--color-accent)]"
            />
            <span>
              {t('Also send it to the moderators of {domain}', { domain })}
              <span className="block text-sm text-muted">{t('It goes from this server: your name is not sent.')}</span>
            </span>
          </label>
        ) : null}
        <div className="flex flex-col gap-3">
          <Button type="submit" variant="danger" size="lg" disabled={report.isPending}>
            {t('Report')}
          </Button>
          <Button variant="secondary" size="lg" onClick={onClose} disabled={report.isPending}>
            {t('Cancel')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
