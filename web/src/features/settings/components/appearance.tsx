import { useState } from 'react';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { currentTheme, setTheme, type ThemeChoice } from '../../../lib/theme.ts';

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** "Appearance": light, dark, or the system's (the default); applied at once and kept in this browser. */
export function Appearance() {
  const [choice, setChoice] = useState<ThemeChoice>(currentTheme);
  return (
    <SettingsSection id="appearance-heading" title="Appearance" padded>
      <fieldset className="mt-2">
        <legend className="text-[15px] text-muted">Theme, in this browser</legend>
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
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
    </SettingsSection>
  );
}
