import type { EditBody } from '@pipit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { profileChanged } from '../../../state/users.ts';

/** PATCH /api/edit. Images: a data URL (new), the current URL (kept) or null (removed). */
export function useEditProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditBody) => call('edit', { body }),
    onSuccess: (me) => profileChanged(queryClient, me),
  });
}
