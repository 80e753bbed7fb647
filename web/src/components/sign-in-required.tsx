import { type ReactNode, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { t } from '../i18n/i18n.ts';
import { openModal } from '../lib/modals.ts';
import { Button } from './button.tsx';
import { EmptyState } from './states.tsx';

/**
 * The seed's "required session missing": the sign-in page with `error=SessionRequired` and the
 * callbackUrl. Pipit's sign-in page is the Login modal over the page that needs it (the URL stays
 * here, so signing out on this page stays here too); once signed in, the page shows. For every members-only page (Notifications, Bookmarks).
 */
export function SignInRequired({ title, children }: { title: string; children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    const params = new URLSearchParams(location.search);
    if (params.get('error') === 'SessionRequired') return;
    params.set('callbackUrl', `${window.location.origin}${location.pathname}`);
    params.set('error', 'SessionRequired');
    navigate({ search: `?${params}` }, { replace: true });
  }, [navigate, location]);

  return (
    <EmptyState title={title} action={<Button onClick={() => openModal('login')}>{t('Sign in')}</Button>}>
      {children}
    </EmptyState>
  );
}
