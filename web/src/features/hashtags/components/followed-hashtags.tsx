import { Hash } from 'lucide-react';
import { Link } from 'react-router';
import { ListFooter } from '../../../components/list-footer.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { ErrorState, Spinner } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { paths } from '../../../lib/paths.ts';
import { useFollowedHashtags } from '../../../state/hashtags.ts';
import { FollowHashtagButton } from './follow-hashtag-button.tsx';

/**
 * Settings → Followed hashtags: the tags the member follows, newest first, each linking to its page
 * with its Following button (an unfollow keeps the row until the list is fetched again: one click undoes it).
 */
export function FollowedHashtags() {
  const query = useFollowedHashtags();
  const tags = query.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <SettingsSection id="followed-hashtags-heading" title={t('Followed hashtags')}>
      <p className="px-4 pb-3 text-[15px] text-muted">
        {t('Public posts with a hashtag you follow show up in your Home, next to the posts of the people you follow.')}
      </p>
      {query.isPending ? (
        <Spinner label={t('Loading followed hashtags')} />
      ) : query.isError ? (
        <ErrorState message={t('Couldn’t load the hashtags you follow.')} onRetry={() => query.refetch()} />
      ) : tags.length === 0 ? (
        <p className="px-4 pb-4 text-[15px] text-muted">
          {t('You don’t follow any hashtags yet. Open a hashtag and choose Follow to see its posts in your Home.')}
        </p>
      ) : (
        <ul aria-label={t('Followed hashtags')}>
          {tags.map(({ tag, following }) => (
            <li key={tag} className="flex items-center gap-3 border-b border-line px-4 py-3">
              <span aria-hidden="true" className="grid size-10 shrink-0 place-items-center rounded-full bg-fg/10">
                <Hash className="size-5" />
              </span>
              <Link
                to={paths.hashtag(tag)}
                className="min-w-0 flex-1 truncate font-bold hover:underline [overflow-wrap:anywhere]"
              >
                <bdi>#{tag}</bdi>
              </Link>
              <FollowHashtagButton tag={tag} following={following} size="sm" />
            </li>
          ))}
        </ul>
      )}
      <ListFooter query={query} noun={t('followed hashtags')} />
    </SettingsSection>
  );
}
