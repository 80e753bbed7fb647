import type { DomainBlockBody, ResolveReportBody, RoleBody } from '@pipit/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { moderationKeys } from '../../../state/keys.ts';
import { moderated } from '../../../state/moderation.ts';
import { pagedQuery } from '../../../state/paged.ts';

/** GET /api/reports: the member's reports, newest first, with what came of each. */
export const useMyReports = () =>
  useInfiniteQuery(pagedQuery(moderationKeys.mine(), (cursor) => call('myReports', { query: { cursor } })));

/** GET /api/moderation/reports: the open queue (oldest first) or the closed reports (newest first). */
export const useModerationReports = (status: 'open' | 'closed') =>
  useInfiniteQuery(
    pagedQuery(moderationKeys.reports(status), (cursor) => call('moderationReports', { query: { status, cursor } })),
  );

/** GET /api/moderation/accounts: the suspended accounts, or the team. */
export const useModeratedAccounts = (filter: 'suspended' | 'team') =>
  useInfiniteQuery(
    pagedQuery(moderationKeys.accounts(filter), (cursor) => call('moderationAccounts', { query: { filter, cursor } })),
  );

/** GET /api/moderation/log: what moderators did, newest first. */
export const useAuditLog = () =>
  useInfiniteQuery(pagedQuery(moderationKeys.log(), (cursor) => call('auditLog', { query: { cursor } })));

/** POST /api/moderation/reports/:id/resolve. */
export function useResolveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string } & ResolveReportBody) =>
      call('resolveReport', { params: { id }, body: { action } }),
    onSuccess: () => moderated(queryClient),
  });
}

/** PUT /api/moderation/users/:id/role (admins). */
export function useSetRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string } & RoleBody) => call('setRole', { params: { id }, body: { role } }),
    onSuccess: () => moderated(queryClient),
  });
}

/** GET /api/moderation/domains: the blocked servers. */
export const useDomainBlocks = () =>
  useQuery({ queryKey: moderationKeys.domains(), queryFn: () => call('domainBlocks', {}) });

/** POST /api/moderation/domains (block) or DELETE /api/moderation/domains/:domain (lift); admins. */
export function useDomainBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { block: DomainBlockBody } | { lift: string }) =>
      'block' in change
        ? call('blockDomain', { body: change.block })
        : call('unblockDomain', { params: { domain: change.lift } }),
    onSuccess: () => moderated(queryClient),
  });
}
