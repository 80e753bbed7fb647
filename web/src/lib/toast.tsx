import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import type { ToasterProps } from 'sonner';

/**
 * The toast library (sonner: ~9 kB gzip, and a stylesheet it inserts when it loads) is not part of a
 * reading visit: toasts answer what a person does, so it loads at their first interaction (a press, a
 * key, a click, focus moving into the page: a screen reader's activation may send only the last two),
 * or at the first toast if that comes sooner. The region that announces toasts is then on the page
 * before the answer to that action puts a toast in it. At idle instead, it still ran during the load of
 * a slow phone (one more long task).
 */
const sonner = () => import('sonner');

let wanted = false;
const listeners = new Set<() => void>();
function wantToaster() {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/**
 * Toasts carry their own live-region role so they are announced (and findable by role):
 * status for news, alert for failures. A toast made before the toaster is on the page waits in the
 * library's store and shows when it mounts.
 */
export function notify(message: string) {
  wantToaster();
  void sonner().then(({ toast }) => toast(<span role="status">{message}</span>));
}

export function notifyError(message: string) {
  wantToaster();
  void sonner().then(({ toast }) => toast.error(<span role="alert">{message}</span>));
}

const Toaster = lazy(() => sonner().then((m) => ({ default: m.Toaster })));

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const INTERACTION = ['pointerdown', 'keydown', 'touchstart', 'click', 'focusin'] as const;

/** Where toasts show: mounted at the person's first interaction (or at the first toast). */
export function Toasts(props: ToasterProps) {
  const shown = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  useEffect(() => {
    if (wanted) return;
    const show = () => {
      for (const type of INTERACTION) window.removeEventListener(type, show, true);
      wantToaster();
    };
    for (const type of INTERACTION) window.addEventListener(type, show, { capture: true, passive: true });
    return () => {
      for (const type of INTERACTION) window.removeEventListener(type, show, true);
    };
  }, []);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  );
}
