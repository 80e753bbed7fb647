import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { PostSkeletons } from '../../components/states.tsx';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { ModalHost } from '../modal-host.tsx';
import { SideNav } from './side-nav.tsx';

/**
 * Left navigation, the centre column (the page), and Search, Who To Follow and Trending on large screens. `pending`:
 * the first page's code is still on its way, so the centre column shows skeletons.
 */
const RightColumn = lazy(() => import('./right-column.tsx').then((m) => ({ default: m.RightColumn })));

/** Tailwind's `lg`: where the right column shows. */
const WIDE = '(min-width: 1024px)';

export function RootLayout({ pending = false }: { pending?: boolean }) {
  // Loaded only where it shows: a phone's first visit carries none of it.
  const wide = useMediaQuery(WIDE);
  return (
    <>
      <div id="app-shell" className="mx-auto flex min-h-dvh w-full max-w-[1265px] justify-center">
        <header className="sm:flex sm:shrink-0 sm:justify-end">
          <SideNav />
        </header>
        <main className="w-full min-w-0 max-w-[600px] pb-[148px] sm:border-x sm:border-line sm:pb-0">
          {pending ? <PostSkeletons /> : <Outlet />}
        </main>
        <aside className="hidden w-[290px] shrink-0 ps-6 lg:block xl:w-[350px] xl:ps-8">
          {wide && (
            <Suspense fallback={null}>
              <RightColumn />
            </Suspense>
          )}
        </aside>
      </div>
      <ModalHost />
      <ScrollRestoration />
    </>
  );
}
