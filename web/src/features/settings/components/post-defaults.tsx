import { VISIBILITIES, type Visibility } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { VisibilityIcon } from '../../../components/visibility-badge.tsx';
import { t } from '../../../i18n/i18n.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { VISIBILITY_WORDS } from '../../../lib/visibility.ts';
import { useSetDefaultVisibility } from '../api/settings.ts';

/**
 * "Posts": the visibility the composer starts with (a reply still starts at its parent's when that is
 * narrower). Choosing is free (arrow keys move through the choices); Save sends it.
 */
export function PostDefaults({ current }: { current: Visibility }) {
  const save = useSetDefaultVisibility();
  const [choice, setChoice] = useState<Visibility>(current);
  const unchanged = choice === current;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (unchanged) return;
    save.mutate(choice, {
      onSuccess: (me) =>
        notify(t('Default visibility saved: {label}', { label: VISIBILITY_WORDS[me.defaultVisibility].label })),
      onError: () => notifyError(t('Couldn’t save your default visibility. Try again.')),
    });
  };

  return (
    <SettingsSection id="post-defaults-heading" title={t('Posts')} padded>
      <form onSubmit={submit} className="mt-2 flex flex-col gap-3">
        <fieldset disabled={save.isPending}>
          <legend className="text-[15px] text-muted">{t('Default post visibility')}</legend>
          <div className="mt-2 flex flex-col gap-1">
            {VISIBILITIES.map((visibility) => {
              const words = VISIBILITY_WORDS[visibility];
              return (
                <label
                  key={visibility}
                  className="flex cursor-pointer items-start gap-3 rounded-lg py-1.5 has-disabled:cursor-not-allowed"
                >
                  <input
                    type="radio"
                    name="default-visibility"
                    value={visibility}
                    checked={choice === visibility}
                    onChange={() => setChoice(visibility)}
                    aria-labelledby={`default-visibility-${visibility}-name`}
                    aria-describedby={`default-visibility-${visibility}`}
                    className="mt-1 size-4 shrink-0 accent-[var(--color-accent)]"
                  />
                  <VisibilityIcon visibility={visibility} className="mt-0.5 size-5" />
                  <span className="min-w-0">
                    <span id={`default-visibility-${visibility}-name`} className="block text-[15px] font-bold">
                      {words.label}
                    </span>
                    <span id={`default-visibility-${visibility}`} className="block text-[13px] text-muted">
                      {words.mine}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
          <p className="mt-2 text-[13px] text-muted">
            {t('A reply starts as the post it answers when that is narrower.')}
          </p>
        </fieldset>
        <Button type="submit" className="self-start" disabled={save.isPending || unchanged}>
          {t('Save')}
        </Button>
      </form>
    </SettingsSection>
  );
}
