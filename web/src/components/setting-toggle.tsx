import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { t } from '../i18n/i18n.ts';
import { notify, notifyError } from '../lib/toast.tsx';

/**
 * One on/off setting of the account: a checkbox with its name and what it does, saved at once by
 * `save` (a mutation taking the new value). While the change is sent the box shows what was asked; a
 * failure puts the saved state back. `said` is the toast once saved.
 */
export function SettingToggle({
  id,
  label,
  help,
  saved,
  save,
  said,
}: {
  id: string;
  label: string;
  help: ReactNode;
  saved: boolean;
  save: UseMutationResult<unknown, unknown, boolean>;
  said: (on: boolean) => string;
}) {
  const checked = save.isPending && save.variables !== undefined ? save.variables : saved;
  return (
    <label className="mt-2 flex items-start gap-3 text-[15px]">
      <input
        type="checkbox"
        checked={checked}
        disabled={save.isPending}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-help`}
        onChange={(event) => {
          const next = event.target.checked;
          save.mutate(next, {
            onSuccess: () => notify(said(next)),
            onError: () => notifyError(t('Could not save. Try again.')),
          });
        }}
        className="mt-0.5 size-4 shrink-0 accent-[var(--color-accent)]"
      />
      <span>
        <span id={`${id}-label`} className="font-bold">
          {label}
        </span>
        <span id={`${id}-help`} className="mt-1 block text-muted">
          {help}
        </span>
      </span>
    </label>
  );
}
