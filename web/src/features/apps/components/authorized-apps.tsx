import { Button } from '../../../components/button.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { ErrorState, Spinner } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { fullDate } from '../../../lib/format-time.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useAuthorizedApps, useRevokeApp } from '../api/apps.ts';
import { scopeText } from '../scopes.ts';

/** Settings → Authorized apps: the Mastodon apps using the account, each with Revoke (their access ends at once). */
export function AuthorizedApps() {
  const apps = useAuthorizedApps();
  const revoke = useRevokeApp();
  return (
    <SettingsSection id="authorized-apps" title={t('Authorized apps')}>
      {apps.isPending ? (
        <Spinner label={t('Loading your authorized apps')} />
      ) : apps.isError ? (
        <ErrorState message={t('Couldn’t load your authorized apps.')} onRetry={() => apps.refetch()} />
      ) : apps.data.items.length === 0 ? (
        <p className="px-4 pb-4 text-[15px] text-muted">
          {t(
            'No app uses your account. Mastodon apps (Ivory, Ice Cubes, Tusky, Elk…) can: give them this server’s address.',
          )}
        </p>
      ) : (
        <ul aria-label={t('Authorized apps')}>
          {apps.data.items.map((app) => (
            <li key={app.id} className="flex items-start gap-3 border-b border-line px-4 py-3">
              <div className="min-w-0 flex-1">
                <p className="truncate font-bold">{app.name}</p>
                <p className="text-sm text-muted">
                  {app.lastUsedAt
                    ? t('Authorized {authorized} · last used {used}', {
                        authorized: fullDate(app.authorizedAt),
                        used: fullDate(app.lastUsedAt),
                      })
                    : t('Authorized {authorized}', { authorized: fullDate(app.authorizedAt) })}
                </p>
                <p className="mt-1 text-sm text-muted">{app.scopes.map(scopeText).join(' · ')}</p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                disabled={revoke.isPending}
                onClick={() =>
                  revoke.mutate(app.id, {
                    onSuccess: () => notify(`${app.name} can no longer use your account`),
                    onError: () => notifyError(t('Could not revoke. Try again.')),
                  })
                }
              >
                {t('Revoke')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}
