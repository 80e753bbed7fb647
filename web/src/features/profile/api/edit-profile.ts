import { api, type CurrentUser, type EditBody } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { postKeys, userKeys } from '../../../lib/query-keys.ts';

/** PATCH /api/edit. Images: a data URL (new), the current URL (kept) or null (removed). */
export const editProfile = (body: EditBody) => apiFetch<CurrentUser>(api.edit, { method: 'PATCH', body });

export function useEditProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editProfile,
    onSuccess: async (me) => {
      queryClient.setQueryData(userKeys.current(), me);
      // The seed fetches the user again after a save; posts carry the name and avatar too.
      queryClient.invalidateQueries({ queryKey: postKeys.all });
      await queryClient.invalidateQueries({ queryKey: userKeys.detail(me.id) });
    },
  });
}
