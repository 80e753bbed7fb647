import {
  DEFAULT_POLL_DURATION,
  graphemeLength,
  POLL_DURATIONS,
  POLL_LIMITS,
  type Poll,
  type PollInput,
} from '@pipit/contract';
import { ChartBar, Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { m, t } from '../../../i18n/i18n.ts';

/** How the duration select names each choice. */
const DURATION_LABELS: Record<number, string> = {
  300: m('5 minutes'),
  1800: m('30 minutes'),
  3600: m('1 hour'),
  21600: m('6 hours'),
  86400: m('1 day'),
  259200: m('3 days'),
  604800: m('7 days'),
};

const emptyOptions = () => Array.from({ length: POLL_LIMITS.minOptions }, () => '');

/** The listed length nearest to what is left of an edited poll (at least the shortest). */
function lengthLeft(expiresAt: string): number {
  const left = Math.max(0, (Date.parse(expiresAt) - Date.now()) / 1000);
  return POLL_DURATIONS.reduce((best, d) => (Math.abs(d - left) < Math.abs(best - left) ? d : best));
}

/**
 * The composer's poll: open or not, its options (2–4), how long it stays open, single or multiple
 * choice, counts hidden until the end. `problem` says what keeps it from being posted (as the
 * contract's pollInput would), `input` is what is sent. Editing a post (`initial`: its poll), it
 * starts from that poll; `changed` says whether the author changed anything of it (an edit sends the
 * poll only then: sent, its end moves to its length from now), and `resetsVotes` whether the change
 * takes its votes away (other choices, or single/multiple).
 */
export function useComposerPoll(initial?: Poll | null) {
  const [start] = useState(() => ({
    open: Boolean(initial),
    options: initial ? initial.options.map((o) => o.title) : emptyOptions(),
    expiresIn: initial ? lengthLeft(initial.expiresAt) : DEFAULT_POLL_DURATION,
    multiple: initial?.multiple ?? false,
    hideTotals: initial?.hideTotals ?? false,
  }));
  const [open, setOpen] = useState(start.open);
  const [options, setOptions] = useState<string[]>(start.options);
  const [expiresIn, setExpiresIn] = useState<number>(start.expiresIn);
  const [multiple, setMultiple] = useState(start.multiple);
  const [hideTotals, setHideTotals] = useState(start.hideTotals);

  const trimmed = options.map((o) => o.trim());
  const problem = !open
    ? null
    : trimmed.some((o) => o.length === 0)
      ? t('Fill in every choice, or remove it.')
      : trimmed.some((o) => graphemeLength(o) > POLL_LIMITS.optionMax)
        ? t('A choice can be at most {optionMax} characters.', { optionMax: POLL_LIMITS.optionMax })
        : new Set(trimmed.map((o) => o.toLowerCase())).size !== trimmed.length
          ? t('The choices must all be different.')
          : null;
  const input: PollInput | undefined = open ? { options: trimmed, expiresIn, multiple, hideTotals } : undefined;
  const sameChoices =
    open === start.open &&
    multiple === start.multiple &&
    trimmed.length === start.options.length &&
    trimmed.every((o, i) => o === start.options[i]);
  const changed = !sameChoices || expiresIn !== start.expiresIn || hideTotals !== start.hideTotals;
  const resetsVotes = initial != null && initial.votersCount > 0 && open && !sameChoices;

  const clear = () => {
    setOpen(false);
    setOptions(emptyOptions());
    setExpiresIn(DEFAULT_POLL_DURATION);
    setMultiple(false);
    setHideTotals(false);
  };

  return {
    open,
    options,
    expiresIn,
    multiple,
    hideTotals,
    problem,
    input,
    changed,
    resetsVotes,
    toggle: () => (open ? clear() : setOpen(true)),
    clear,
    setOption: (index: number, value: string) => setOptions((all) => all.map((o, i) => (i === index ? value : o))),
    addOption: () => setOptions((all) => (all.length < POLL_LIMITS.maxOptions ? [...all, ''] : all)),
    removeOption: (index: number) =>
      setOptions((all) => (all.length > POLL_LIMITS.minOptions ? all.filter((_, i) => i !== index) : all)),
    setExpiresIn,
    setMultiple,
    setHideTotals,
  };
}
export type ComposerPoll = ReturnType<typeof useComposerPoll>;

/** Adds a poll, or takes it away (pressed while there is one). Not with images: a post has one or the other. */
export function AddPollButton({ poll, disabled }: { poll: ComposerPoll; disabled?: boolean }) {
  return (
    <button
      type="button"
      aria-label={poll.open ? t('Remove poll') : t('Add a poll')}
      aria-pressed={poll.open}
      title={
        disabled && !poll.open
          ? t('A post with images cannot have a poll')
          : poll.open
            ? t('Remove poll')
            : t('Add a poll')
      }
      disabled={disabled}
      onClick={poll.toggle}
      className="grid size-9 place-items-center rounded-full text-accent hover:bg-accent/10 disabled:cursor-not-allowed disabled:opacity-50 aria-pressed:bg-accent/15"
    >
      <ChartBar aria-hidden="true" className="size-5" />
    </button>
  );
}

/** The poll's fields under the text: its choices (add, remove), its duration, and the two toggles. */
export function ComposerPollEditor({ poll, disabled }: { poll: ComposerPoll; disabled?: boolean }) {
  const id = useId();
  if (!poll.open) return null;
  return (
    <fieldset disabled={disabled} className="mb-3 rounded-xl border border-line p-3">
      <legend className="px-1 text-[13px] font-bold text-muted">{t('Poll')}</legend>
      <div className="flex flex-col gap-2">
        {poll.options.map((option, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a choice is its place in the list
          <div key={index} className="flex items-center gap-2">
            <label htmlFor={`${id}-option-${index}`} className="sr-only">
              {t('Choice {index}', { index: index + 1 })}
            </label>
            <input
              id={`${id}-option-${index}`}
              value={option}
              onChange={(event) => poll.setOption(index, event.target.value)}
              placeholder={
                index >= POLL_LIMITS.minOptions
                  ? t('Choice {index} (optional)', { index: index + 1 })
                  : t('Choice {index}', { index: index + 1 })
              }
              className="h-10 min-w-0 flex-1 rounded-md border border-line-strong bg-transparent px-3 text-[15px] outline-none placeholder:text-muted focus:border-accent"
            />
            {poll.options.length > POLL_LIMITS.minOptions && (
              <button
                type="button"
                aria-label={t('Remove choice {index}', { index: index + 1 })}
                onClick={() => poll.removeOption(index)}
                className="grid size-8 shrink-0 place-items-center rounded-full text-muted hover:bg-fg/10"
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            )}
          </div>
        ))}
        {poll.options.length < POLL_LIMITS.maxOptions && (
          <button
            type="button"
            onClick={poll.addOption}
            className="flex items-center gap-1 self-start rounded-full px-2 py-1 text-[15px] font-bold text-accent hover:bg-accent/10"
          >
            <Plus aria-hidden="true" className="size-4" />
            {t('Add a choice')}
          </button>
        )}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-x-5 gap-y-2 text-[15px]">
        <label className="flex items-center gap-2">
          <span>{t('Poll length')}</span>
          <select
            value={poll.expiresIn}
            onChange={(event) => poll.setExpiresIn(Number(event.target.value))}
            className="h-9 rounded-md border border-line-strong bg-bg px-2 text-[15px] text-fg"
          >
            {POLL_DURATIONS.map((seconds) => (
              <option key={seconds} value={seconds}>
                {t(DURATION_LABELS[seconds] ?? '')}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={poll.multiple}
            onChange={(event) => poll.setMultiple(event.target.checked)}
            className="size-4 accent-[var(--color-accent)]"
          />
          {t('Multiple choice')}
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={poll.hideTotals}
            onChange={(event) => poll.setHideTotals(event.target.checked)}
            className="size-4 accent-[var(--color-accent)]"
          />
          {t('Hide results until it ends')}
        </label>
      </div>
      {poll.problem && poll.options.some((o) => o.trim() !== '') && (
        <p className="mt-2 text-[13px] text-danger">{poll.problem}</p>
      )}
      {poll.resetsVotes && (
        <p className="mt-2 text-[13px] text-muted">
          {t('Changing the choices takes away the votes so far; those who voted are told.')}
        </p>
      )}
    </fieldset>
  );
}
