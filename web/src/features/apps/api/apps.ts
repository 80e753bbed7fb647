import type { AuthorizationDecision, AuthorizationQuery } from '@pipit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { settingsKeys } from '../../../state/keys.ts';

/** GET /api/oauth/authorization: what the app asks for (the consent page), once the member is known. */
export const useAuthorization = (query: AuthorizationQuery, enabled: boolean) =>
  useQuery({
    queryKey: ['oauth', 'authorization', query],
    queryFn: () => call('authorization', { query }),
    enabled,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** POST /api/oauth/authorization: Authorize or Deny. */
export function useDecideAuthorization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AuthorizationDecision) => call('decideAuthorization', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.apps() }),
  });
}

/** GET /api/oauth/apps: Settings → Authorized apps. */
export const useAuthorizedApps = () =>
  useQuery({ queryKey: settingsKeys.apps(), queryFn: () => call('authorizedApps') });

/** DELETE /api/oauth/apps/:id: the app's access ends at once. */
export function useRevokeApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('revokeApp', { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.apps() }),
  });
}
