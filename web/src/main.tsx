import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { prefetchModals } from './app/modal-host.tsx';
import { AppProviders } from './app/providers.tsx';
import { createRouter } from './app/router.tsx';
import { activateLocale, DEFAULT_LOCALE, initialLocale } from './i18n/i18n.ts';
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
const render = () =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <AppProviders queryClient={createQueryClient()} sessionRefetchInterval={5 * 60}>
          <Router />
        </AppProviders>
      </StrictMode>,
    ),
  );

// English is in the bundle; another language's catalog arrives first (a small chunk of its own).
const locale = initialLocale();
if (locale === DEFAULT_LOCALE) render();
else
  void activateLocale(locale)
    .catch(() => activateLocale(DEFAULT_LOCALE))
    .then(render);

prefetchModals();
