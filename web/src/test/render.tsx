import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../app/providers.tsx';
import { json } from './fetch-mock.ts';
import { ALICE } from './fixtures.ts';

export { ALICE };

interface Options {
  route?: string;
  sessionRefetchInterval?: number;
}

/** Renders with the app's real providers (query client, session client, toasts) and a router. */
export function renderApp(ui: ReactNode, { route = '/', sessionRefetchInterval = 0 }: Options = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY }, mutations: { retry: false } },
  });
  const result = render(
    <AppProviders queryClient={queryClient} sessionRefetchInterval={sessionRefetchInterval}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </AppProviders>,
  );
  return { ...result, queryClient };
}

export const SESSION = {
  user: { name: 'Alice', email: 'alice@example.com', image: null },
  expires: '2099-01-01T00:00:00.000Z',
};

/** A member's session and profile, as the server would answer them. */
export function signedInRoutes() {
  return {
    'GET /api/auth/session': () => json(SESSION),
    'GET /api/current': () => json(ALICE),
  };
}
