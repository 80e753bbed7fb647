import { useState } from 'react';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { chooseLocale, currentLocale, isLocale, LOCALES, type Locale, m, t } from '../../../i18n/i18n.ts';
import { currentTheme, setTheme, type ThemeChoice } from '../../../lib/theme.ts';
import { notifyError } from '../../../lib/toast.tsx';

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: m('Follow the system') },
  { value: 'light', label: m('Light') },
  { value: 'dark', label: m('Dark') },
];

/**
 * The language of the app, kept in this browser (docs/decisions.md "Languages"): each language is named in
 * itself, so anyone finds their own whatever the page is in now. The page changes at once.
 */
function LanguagePicker() {
  const [choice, setChoice] = useState<Locale>(currentLocale);
  const [busy, setBusy] = useState(false);
  return (
    <label className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-[15px]">
      <span className="text-muted">{t('Language, in this browser')}</span>
      <select
        value={choice}
        disabled={busy}
        onChange={(event) => {
          const locale = event.target.value;
          if (!isLocale(locale)) return;
          setChoice(locale);
          setBusy(true);
          chooseLocale(locale)
            .catch(() => notifyError(t('Couldn’t load that language. Try again.')))
            .finally(() => setBusy(false));
        }}
        className="h-9 rounded-md border border-line-strong bg-bg px-2 text-[15px] text-fg"
      >
        {Object.entries(LOCALES).map(([locale, name]) => (
          <option key={locale} value={locale} lang={locale}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** "Appearance": light, dark, or the system's (the default); applied at once and kept in this browser. */
export function Appearance() {
  const [choice, setChoice] = useState<ThemeChoice>(currentTheme);
  return (
    <SettingsSection id="appearance-heading" title={t('Appearance')} padded>
      <fieldset className="mt-2">
        <legend className="text-[15px] text-muted">{t('Theme, in this browser')}</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {CHOICES.map((option) => (
            <label key={option.value} className="flex items-center gap-2 text-[15px]">
              <input
                type="radio"
                name="theme"
                value={option.value}
                checked={choice === option.value}
                onChange={() => {
                  setChoice(option.value);
                  setTheme(option.value);
                }}
                className="size-4 accent-[var(--color-accent)]"
              />
              {t(option.label)}
            </label>
          ))}
        </div>
      </fieldset>
      <LanguagePicker />
    </SettingsSection>
  );
}
