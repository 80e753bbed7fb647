import { useCallback, useEffect, useRef } from 'react';
import { useViewer } from '../state/viewer.tsx';
import { openModal } from './modals.ts';

/**
 * The one "ask visitors to sign in" rule. `membersOnly(action)` runs `action` for a signed-in person
 * and opens Login for a visitor. While the session is still loading it waits and then decides, so an
 * early click (a page just opened) is neither lost nor taken for a visitor's.
 */
export function useMembersOnly(): (action: () => void) => void {
  const { status } = useViewer();
  const pending = useRef<(() => void) | null>(null);

  useEffect(() => {
    const action = pending.current;
    if (status === 'loading' || !action) return;
    pending.current = null;
    if (status === 'authenticated') action();
    else openModal('login');
  }, [status]);

  return useCallback(
    (action: () => void) => {
      if (status === 'authenticated') action();
      else if (status === 'unauthenticated') openModal('login');
      else pending.current = action;
    },
    [status],
  );
}
