import { useQueryClient } from '@tanstack/react-query';
import { t } from '../../../i18n/i18n.ts';
import type { FeedKind } from '../../../state/keys.ts';
import { showPendingPosts, usePendingPosts } from '../../../state/posts.ts';

/**
 * "Show N new posts" above a timeline: posts pushed live wait here instead of moving what the
 * reader is looking at; a click puts them on top and goes there.
 */
export function NewPostsButton({ kind }: { kind: FeedKind }) {
  const queryClient = useQueryClient();
  const count = usePendingPosts(kind).length;
  if (count === 0) return null;
  return (
    <div className="sticky top-[106px] z-10 flex justify-center py-2">
      <button
        type="button"
        onClick={() => {
          showPendingPosts(queryClient, kind);
          window.scrollTo({ top: 0 });
        }}
        className="h-9 rounded-full bg-accent-strong px-4 text-[15px] font-bold text-white shadow-md hover:bg-accent-hover"
      >
        {t('{count, plural, one {Show # new post} other {Show # new posts}}', { count })}
      </button>
    </div>
  );
}
