import type { ReactNode } from 'react';
import { cn } from '../lib/cn.ts';

interface SettingsSectionProps {
  /** The heading's id (the section's accessible name). */
  id: string;
  title: string;
  /** Text and controls inside the page's margins; without it the body runs edge to edge (lists of rows). */
  padded?: boolean;
  children: ReactNode;
}

/** One section of Settings: a rule above, its heading, its body. */
export function SettingsSection({ id, title, padded = false, children }: SettingsSectionProps) {
  return (
    <section aria-labelledby={id} className={cn('border-t border-line', padded && 'px-4 py-4')}>
      <h2 id={id} className={cn('text-xl font-bold', !padded && 'px-4 pt-4 pb-2')}>
        {title}
      </h2>
      {children}
    </section>
  );
}
