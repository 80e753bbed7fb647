import type { DraftPostBody, SchedulePostBody, UpdateScheduledPostBody } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { draftDeleted, draftSaved, scheduledCancelled, scheduledSaved } from '../../../state/unsent.ts';

/** Saves the composer's post as a draft: a new one, or the draft it was opened from (replaced whole). */
export function useSaveDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, post }: { id: string | null; post: DraftPostBody }) =>
      id ? call('updateDraft', { params: { id }, body: { post } }) : call('createDraft', { body: { post } }),
    onSuccess: (draft) => draftSaved(queryClient, draft),
  });
}

export function useDeleteDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('deleteDraft', { params: { id } }),
    onSuccess: (_, id) => draftDeleted(queryClient, id),
  });
}

export function useSchedulePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SchedulePostBody) => call('schedulePost', { body }),
    onSuccess: (post) => scheduledSaved(queryClient, post),
  });
}

export function useUpdateScheduledPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateScheduledPostBody }) =>
      call('updateScheduledPost', { params: { id }, body }),
    onSuccess: (post) => scheduledSaved(queryClient, post),
  });
}

export function useCancelScheduledPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('cancelScheduledPost', { params: { id } }),
    onSuccess: (_, id) => scheduledCancelled(queryClient, id),
  });
}
