import type { Draft, ScheduledPost } from '@pipit/contract';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';
import { unsentKeys } from './keys.ts';

/**
 * Posts not sent yet: the member's drafts (latest edited first) and scheduled posts (soonest first),
 * each list one answer (at most 100 drafts, 300 scheduled).
 */
export const draftsQueryOptions = () =>
  queryOptions({ queryKey: unsentKeys.drafts(), queryFn: async () => (await call('drafts')).items });
export const useDrafts = ({ enabled = true } = {}) => useQuery({ ...draftsQueryOptions(), enabled });

export const scheduledQueryOptions = () =>
  queryOptions({ queryKey: unsentKeys.scheduled(), queryFn: async () => (await call('scheduledPosts')).items });
export const useScheduledPosts = ({ enabled = true } = {}) => useQuery({ ...scheduledQueryOptions(), enabled });

/** A draft saved: first in the list (the latest edited). */
export function draftSaved(queryClient: QueryClient, draft: Draft) {
  queryClient.setQueryData<Draft[]>(unsentKeys.drafts(), (drafts) =>
    drafts ? [draft, ...drafts.filter((d) => d.id !== draft.id)] : drafts,
  );
}

export function draftDeleted(queryClient: QueryClient, id: string) {
  queryClient.setQueryData<Draft[]>(unsentKeys.drafts(), (drafts) => drafts?.filter((d) => d.id !== id));
}

/** A scheduled post made or changed: in the list, soonest first. */
export function scheduledSaved(queryClient: QueryClient, post: ScheduledPost) {
  queryClient.setQueryData<ScheduledPost[]>(unsentKeys.scheduled(), (posts) =>
    posts
      ? [...posts.filter((p) => p.id !== post.id), post].sort(
          (a, b) => a.scheduledAt.localeCompare(b.scheduledAt) || Number(a.id) - Number(b.id),
        )
      : posts,
  );
}

export function scheduledCancelled(queryClient: QueryClient, id: string) {
  queryClient.setQueryData<ScheduledPost[]>(unsentKeys.scheduled(), (posts) => posts?.filter((p) => p.id !== id));
}
