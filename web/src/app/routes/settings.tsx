import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SettingsSection } from '../../components/settings-section.tsx';
import { SignInRequired } from '../../components/sign-in-required.tsx';
import { Spinner } from '../../components/states.tsx';
import { AuthorizedApps } from '../../features/apps/components/authorized-apps.tsx';
import { FollowedHashtags } from '../../features/hashtags/components/followed-hashtags.tsx';
import { ModerationLink, MyReports } from '../../features/moderation/components/my-reports.tsx';
import { BlockedAccounts, MutedAccounts, MutedWords } from '../../features/safety/components/safety-settings.tsx';
import { DataSection, DeleteAccountSection } from '../../features/settings/components/account-section.tsx';
import { Appearance } from '../../features/settings/components/appearance.tsx';
import { DeviceNotifications } from '../../features/settings/components/device-notifications.tsx';
import { EmailForm } from '../../features/settings/components/email-form.tsx';
import { PasswordForm } from '../../features/settings/components/password-form.tsx';
import { PostDefaults } from '../../features/settings/components/post-defaults.tsx';
import { Privacy } from '../../features/settings/components/privacy.tsx';
import { Reading } from '../../features/settings/components/reading.tsx';
import { SessionsList } from '../../features/settings/components/sessions-list.tsx';
import { t } from '../../i18n/i18n.ts';
import { paths } from '../../lib/paths.ts';
import { useViewer } from '../../state/viewer.tsx';

/** Where the posts not sent yet are: Drafts and Scheduled (also linked under the composer). */
function UnsentPosts() {
  return (
    <SettingsSection id="unsent-heading" title={t('Drafts and scheduled posts')} padded>
      <p className="text-[15px] text-muted">
        {t('Posts you saved to finish later, and posts waiting for their time.')}
      </p>
      <div className="mt-3 flex gap-4 text-[15px] font-bold">
        <Link to={paths.drafts} className="text-accent hover:underline">
          {t('Drafts')}
        </Link>
        <Link to={paths.scheduled} className="text-accent hover:underline">
          {t('Scheduled')}
        </Link>
      </div>
    </SettingsSection>
  );
}

/** Two-factor sign-in and passkeys: their own chunk (the WebAuthn library loads only when used). */
const SignInSecurity = lazy(() => import('../../features/settings/components/sign-in-security.tsx'));

/** `/settings`: the theme, the default post visibility, the member's password, email, signed-in sessions, muted words and accounts, blocked accounts; members only. */
export function SettingsPage() {
  const { status, user } = useViewer();
  return (
    <>
      <PageTitle>{t('Settings')}</PageTitle>
      <PageHeader title={t('Settings')} subtitle={user ? `@${user.username}` : undefined} />
      {status === 'loading' ? (
        <Spinner />
      ) : status === 'unauthenticated' ? (
        <SignInRequired title={t('Sign in to change your settings')}>
          {t(
            'Your password, your email, the browsers you are signed in on, and whom and what you muted or blocked are managed here.',
          )}
        </SignInRequired>
      ) : (
        <>
          <Appearance />
          {user && <PostDefaults current={user.defaultVisibility} />}
          <UnsentPosts />
          {user && <Privacy locked={user.locked} />}
          {user && <Reading expandSpoilers={user.expandSpoilers} />}
          <DeviceNotifications />
          <PasswordForm />
          {user && <EmailForm current={user.email} />}
          <Suspense fallback={<Spinner label={t('Loading sign-in security')} />}>
            <SignInSecurity />
          </Suspense>
          <SessionsList />
          <AuthorizedApps />
          <FollowedHashtags />
          <MutedWords />
          <MutedAccounts />
          <BlockedAccounts />
          <MyReports />
          <ModerationLink />
          <DataSection />
          <DeleteAccountSection />
        </>
      )}
    </>
  );
}
