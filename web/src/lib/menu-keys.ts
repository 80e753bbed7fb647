import type { KeyboardEvent, RefObject } from 'react';

/**
 * The keyboard of a menu (WAI-ARIA menu pattern): ArrowDown and ArrowUp move between the items matched
 * by `itemSelector` (wrapping), Home and End go to the first and last, Escape and Tab close it (`close`
 * returns focus to its button). Escape is marked handled, so a modal around the menu stays open
 * (modal.tsx skips a handled Escape). Other keys are left alone.
 */
export function menuKeyHandler(menu: RefObject<HTMLElement | null>, itemSelector: string, close: () => void) {
  return (event: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>(itemSelector) ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => items[(to + items.length) % items.length]?.focus();
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      close();
      return;
    } else return;
    event.preventDefault();
  };
}
