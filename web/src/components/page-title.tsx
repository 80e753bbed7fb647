import { t } from '../i18n/i18n.ts';
import { useUnreadCount } from '../state/notifications.ts';

/**
 * The document title of a page, "<what> / Pipit", led by the viewer's unread notifications as
 * "(3) " — as the dot, it changes live and clears when they are read. React hoists it into <head>.
 */
export function PageTitle({ children }: { children: string }) {
  const unread = useUnreadCount();
  const count = unread > 99 ? '99+' : String(unread);
  return (
    <title>
      {unread > 0 ? t('({count}) {children} / Pipit', { count, children }) : t('{children} / Pipit', { children })}
    </title>
  );
}
