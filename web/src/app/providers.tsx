import { type QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { Toaster } from 'sonner';
import { SessionProvider, useSession } from '../lib/session.tsx';

/**
 * When the person behind the session changes (sign-in, sign-out, another tab), every cached
 * answer was made for someone else: reset them all so nothing of the previous person shows.
 */
function ResetCacheOnSessionChange() {
  const { data, status } = useSession();
  const queryClient = useQueryClient();
  const identity = status === 'loading' ? undefined : (data?.user.email ?? null);
  const previous = useRef(identity);
  useEffect(() => {
    if (identity === undefined) return;
    if (previous.current !== undefined && previous.current !== identity) queryClient.resetQueries();
    previous.current = identity;
  }, [identity, queryClient]);
  return null;
}

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** Session poll in seconds (0 = off). */
  sessionRefetchInterval?: number;
}

export function AppProviders({ queryClient, children, sessionRefetchInterval = 0 }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider refetchInterval={sessionRefetchInterval}>
        {children}
        {/* After the app, so its effect runs after theirs: by then the queries that need a session
            have been told they are disabled, and the reset does not refetch them (a 401 each). */}
        <ResetCacheOnSessionChange />
        <Toaster theme="dark" position="bottom-center" containerAriaLabel="Messages" duration={4000} />
      </SessionProvider>
    </QueryClientProvider>
  );
}
