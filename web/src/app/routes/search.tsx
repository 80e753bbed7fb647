import type { User } from '@pipit/contract';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { EmptyState, ErrorState, PostSkeletons } from '../../components/states.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { PostList } from '../../features/posts/components/post-list.tsx';
import { PersonRow } from '../../features/profile/components/person-row.tsx';
import { SearchBox } from '../../features/search/components/search-box.tsx';
import { m, t } from '../../i18n/i18n.ts';
import { formatCount } from '../../lib/format-time.ts';
import { paths } from '../../lib/paths.ts';
import { useSearchPosts } from '../../state/posts.ts';
import { useSearchHashtags, useSearchPeople } from '../../state/search.ts';
import { useViewer } from '../../state/viewer.tsx';

type Tab = 'posts' | 'people' | 'hashtags';
/** A fediverse handle, `@user@host`. */
const HANDLE = /^@?[\w.-]+@[\w.-]+(:\d+)?$/;
const TABS: Array<{ value: Tab; label: string }> = [
  { value: 'posts', label: m('Posts') },
  { value: 'people', label: m('People') },
  { value: 'hashtags', label: m('Hashtags') },
];
const tabId = (tab: Tab) => `search-tab-${tab}`;
const PANEL = 'search-panel';

function NoResults({ q }: { q: string }) {
  return (
    <EmptyState title={t('No results for “{q}”', { q })}>{t('Try other words, or check the spelling.')}</EmptyState>
  );
}

function PostResults({ q }: { q: string }) {
  const posts = useSearchPosts(q);
  return <PostList query={posts} label={t('Posts matching {q}', { q })} empty={<NoResults q={q} />} />;
}

function PeopleResults({ q }: { q: string }) {
  // A member's search asks the server of a handle's person (`@user@host`); a visitor's finds whom Pipit knows.
  const { user } = useViewer();
  const people = useSearchPeople(q, 20, user !== null);
  if (people.isPending) return <PostSkeletons />;
  if (people.isError) return <ErrorState message={t('Couldn’t search people.')} onRetry={() => people.refetch()} />;
  if (people.data.items.length === 0) return <NoResults q={q} />;
  return (
    <section aria-label={t('People matching {q}', { q })}>
      <ul>
        {people.data.items.map((person: User) => (
          <PersonRow key={person.id} person={person} />
        ))}
      </ul>
    </section>
  );
}

function HashtagResults({ q }: { q: string }) {
  const tags = useSearchHashtags(q);
  if (tags.isPending) return <PostSkeletons />;
  if (tags.isError) return <ErrorState message={t('Couldn’t search hashtags.')} onRetry={() => tags.refetch()} />;
  if (tags.data.items.length === 0) return <NoResults q={q} />;
  return (
    <section aria-label={t('Hashtags matching {q}', { q })}>
      <ul>
        {tags.data.items.map((item) => (
          <li key={item.tag} className="border-b border-line">
            <Link to={paths.hashtag(item.tag)} className="block px-4 py-3 leading-5 hover:bg-fg/[0.03]">
              <span className="block truncate font-bold">
                <bdi>#{item.tag}</bdi>
              </span>
              <span className="block text-[13px] text-muted">
                {t('{count, plural, one {{shown} post} other {{shown} posts}}', {
                  count: item.posts,
                  shown: formatCount(item.posts),
                })}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `/search?q=&tab=`: the Search field, then results for posts, people and hashtags. */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const asked = params.get('tab');
  // A handle (`@user@host`) is a person: their tab first.
  const tab: Tab =
    asked === 'people' || asked === 'hashtags' || asked === 'posts' ? asked : HANDLE.test(q) ? 'people' : 'posts';
  const choose = (next: Tab) =>
    setParams(
      (old) => {
        const updated = new URLSearchParams(old);
        // Posts are the default tab, but for a handle (whose default is People).
        if (next === 'posts' && !HANDLE.test(q)) updated.delete('tab');
        else updated.set('tab', next);
        return updated;
      },
      { replace: true },
    );

  return (
    <>
      <PageTitle>{q ? t('{q} - Search', { q }) : t('Search')}</PageTitle>
      <PageHeader title={t('Search')}>
        <div className="px-4 pb-3">
          <SearchBox initial={q} autoFocus={!q} />
        </div>
        {/* Kept in the address (?tab=). */}
        {q && (
          <Tabs tabs={TABS} value={tab} onChange={choose} label={t('Search results')} tabId={tabId} panelId={PANEL} />
        )}
      </PageHeader>
      {q ? (
        <div role="tabpanel" id={PANEL} aria-labelledby={tabId(tab)}>
          {tab === 'posts' ? (
            <PostResults key={q} q={q} />
          ) : tab === 'people' ? (
            <PeopleResults q={q} />
          ) : (
            <HashtagResults q={q} />
          )}
        </div>
      ) : (
        <EmptyState title={t('Search Pipit')}>
          {t('Find posts by their words, people by name or @username, and #hashtags.')}
        </EmptyState>
      )}
    </>
  );
}
