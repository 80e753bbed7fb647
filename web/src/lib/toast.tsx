import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import type { ToasterProps } from 'sonner';

/**
 * The toast library (sonner: ~9 kB gzip, and a stylesheet it inserts when it loads) is not part of what a
 * first visit needs before it shows: it loads when the page is first idle, or at the first toast if that
 * comes sooner. The region that announces toasts is then on the page before any toast is put in it.
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

/** Where toasts show: mounted once the page is idle (or at the first toast). */
export function Toasts(props: ToasterProps) {
  const asked = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => setIdle(true), { timeout: 3000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), 200);
    return () => clearTimeout(id);
  }, []);
  if (!asked && !idle) return null;
  return (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  );
}
