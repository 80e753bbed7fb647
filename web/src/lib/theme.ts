/**
 * The colour theme: "light", "dark", or "system" (nothing chosen: the system's preference, followed as
 * it changes). Kept in localStorage; index.html's boot script (src/boot.ts) applies it before the first
 * paint (and when the system's changes), `setTheme` when it is chosen.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'pipit.theme';

export function currentTheme(): ThemeChoice {
  try {
    const stored = localStorage.getItem(KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

export function setTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Storage refused (private mode): the choice holds for this page only.
  }
  const systemLight = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: light)').matches;
  const light = choice === 'light' || (choice === 'system' && systemLight);
  document.documentElement.dataset.theme = light ? 'light' : 'dark';
}
