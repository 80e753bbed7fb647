import type { ChangeEmailBody, ChangePasswordBody, Visibility } from '@pipit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { settingsKeys, userKeys } from '../../../state/keys.ts';
import { profileChanged } from '../../../state/users.ts';

/** GET /api/sessions: the member's signed-in browsers, this one first. */
export const useSessions = () => useQuery({ queryKey: settingsKeys.sessions(), queryFn: () => call('sessions') });

/** POST /api/settings/password; every other session ends, so the list is asked again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => call('changePassword', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.sessions() }),
  });
}

/** DELETE /api/sessions/:id, or POST /api/sessions/revoke-others without an id. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) =>
      id === null ? call('revokeOtherSessions') : call('revokeSession', { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.sessions() }),
  });
}

/** POST /api/settings/email: answers the member with the new email. */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeEmailBody) => call('changeEmail', { body }),
    onSuccess: (me) => profileChanged(queryClient, me),
  });
}

/**
 * PATCH /api/edit with `locked`: "Approve followers". Turning it off approves every waiting request,
 * so the requests list and the member's counts are asked again.
 */
export function useApproveFollowers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (locked: boolean) => call('edit', { body: { locked } }),
    onSuccess: async (me) => {
      queryClient.invalidateQueries({ queryKey: userKeys.followRequests() });
      await profileChanged(queryClient, me);
    },
  });
}

/** PATCH /api/edit with `expandSpoilers`: "Always expand posts with content warnings"; the profile takes the answer. */
export function useExpandSpoilers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (expandSpoilers: boolean) => call('edit', { body: { expandSpoilers } }),
    onSuccess: (me) => profileChanged(queryClient, me),
  });
}

/** DELETE /api/account, the password as proof. */
export const useDeleteAccount = () =>
  useMutation({ mutationFn: (password: string) => call('deleteAccount', { body: { password } }) });

/** PATCH /api/edit with the visibility new posts start with; the member's profile takes the answer. */
export function useSetDefaultVisibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (defaultVisibility: Visibility) => call('edit', { body: { defaultVisibility } }),
    onSuccess: (me) => profileChanged(queryClient, me),
  });
}
