import type { CreateListBody, UpdateListBody } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { postKeys } from '../../../state/keys.ts';
import { listChanged, listDeleted, listMembersChanged } from '../../../state/lists.ts';

/** Creates a list; the answer joins the viewer's lists. */
export function useCreateList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateListBody) => call('createList', { body }),
    onSuccess: (list) => listChanged(queryClient, list),
  });
}

/** Changes a list's title, replies policy or exclusive; its timeline and Home are asked again. */
export function useUpdateList(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateListBody) => call('updateList', { params: { id }, body }),
    onSuccess: (list) => {
      listChanged(queryClient, list);
      queryClient.invalidateQueries({ queryKey: postKeys.listTimeline(id) });
      queryClient.invalidateQueries({ queryKey: postKeys.timeline('following') });
    },
  });
}

export function useDeleteList(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('deleteList', { params: { id } }),
    onSuccess: () => listDeleted(queryClient, id),
  });
}

/** Adds or removes someone (the server answers the person). */
export function useListMember(id: string) {
  const queryClient = useQueryClient();
  const settled = () => listMembersChanged(queryClient, id);
  const add = useMutation({
    mutationFn: (userId: string) => call('addListMember', { params: { id, userId } }),
    onSettled: settled,
  });
  const remove = useMutation({
    mutationFn: (userId: string) => call('removeListMember', { params: { id, userId } }),
    onSettled: settled,
  });
  return { add, remove };
}
