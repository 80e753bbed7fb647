import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `ms` (typing pauses before a search is asked). */
export function useSettled<T>(value: T, ms = 150): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
