import { useEffect, useRef } from 'react';

interface InfiniteSentinelProps {
  onVisible: () => void;
  /** Observe only while there is a next page and none is loading. */
  enabled: boolean;
}

/**
 * An invisible marker below a list that asks for the next page well before the reader gets
 * there. The observer is recreated after each page, so a short page that leaves the marker in
 * view loads the next one too.
 */
export function InfiniteSentinel({ onVisible, enabled }: InfiniteSentinelProps) {
  const ref = useRef<HTMLDivElement>(null);
  const onVisibleRef = useRef(onVisible);
  onVisibleRef.current = onVisible;

  useEffect(() => {
    const node = ref.current;
    if (!enabled || !node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onVisibleRef.current();
      },
      { rootMargin: '0px 0px 1200px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled]);

  return <div ref={ref} aria-hidden="true" className="h-px" />;
}
