import { useLocation } from 'react-router';
import { Trending } from '../../features/hashtags/components/trending.tsx';
import { WhoToFollow } from '../../features/profile/components/who-to-follow.tsx';
import { SearchBox } from '../../features/search/components/search-box.tsx';
import { paths } from '../../lib/paths.ts';

/** Search, Who To Follow and Trending: the right column of large screens, its own chunk (phones never load it). */
export function RightColumn() {
  // The Search page has its own field.
  const onSearch = useLocation().pathname === paths.search();
  return (
    <div className="sticky top-0 flex flex-col gap-4 py-3">
      {!onSearch && <SearchBox />}
      <WhoToFollow />
      <Trending />
    </div>
  );
}
