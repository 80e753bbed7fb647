import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

/** POST /api/password-reset: a link by email (the answer is the same whether or not the email has an account). */
export const useRequestPasswordReset = () =>
  useMutation({ mutationFn: (email: string) => call('requestPasswordReset', { body: { email } }) });

/** POST /api/password-reset/confirm: the link's token and the new password. */
export const useResetPassword = () =>
  useMutation({
    mutationFn: (body: { token: string; password: string }) => call('resetPassword', { body }),
  });
