import type { SessionInfo } from '@pipit/contract';
import { Button } from '../../../components/button.tsx';

import { ErrorState, Spinner } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { fullDate } from '../../../lib/format-time.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useEndSessions, useSessions } from '../api/settings.ts';

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iOS/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Firefox on Linux" from a User-Agent; "An unknown browser" when it says nothing we know. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return t('An unknown browser');
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? t('An unknown browser');
}

function SessionRow({ session }: { session: SessionInfo }) {
  const end = useEndSessions();
  const name = describeBrowser(session.userAgent);
  return (
    <li className="flex items-center gap-3 border-b border-line px-4 py-3">
      <div className="min-w-0 flex-1">
        <p className="truncate font-bold">{name}</p>
        <p className="text-[13px] text-muted">
          {session.current ? t('This browser') : t('Signed in {time}', { time: fullDate(session.createdAt) })}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          size="sm"
          aria-label={t('Sign out {name}', { name })}
          disabled={end.isPending}
          onClick={() =>
            end.mutate(session.id, {
              onSuccess: () => notify(t('Signed out {name}', { name })),
              onError: () => notifyError(t('Couldn’t sign that session out. Try again.')),
            })
          }
        >
          {t('Sign out')}
        </Button>
      )}
    </li>
  );
}

/** The member's signed-in browsers, this one first; each other one can be signed out, or all at once. */
export function SessionsList() {
  const sessions = useSessions();
  const end = useEndSessions();
  const others = sessions.data?.items.filter((s) => !s.current).length ?? 0;
  return (
    <section aria-labelledby="sessions-heading" className="border-t border-line">
      <div className="flex items-center gap-3 px-4 pt-4 pb-2">
        <h2 id="sessions-heading" className="flex-1 text-xl font-bold">
          {t('Sessions')}
        </h2>
        {others > 0 && (
          <Button
            variant="secondary"
            size="sm"
            disabled={end.isPending}
            onClick={() =>
              end.mutate(null, {
                onSuccess: () => notify(t('Signed out of every other session')),
                onError: () => notifyError(t('Couldn’t sign the other sessions out. Try again.')),
              })
            }
          >
            {t('Sign out all others')}
          </Button>
        )}
      </div>
      {sessions.isPending ? (
        <Spinner label={t('Loading sessions')} />
      ) : sessions.isError ? (
        <ErrorState message={t('Couldn’t load your sessions.')} onRetry={() => sessions.refetch()} />
      ) : (
        <ul aria-label={t('Signed-in sessions')}>
          {sessions.data.items.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </ul>
      )}
    </section>
  );
}
