import type { Draft, Post } from '@pipit/contract';
import { useSyncExternalStore } from 'react';

/** The app-wide modals; only one is open at a time, so opening one closes the other. */
export type ModalName = 'login' | 'register' | 'forgotPassword' | 'editProfile' | 'compose';

export interface ModalState {
  name: ModalName | null;
  /** What had focus before the first modal opened; focus goes back there when they all close. */
  returnFocus: HTMLElement | null;
  /** For 'compose': the post being quoted. */
  quote?: Post;
  /** For 'compose': one's own post being edited ("Edit post", "Save"). */
  edit?: Post;
  /** For 'compose': the draft being resumed (the composer opens filled with it). */
  draft?: Draft;
}

let state: ModalState = { name: null, returnFocus: null };
const listeners = new Set<() => void>();

function set(next: ModalState) {
  state = next;
  for (const listener of listeners) listener();
}

export function openModal(name: ModalName, options: { quote?: Post; edit?: Post; draft?: Draft } = {}) {
  const active = document.activeElement;
  const returnFocus = state.name ? state.returnFocus : active instanceof HTMLElement ? active : null;
  set({ name, returnFocus, ...options });
}

export function closeModal() {
  if (state.name) set({ name: null, returnFocus: null });
}

export function useModalState(): ModalState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
