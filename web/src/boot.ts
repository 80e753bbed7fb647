/**
 * index.html's one inline script, in <head> (vite.config.ts `bootScript` strips the types, minifies it
 * and writes it there; the server allows exactly it by its hash in the Content-Security-Policy). It
 * runs before the page paints and before the app's code has arrived:
 * - the colour theme: the choice made in Settings (localStorage "pipit.theme": "light" or "dark"),
 *   else the system's, followed as it changes (lib/theme.ts sets it when it is chosen);
 * - the first answers the app will ask for, started now (lib/early.ts hands each to the app's own call
 *   of the same URL, once): the session on every page; on Home, the timeline Home will show and the
 *   code of the Home page. On a phone the app's code takes seconds to arrive and run; the session and
 *   then the timeline used to wait for it, one after the other.
 * Imports nothing: it is not part of the app's bundle.
 */

/** The Home page's chunks, filled in by the build (none in development). */
declare const __HOME_CHUNKS__: string[];

/** Where lib/early.ts finds the answers started here. */
interface EarlyWindow {
  __pipitEarly?: Record<string, Promise<Response>>;
}

((homeChunks: string[]) => {
  const read = (storage: () => Storage, key: string): string | null => {
    try {
      return storage().getItem(key);
    } catch {
      // Storage refused (private mode).
      return null;
    }
  };

  const system = matchMedia('(prefers-color-scheme: light)');
  const applyTheme = () => {
    const chosen = read(() => localStorage, 'pipit.theme');
    const theme = chosen === 'light' || chosen === 'dark' ? chosen : system.matches ? 'light' : 'dark';
    document.documentElement.dataset.theme = theme;
  };
  applyTheme();
  system.addEventListener('change', applyTheme);

  // The language (src/i18n/i18n.ts): the one chosen in Settings, else the first of the browser's own
  // (what it sends as Accept-Language) that the app speaks, on <html lang dir> before the first paint so a
  // right-to-left page is laid out so from the start. The app loads its catalog before its first render.
  const spoken = ['en', 'es', 'ar'];
  const chosen = read(() => localStorage, 'pipit.locale');
  const lang =
    (chosen && spoken.includes(chosen) ? chosen : null) ??
    navigator.languages.map((tag) => tag.toLowerCase().split('-')[0] ?? '').find((tag) => spoken.includes(tag)) ??
    'en';
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';

  if (typeof fetch !== 'function') return;
  const early: Record<string, Promise<Response>> = {};
  (window as EarlyWindow).__pipitEarly = early;
  const start = (url: string, headers: Record<string, string>) => {
    const response = fetch(url, { headers });
    // Not taken (the app asked for something else): no unhandled rejection in the console.
    response.catch(() => {});
    early[url] = response;
  };
  // The same requests as lib/session.ts and lib/api-client.ts send.
  start('/api/auth/session', { 'Content-Type': 'application/json' });
  if (location.pathname !== '/') return;

  // Home shows a member the Following timeline unless they chose Everyone in this tab (routes/home.tsx), a
  // visitor Everyone. Whether this browser was signed in last time is all that is known here (state/viewer.tsx
  // keeps the hint); a wrong guess costs one unused request, the app then asks for the right one.
  const member = read(() => localStorage, 'pipit.member') === '1';
  const everyone = read(() => sessionStorage, 'pipit.timeline') === 'everyone';
  start(member && !everyone ? '/api/timeline/following' : '/api/timeline/everyone', { Accept: 'application/json' });

  for (const href of homeChunks) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
})(__HOME_CHUNKS__);
