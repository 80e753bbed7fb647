import { hashtagOf } from '@pipit/contract';
import { useParams } from 'react-router';
import { NotFound } from '../../components/not-found.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { EmptyState } from '../../components/states.tsx';
import { FollowHashtagButton } from '../../features/hashtags/components/follow-hashtag-button.tsx';
import { PostList } from '../../features/posts/components/post-list.tsx';
import { t } from '../../i18n/i18n.ts';
import { useHashtagPosts } from '../../state/posts.ts';

function HashtagPosts({ tag }: { tag: string }) {
  const posts = useHashtagPosts(tag);
  return (
    <PostList
      query={posts}
      label={t('Posts with #{tag}', { tag })}
      empty={
        <EmptyState title={t('No posts with #{tag} yet', { tag })}>
          {t('When someone uses it, their posts show up here.')}
        </EmptyState>
      }
    />
  );
}

/** `/hashtag/:tag`, from a #hashtag in a post or Trending: its posts, newest first, for everyone; Follow (members) brings them Home. */
export function HashtagPage() {
  const { tag: written = '' } = useParams();
  // One page per tag, whatever its case or form in the link: #Pipit and #pipit are the same.
  const tag = hashtagOf(written);
  if (tag === null) return <NotFound message={t('This isn’t a hashtag.')} />;
  return (
    <>
      <PageTitle>{`#${tag}`}</PageTitle>
      <PageHeader title={`#${tag}`} back action={<FollowHashtagButton key={tag} tag={tag} />} />
      <HashtagPosts key={tag} tag={tag} />
    </>
  );
}
