import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { t } from '../i18n/i18n.ts';
import { Button } from './button.tsx';

export function Spinner({ label = t('Loading') }: { label?: string }) {
  return (
    <div role="status" className="flex justify-center p-6">
      <Loader2 aria-hidden="true" className="size-6 animate-spin text-accent" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** Grey rows in the shape of posts, while the first page loads. */
export function PostSkeletons({ count = 3 }: { count?: number }) {
  return (
    <div role="status" aria-label={t('Loading')} className="animate-pulse">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
        <div key={i} className="flex gap-3 border-b border-line px-4 py-3">
          <div className="size-12 shrink-0 rounded-full bg-surface" />
          <div className="flex-1 space-y-2 py-1">
            <div className="h-3.5 w-2/5 rounded bg-surface" />
            <div className="h-3.5 w-full rounded bg-surface" />
            <div className="h-3.5 w-3/4 rounded bg-surface" />
          </div>
        </div>
      ))}
    </div>
  );
}

interface EmptyStateProps {
  title: string;
  children?: ReactNode;
  /** A way forward, under the text. */
  action?: ReactNode;
}

/** What will appear here, and what to do meanwhile. */
export function EmptyState({ title, children, action }: EmptyStateProps) {
  return (
    <div className="mx-auto max-w-sm px-8 py-12">
      <p className="text-[31px] font-extrabold leading-9 [overflow-wrap:anywhere]">{title}</p>
      {children && <p className="mt-2 text-[15px] text-muted">{children}</p>}
      {action && <div className="mt-6">{action}</div>}
    </div>
  );
}

/** An inline error with a way to try again. */
export function ErrorState({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 px-4 py-8 text-center">
      <p className="text-[15px] text-muted">{message}</p>
      <Button onClick={onRetry} size="sm">
        {t('Retry')}
      </Button>
    </div>
  );
}
