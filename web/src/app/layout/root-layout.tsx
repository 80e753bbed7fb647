import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { PostSkeletons } from '../../components/states.tsx';
import { Trending } from '../../features/hashtags/components/trending.tsx';
import { WhoToFollow } from '../../features/profile/components/who-to-follow.tsx';
import { SearchBox } from '../../features/search/components/search-box.tsx';
import { paths } from '../../lib/paths.ts';
import { ModalHost } from '../modal-host.tsx';
import { SideNav } from './side-nav.tsx';

/**
 * Left navigation, the centre column (the page), and Search, Who To Follow and Trending on large screens. `pending`:
 * the first page's code is still on its way, so the centre column shows skeletons.
 */
export function RootLayout({ pending = false }: { pending?: boolean }) {
  // The Search page has its own field.
  const onSearch = useLocation().pathname === paths.search();
  return (
    <>
      <div id="app-shell" className="mx-auto flex min-h-dvh w-full max-w-[1265px] justify-center">
        <header className="sm:flex sm:shrink-0 sm:justify-end">
          <SideNav />
        </header>
        <main className="w-full min-w-0 max-w-[600px] pb-[148px] sm:border-x sm:border-line sm:pb-0">
          {pending ? <PostSkeletons /> : <Outlet />}
        </main>
        <aside className="hidden w-[290px] shrink-0 pl-6 lg:block xl:w-[350px] xl:pl-8">
          <div className="sticky top-0 flex flex-col gap-4 py-3">
            {!onSearch && <SearchBox />}
            <WhoToFollow />
            <Trending />
          </div>
        </aside>
      </div>
      <ModalHost />
      <ScrollRestoration />
    </>
  );
}
