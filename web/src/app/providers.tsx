import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { t } from '../i18n/i18n.ts';
import { LocaleRoot } from '../i18n/locale-root.tsx';
import { Toasts } from '../lib/toast.tsx';
import { LiveSync } from '../state/live.tsx';
import { ViewerSync } from '../state/viewer.tsx';

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** Session poll in seconds (0 = off). */
  sessionRefetchInterval?: number;
}

export function AppProviders({ queryClient, children, sessionRefetchInterval = 0 }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <LocaleRoot>{children}</LocaleRoot>
      {/* After the app, so its effects run after theirs (state/viewer.tsx). */}
      <ViewerSync refetchInterval={sessionRefetchInterval} />
      <LiveSync />
      <LocaleRoot>
        <Toasts theme="dark" position="bottom-center" containerAriaLabel={t('Messages')} duration={4000} />
      </LocaleRoot>
    </QueryClientProvider>
  );
}
