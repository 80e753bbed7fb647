import { useSyncExternalStore } from 'react';

/**
 * What the reader opened or closed while the page lives: each post's content warning ("Show more" /
 * "Show less") and its sensitive pictures ("show" / "Hide"), by post id. One small store, so the same
 * post in two lists, or refetched, stays as the reader left it. Not kept across reloads.
 */
type Part = 'text' | 'media';
const chosen = new Map<string, boolean>();
const listeners = new Set<() => void>();
let version = 0;

const keyOf = (part: Part, id: string) => `${part}:${id}`;

export function setRevealed(part: Part, id: string, open: boolean) {
  chosen.set(keyOf(part, id), open);
  version++;
  for (const listener of listeners) listener();
}

/** Whether the reader opened it: their choice on this page, else `byDefault` (the member's setting). */
export function useRevealed(part: Part, id: string, byDefault: boolean): boolean {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
  return chosen.get(keyOf(part, id)) ?? byDefault;
}

/** Forgets every choice (tests). */
export function resetRevealed() {
  chosen.clear();
  version++;
}
