/**
 * Answers index.html's boot script (src/boot.ts) asked for before the app's code arrived: the session,
 * and on Home the timeline it shows. The app's own call of the same URL takes the answer instead of
 * asking again, once, and only in the first seconds of the page (after that it may be out of date).
 */

/** How long after the page started an early answer may stand in for a request. */
const FRESH_MS = 10_000;

interface EarlyWindow {
  __pipitEarly?: Record<string, Promise<Response>>;
}

/** The early answer for a GET of `url` (path and query as the app writes it), at most once; else undefined. */
export function takeEarly(url: string): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : (window as EarlyWindow).__pipitEarly;
  const response = early?.[url];
  if (!response) return undefined;
  delete early[url];
  return performance.now() < FRESH_MS ? response : undefined;
}

/** Drops every early answer not taken yet (the person behind the session changed: they were asked as someone else). */
export function forgetEarly(): void {
  if (typeof window !== 'undefined') delete (window as EarlyWindow).__pipitEarly;
}

const MEMBER_HINT = 'pipit.member';

/**
 * Remembers whether this browser is signed in, for the boot script's guess of which timeline Home will
 * show on the next visit (it cannot read the session cookie). Nothing else reads it.
 */
export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(MEMBER_HINT, '1');
    else localStorage.removeItem(MEMBER_HINT);
  } catch {
    // Storage refused: the boot script guesses a visitor.
  }
}
