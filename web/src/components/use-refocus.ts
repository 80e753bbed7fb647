import { useEffect, useRef, useState } from 'react';

/**
 * A form disables its fields while a request runs, which drops focus to the page. After a failed
 * submit, `refocus()` puts focus back inside the form once it is enabled again: on the first field
 * marked invalid, else on `fallback` (a selector inside the form), else on its submit button.
 */
export function useRefocus() {
  const formRef = useRef<HTMLFormElement>(null);
  const fallbackRef = useRef<string | undefined>(undefined);
  const [request, setRequest] = useState(0);

  useEffect(() => {
    const form = formRef.current;
    if (request === 0 || !form) return;
    const target =
      form.querySelector<HTMLElement>('[aria-invalid="true"]:not(:disabled)') ??
      (fallbackRef.current ? form.querySelector<HTMLElement>(fallbackRef.current) : null) ??
      form.querySelector<HTMLElement>('[type="submit"]');
    target?.focus();
  }, [request]);

  return {
    formRef,
    refocus: (fallback?: string) => {
      fallbackRef.current = fallback;
      setRequest((n) => n + 1);
    },
  };
}
