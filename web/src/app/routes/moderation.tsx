import { canModerate } from '@pipit/contract';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { EmptyState, Spinner } from '../../components/states.tsx';
import { Tabs } from '../../components/tabs.tsx';
import {
  AuditLogList,
  ReportList,
  SuspendedList,
  TeamList,
} from '../../features/moderation/components/moderation-lists.tsx';
import { ServersList } from '../../features/moderation/components/servers-list.tsx';
import { m, t } from '../../i18n/i18n.ts';
import { useViewer } from '../../state/viewer.tsx';

type Tab = 'open' | 'closed' | 'suspended' | 'servers' | 'team' | 'log';
const TABS: Array<{ value: Tab; label: string }> = [
  { value: 'open', label: m('Reports') },
  { value: 'closed', label: m('Closed') },
  { value: 'suspended', label: m('Suspended') },
  { value: 'servers', label: m('Servers') },
  { value: 'team', label: m('Team') },
  { value: 'log', label: m('Log') },
];
const PANEL = 'moderation-panel';
const tabId = (tab: Tab) => `moderation-tab-${tab}`;

/**
 * `/moderation`: the open reports (oldest first) with their actions, closed reports, suspended
 * accounts, blocked servers, the team (admins name moderators here) and the audit log. Moderators and admins only.
 */
export function ModerationPage() {
  const { status, user } = useViewer();
  const [tab, setTab] = useState<Tab>('open');
  const allowed = user !== null && canModerate(user.role);
  return (
    <>
      <PageTitle>{t('Moderation')}</PageTitle>
      <PageHeader
        title={t('Moderation')}
        subtitle={allowed ? (user.role === 'admin' ? t('Admin') : t('Moderator')) : undefined}
      >
        {allowed && (
          <Tabs tabs={TABS} value={tab} onChange={setTab} label={t('Moderation')} tabId={tabId} panelId={PANEL} />
        )}
      </PageHeader>
      {status === 'loading' ? (
        <Spinner />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title={t('Sign in to moderate')}>
          {t('Reports and moderation tools are here for moderators.')}
        </SignInRequired>
      ) : !allowed ? (
        <EmptyState title={t('For moderators only')}>
          {t(
            'This page is where moderators handle reports. To report a post or an account, use its flag or its More menu.',
          )}
        </EmptyState>
      ) : (
        <div role="tabpanel" id={PANEL} aria-labelledby={tabId(tab)}>
          {tab === 'open' || tab === 'closed' ? (
            <ReportList key={tab} status={tab} />
          ) : tab === 'suspended' ? (
            <SuspendedList />
          ) : tab === 'servers' ? (
            <ServersList admin={user.role === 'admin'} />
          ) : tab === 'team' ? (
            <TeamList admin={user.role === 'admin'} />
          ) : (
            <AuditLogList />
          )}
        </div>
      )}
    </>
  );
}
