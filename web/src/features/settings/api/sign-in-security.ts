import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { settingsKeys } from '../../../state/keys.ts';

/** GET /api/settings/two-factor: on or off, and the recovery codes left. */
export const useTwoFactor = () =>
  useQuery({ queryKey: settingsKeys.twoFactor(), queryFn: () => call('twoFactorStatus') });

/** POST /api/settings/two-factor/setup: a new secret (QR code) to confirm. */
export const useTwoFactorSetup = () =>
  useMutation({
    mutationFn: (body: { password: string; code?: string }) => call('twoFactorSetup', { body }),
  });

/** POST /api/settings/two-factor/enable: on, with the recovery codes (shown once). */
export function useTwoFactorEnable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call('twoFactorEnable', { body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.twoFactor() }),
  });
}

/** DELETE /api/settings/two-factor: the password and a code. */
export function useTwoFactorDisable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { password: string; code: string }) => call('twoFactorDisable', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.twoFactor() }),
  });
}

/** GET /api/passkeys. */
export const usePasskeys = () => useQuery({ queryKey: settingsKeys.passkeys(), queryFn: () => call('passkeys') });

/**
 * Adds a passkey: the options (password first), the browser's own prompt (@simplewebauthn/browser,
 * loaded only now), then POST /api/passkeys with the answer and its name.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, password }: { name: string; password: string }) => {
      const optionsJSON = await call('passkeyOptions', { body: { password } });
      const { startRegistration } = await import('@simplewebauthn/browser');
      const response = await startRegistration({ optionsJSON: optionsJSON as never });
      return call('addPasskey', { body: { name, response: response as never } });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.passkeys() }),
  });
}

/** DELETE /api/passkeys/:id. */
export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('removePasskey', { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.passkeys() }),
  });
}
