import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { prefetchModals } from './app/modal-host.tsx';
import { AppProviders } from './app/providers.tsx';
import { createRouter } from './app/router.tsx';
import { createQueryClient } from './lib/query-client.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

/**
 * The router is made by the first render, not while the modules load: matching the routes and starting the
 * first navigation then runs in a task of its own instead of lengthening the modules' (already the longest
 * task of a phone's first visit). Once per page.
 */
let router: ReturnType<typeof createRouter> | undefined;
function Router() {
  router ??= createRouter();
  return <RouterProvider router={router} />;
}

// In a transition, the first render runs in slices instead of one long task (a slow phone's main thread
// stays free for input); nothing is on screen before it either way.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()} sessionRefetchInterval={5 * 60}>
        <Router />
      </AppProviders>
    </StrictMode>,
  ),
);

prefetchModals();
