import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';

/**
 * A list row that opens `href` when clicked anywhere that is not itself a link or a button, and
 * not while the reader is selecting its text. The row keeps a real link inside for the keyboard
 * and for opening in a new tab (the time of a post, the text of a notification).
 */
export function useRowLink(href: string) {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    // Clicks from dialogs rendered in portals bubble here through React, not through the DOM.
    if (!event.currentTarget.contains(target) || target.closest('a, button')) return;
    if (window.getSelection()?.toString()) return;
    navigate(href);
  };
}
