import type { RegisterBody } from '@pipit/contract';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

/** POST /api/register: creates the account (it does not sign in; the modal does that next). */
export const useRegister = () => useMutation({ mutationFn: (body: RegisterBody) => call('register', { body }) });
