/**
 * The colour theme: "light", "dark", or "system" (nothing chosen: the CSS follows the system's
 * preference). Kept in localStorage; /theme.js applies it before the first paint, `setTheme` after.
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
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Storage refused (private mode): the choice holds for this page only.
  }
}
