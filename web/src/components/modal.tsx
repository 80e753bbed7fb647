import { X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { t } from '../i18n/i18n.ts';
import { cn } from '../lib/cn.ts';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'textarea:not([disabled])',
  'select:not([disabled])',
  '[tabindex]',
]
  .map((selector) => `${selector}:not([tabindex="-1"])`)
  .join(',');

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[inert]'));
}

/** The page behind open dialogs is made inert: not clickable, not focusable, not read. */
let locks = 0;
function lockBackground(): () => void {
  locks++;
  const shell = document.getElementById('app-shell');
  if (shell) shell.inert = true;
  document.documentElement.style.overflow = 'hidden';
  let released = false;
  return () => {
    if (released) return;
    released = true;
    locks--;
    if (locks > 0) return;
    if (shell) shell.inert = false;
    document.documentElement.style.overflow = '';
  };
}

/**
 * Escape closes the topmost dialog wherever focus is: a control disabled while a request ran
 * drops focus to the body, and Escape must still close the dialog then.
 */
const escapeStack: (() => void)[] = [];
function onDocumentKeyDown(event: globalThis.KeyboardEvent) {
  if (event.key !== 'Escape' || event.defaultPrevented) return;
  const close = escapeStack.at(-1);
  if (!close) return;
  event.preventDefault();
  close();
}

function listenForEscape(close: () => void): () => void {
  if (escapeStack.length === 0) document.addEventListener('keydown', onDocumentKeyDown);
  escapeStack.push(close);
  return () => {
    const index = escapeStack.lastIndexOf(close);
    if (index >= 0) escapeStack.splice(index, 1);
    if (escapeStack.length === 0) document.removeEventListener('keydown', onDocumentKeyDown);
  };
}

export interface ModalProps {
  /** The visible title, also the dialog's accessible name. */
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Where focus goes back to on close; by default what had focus when the modal opened. */
  returnFocus?: HTMLElement | null;
  /** Hide the title visually (it stays the accessible name). */
  hideTitle?: boolean;
  /** 'fill': the whole window on a dark backdrop (the image viewer); 'sheet' by default. */
  layout?: 'sheet' | 'fill';
  className?: string;
}

/**
 * A real dialog: role dialog, aria-modal, named by its title, Escape and the close button close
 * it, focus starts inside (on `[data-autofocus]` or the first field), stays inside, and returns
 * to the opener. Centred on wide screens, full screen on phones.
 */
export function Modal({ title, onClose, children, returnFocus, hideTitle, layout = 'sheet', className }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const returnFocusRef = useRef(returnFocus);

  useEffect(() => {
    const active = document.activeElement;
    const opener = returnFocusRef.current ?? (active instanceof HTMLElement ? active : null);
    const release = lockBackground();
    const stopEscape = listenForEscape(() => onCloseRef.current());
    const dialog = dialogRef.current;
    if (dialog) {
      const first =
        dialog.querySelector<HTMLElement>('[data-autofocus]') ??
        dialog.querySelector<HTMLElement>('input:not([type="hidden"]):not([tabindex="-1"]), textarea') ??
        focusables(dialog)[0] ??
        dialog;
      first.focus();
    }
    return () => {
      stopEscape();
      release();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const items = focusables(dialogRef.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div
      className={cn(
        'fixed inset-0 z-50 flex items-stretch justify-center',
        layout === 'fill' ? 'bg-black/90' : 'bg-[#5b7083]/40 sm:items-start sm:py-[5vh]',
      )}
    >
      {/* A click on the dimmed backdrop closes, as on Twitter; Escape is the keyboard path. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is decoration */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes from the keyboard */}
      <div className="absolute inset-0" onClick={() => onCloseRef.current()} />
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={cn(
          'relative flex w-full flex-col outline-none',
          layout === 'fill'
            ? 'pointer-events-none'
            : 'overflow-y-auto bg-bg sm:max-h-[90vh] sm:max-w-[600px] sm:rounded-2xl',
          className,
        )}
      >
        <div
          className={cn(
            'sticky top-0 z-10 flex h-[53px] shrink-0 items-center gap-4 px-2',
            layout === 'fill' ? 'pointer-events-auto w-fit' : 'bg-bg/90 backdrop-blur',
          )}
        >
          <button
            type="button"
            onClick={() => onCloseRef.current()}
            aria-label={t('Close')}
            className="grid size-9 place-items-center rounded-full text-fg hover:bg-fg/10"
          >
            <X aria-hidden="true" className="size-5" />
          </button>
          <h2 id={titleId} className={cn('truncate text-xl font-bold', hideTitle && 'sr-only')}>
            {title}
          </h2>
        </div>
        <div className={cn('flex flex-1 flex-col', layout === 'fill' ? 'min-h-0' : 'px-4 pb-6 sm:px-8')}>
          {children}
        </div>
      </div>
    </div>,
    document.body,
  );
}
