import { AUTHORIZATION_QUERY_FIELDS, type AuthorizationQuery } from '@pipit/contract';
import { Check } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { EmptyState, Spinner } from '../../../components/states.tsx';
import { t } from '../../../i18n/i18n.ts';
import { rich } from '../../../i18n/rich.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { openModal } from '../../../lib/modals.ts';
import { notifyError } from '../../../lib/toast.tsx';
import { useViewer } from '../../../state/viewer.tsx';
import { useAuthorization, useDecideAuthorization } from '../api/apps.ts';
import { scopeText } from '../scopes.ts';

/** The OAuth fields of the page's query (anything else, e.g. the sign-in's own, left out). */
export function authorizationQueryOf(search: string): AuthorizationQuery {
  const params = new URLSearchParams(search);
  const query: AuthorizationQuery = {};
  for (const field of AUTHORIZATION_QUERY_FIELDS) {
    const value = params.get(field);
    if (value !== null) query[field] = value;
  }
  return query;
}

/**
 * The consent page of a Mastodon app (/oauth/authorize): who asks, for what, as whom; "Authorize"
 * sends the browser back to the app with a code (or shows the code, for an app without a page);
 * "Deny" tells the app no.
 */
export function Consent({ query }: { query: AuthorizationQuery }) {
  const { status, user } = useViewer();
  const request = useAuthorization(query, status === 'authenticated');
  const decide = useDecideAuthorization();
  const [shown, setShown] = useState<{ code: string } | { denied: true } | null>(null);

  if (status === 'loading') return <Spinner />;
  if (status === 'unauthenticated' || !user) {
    return (
      <EmptyState
        title={t('Sign in to authorize the app')}
        action={<Button onClick={() => openModal('login')}>{t('Sign in')}</Button>}
      >
        {t('An app asks to use your Pipit account. Sign in, then choose whether to let it.')}
      </EmptyState>
    );
  }
  if (request.isPending) return <Spinner label={t("Loading the app's request")} />;
  if (request.isError) {
    const message =
      request.error instanceof ApiRequestError && request.error.status < 500
        ? request.error.message
        : t('Couldn’t load the request. Try again.');
    return (
      <EmptyState title={t('This request doesn’t work')}>
        {t('{message} Go back to the app and sign in again.', { message })}
      </EmptyState>
    );
  }
  const { app, scopes } = request.data;

  if (shown && 'code' in shown) {
    return (
      <div className="px-4 py-6">
        <h2 className="text-xl font-bold">{t('Copy this code into {app}', { app: app.name })}</h2>
        <p className="mt-2 text-[15px] text-muted">{t('It works once, for 10 minutes.')}</p>
        <input
          readOnly
          aria-label={t('Authorization code')}
          value={shown.code}
          onFocus={(event) => event.currentTarget.select()}
          className="mt-4 w-full rounded-md border border-line-strong bg-transparent px-3 py-2.5 font-mono text-[15px]"
        />
      </div>
    );
  }
  if (shown) {
    return (
      <EmptyState title={t('You denied access')}>
        {t('{app} can’t use your account. You can close this page.', { app: app.name })}
      </EmptyState>
    );
  }

  const answer = (decision: 'approve' | 'deny') =>
    decide.mutate(
      { ...query, decision },
      {
        onSuccess: (result) => {
          if (result.redirectTo) window.location.assign(result.redirectTo);
          else setShown(result.code ? { code: result.code } : { denied: true });
        },
        onError: (error) =>
          notifyError(
            error instanceof ApiRequestError && error.status < 500
              ? error.message
              : t('Something went wrong. Try again.'),
          ),
      },
    );

  return (
    <div className="px-4 py-6">
      <h2 className="text-[23px] font-extrabold leading-7">
        {t('{app} wants to use your account', { app: app.name })}
      </h2>
      {app.website && <p className="mt-1 text-[15px] text-muted break-all">{app.website}</p>}
      <p className="mt-4 text-[15px]">
        {rich(
          t('Signed in as <0>@{username}</0>. If you authorize it, it will be able to:', { username: user.username }),
          [(name) => <strong>{name}</strong>],
        )}
      </p>
      <ul aria-label={t('What the app may do')} className="mt-3 space-y-2">
        {scopes.map((scope) => (
          <li key={scope} className="flex gap-2 text-[15px]">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
            {scopeText(scope)}
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm text-muted">{t('You can take it back at any time in Settings → Authorized apps.')}</p>
      <div className="mt-6 grid gap-3 sm:grid-cols-2">
        <Button size="lg" disabled={decide.isPending} onClick={() => answer('approve')}>
          {t('Authorize')}
        </Button>
        <Button variant="secondary" size="lg" disabled={decide.isPending} onClick={() => answer('deny')}>
          {t('Deny')}
        </Button>
      </div>
    </div>
  );
}
