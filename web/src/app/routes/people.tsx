import type { User } from '@pipit/contract';
import { useMemo } from 'react';
import { NavLink, useParams } from 'react-router';
import { ListFooter } from '../../components/list-footer.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { EmptyState, ErrorState, PostSkeletons } from '../../components/states.tsx';
import { TabLabel } from '../../components/tabs.tsx';
import { PersonRow } from '../../features/profile/components/person-row.tsx';
import { m, t } from '../../i18n/i18n.ts';
import { isNotFound } from '../../lib/api-client.ts';
import { isId } from '../../lib/ids.ts';
import { paths } from '../../lib/paths.ts';
import type { PeopleKind } from '../../state/keys.ts';
import { pageItems } from '../../state/paged.ts';
import { usePeople, useUser } from '../../state/users.ts';
import { useViewer } from '../../state/viewer.tsx';

const TABS: Array<{ which: PeopleKind; label: string; to: (id: string) => string }> = [
  { which: 'followers', label: m('Followers'), to: paths.followers },
  { which: 'following', label: m('Following'), to: paths.following },
];

/** Followers and Following of one person: links to the two pages, styled as the timeline's tabs. */
function PeopleTabs({ id }: { id: string }) {
  return (
    <nav aria-label={t('People')} className="flex">
      {TABS.map((tab) => (
        <NavLink
          key={tab.which}
          to={tab.to(id)}
          replace
          end
          className="group flex h-[53px] flex-1 justify-center hover:bg-fg/10"
        >
          {({ isActive }) => <TabLabel label={tab.label} current={isActive} />}
        </NavLink>
      ))}
    </nav>
  );
}

function PeopleList({ id, which, name, own }: { id: string; which: PeopleKind; name: string; own: boolean }) {
  const query = usePeople(id, which);
  const people = useMemo(() => pageItems<User>(query.data), [query.data]);

  if (query.isPending) return <PostSkeletons />;
  if (query.isError && !query.data) {
    return <ErrorState message={t('Couldn’t load these people.')} onRetry={() => query.refetch()} />;
  }
  if (people.length === 0) {
    return which === 'followers' ? (
      <EmptyState title={own ? t('You don’t have followers yet') : t('No followers yet')}>
        {own
          ? t('When someone follows you, they’ll be listed here.')
          : t('When someone follows {name}, they’ll be listed here.', { name })}
      </EmptyState>
    ) : (
      <EmptyState title={own ? t('You aren’t following anyone yet') : t('Not following anyone yet')}>
        {own
          ? t('When you follow someone, they’ll be listed here.')
          : t('When {name} follows someone, they’ll be listed here.', { name })}
      </EmptyState>
    );
  }
  return (
    <section
      aria-label={which === 'followers' ? t('Followers of {name}', { name }) : t('People {name} follows', { name })}
    >
      <ul>
        {people.map((person) => (
          <PersonRow key={person.id} person={person} />
        ))}
      </ul>
      <ListFooter query={query} noun={t('people')} />
    </section>
  );
}

function PeopleView({ id, which }: { id: string; which: PeopleKind }) {
  const user = useUser(id);
  const { user: me } = useViewer();
  if (user.isError && isNotFound(user.error)) return <NotFound message={t('This account doesn’t exist.')} />;
  const data = user.data;
  return (
    <>
      {data && (
        <PageTitle>
          {which === 'followers'
            ? t('People following {name} (@{username})', { name: data.name, username: data.username })
            : t('People followed by {name} (@{username})', { name: data.name, username: data.username })}
        </PageTitle>
      )}
      <PageHeader title={data?.name ?? t('Profile')} subtitle={data ? `@${data.username}` : undefined} back>
        <PeopleTabs id={id} />
      </PageHeader>
      {user.isError ? (
        <ErrorState message={t('Couldn’t load this profile.')} onRetry={() => user.refetch()} />
      ) : data ? (
        <PeopleList key={which} id={id} which={which} name={data.name} own={me?.id === id} />
      ) : (
        <PostSkeletons />
      )}
    </>
  );
}

function PeoplePage({ which }: { which: PeopleKind }) {
  const { id = '' } = useParams();
  if (!isId(id)) return <NotFound message={t('This account doesn’t exist.')} />;
  return <PeopleView key={id} id={id} which={which} />;
}

export const FollowersPage = () => <PeoplePage which="followers" />;
export const FollowingPage = () => <PeoplePage which="following" />;
