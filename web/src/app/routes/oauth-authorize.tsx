import { useLocation } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { authorizationQueryOf, Consent } from '../../features/apps/components/consent.tsx';
import { t } from '../../i18n/i18n.ts';

/** `/oauth/authorize`: a Mastodon app asks to use the member's account (OAuth 2's consent page). */
export function OAuthAuthorizePage() {
  const { search } = useLocation();
  return (
    <>
      <PageTitle>{t('Authorize an app')}</PageTitle>
      <PageHeader title={t('Authorize an app')} />
      <Consent query={authorizationQueryOf(search)} />
    </>
  );
}
