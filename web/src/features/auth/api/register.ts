import { api, type CurrentUser, type RegisterBody } from '@pipit/contract';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/register: creates the account (it does not sign in; the modal does that next). */
export const register = (body: RegisterBody) => apiFetch<CurrentUser>(api.register, { method: 'POST', body });

export const useRegister = () => useMutation({ mutationFn: register });
