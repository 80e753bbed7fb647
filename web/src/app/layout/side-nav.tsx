import { canModerate } from '@pipit/contract';
import {
  Bell,
  Bird,
  Bookmark,
  Feather,
  Home,
  List,
  LogOut,
  type LucideIcon,
  Mail,
  Search,
  Settings,
  Shield,
  User,
} from 'lucide-react';
import { lazy, type MouseEvent, Suspense, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { Avatar } from '../../components/avatar.tsx';
import { t } from '../../i18n/i18n.ts';
import { callbackPath } from '../../lib/callback-url.ts';
import { cn } from '../../lib/cn.ts';
import { useMembersOnly } from '../../lib/members-only.ts';
import { openModal } from '../../lib/modals.ts';
import { paths } from '../../lib/paths.ts';
import { signOut } from '../../lib/session.ts';
import { notifyError } from '../../lib/toast.tsx';
import { useUnreadConversations } from '../../state/conversations.ts';
import { useViewer } from '../../state/viewer.tsx';

const SignOutConfirm = lazy(() => import('./sign-out-confirm.tsx').then((m) => ({ default: m.SignOutConfirm })));

/** Below Tailwind's `sm`: the bottom bar, where Logout sits next to the other items and is easy to hit by mistake. */
const PHONE_QUERY = '(max-width: 639.98px)';
const onPhone = () => typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;

// On the phone's bottom bar the items share its width (nine of them fit 320 px); a column from sm up.
const itemClass =
  'group flex min-w-0 flex-1 items-center justify-center rounded-full p-2 text-fg transition-colors hover:bg-fg/10 sm:flex-none sm:p-3 xl:justify-start xl:gap-5 xl:pe-6';

function ItemContent({
  icon: Icon,
  label,
  active,
  dot,
  dotTestId = 'notification-dot',
}: {
  icon: LucideIcon;
  label: string;
  active?: boolean;
  dot?: boolean;
  dotTestId?: string;
}) {
  return (
    <>
      <span className="relative">
        <Icon aria-hidden="true" className="size-[26px]" strokeWidth={active ? 2.75 : 2} />
        {dot && (
          <span
            data-testid={dotTestId}
            aria-hidden="true"
            className="absolute -top-0.5 -end-0.5 size-2.5 rounded-full bg-accent ring-2 ring-bg"
          />
        )}
      </span>
      <span className={cn('sr-only text-xl xl:not-sr-only', active && 'font-bold')}>{label}</span>
    </>
  );
}

/**
 * The main navigation: a column on wide screens (icons only below 1280 px), a bottom bar on
 * phones. Members-only items open the login modal for visitors.
 */
export function SideNav() {
  const { status, user } = useViewer();
  const location = useLocation();
  const navigate = useNavigate();
  const signedIn = status === 'authenticated';
  const unreadMessages = useUnreadConversations();

  const ifMember = useMembersOnly();
  const membersOnly = (event: MouseEvent) => {
    if (signedIn && user) return;
    event.preventDefault();
    if (status === 'unauthenticated') openModal('login');
  };

  const [confirming, setConfirming] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  /**
   * The seed's sign-out: POST, tell the other tabs, then go to the url the server answers (the
   * page we are on). A members-only page then asks to sign in where it is.
   */
  const logout = async () => {
    setSigningOut(true);
    try {
      const { url } = await signOut({ redirect: false });
      setConfirming(false);
      const target = callbackPath(url);
      if (target && target !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
        await navigate(target);
      }
    } catch (error) {
      console.error('Sign-out failed:', error);
      notifyError(t('Couldn’t sign out. Try again.'));
    } finally {
      setSigningOut(false);
    }
  };

  const profilePath = user ? paths.user(user.id) : paths.home;
  const onProfile = Boolean(user) && location.pathname === profilePath;

  return (
    <nav
      aria-label={t('Main')}
      className="fixed inset-x-0 bottom-0 z-30 flex h-[60px] items-center justify-around border-t border-line bg-bg/95 pb-[env(safe-area-inset-bottom)] backdrop-blur sm:sticky sm:top-0 sm:h-dvh sm:w-[88px] sm:flex-col sm:items-center sm:justify-start sm:gap-1 sm:border-t-0 sm:bg-bg sm:px-2 sm:py-1 xl:w-[275px] xl:items-stretch xl:px-3"
    >
      <Link
        to={paths.home}
        aria-label="Pipit"
        className="hidden size-[52px] items-center justify-center rounded-full text-accent hover:bg-fg/10 sm:flex"
      >
        <Bird aria-hidden="true" className="size-8" />
      </Link>
      <NavLink to={paths.home} end className={itemClass}>
        {({ isActive }) => <ItemContent icon={Home} label={t('Home')} active={isActive} />}
      </NavLink>
      <NavLink to={paths.search()} className={itemClass}>
        {({ isActive }) => <ItemContent icon={Search} label={t('Search')} active={isActive} />}
      </NavLink>
      <NavLink
        to={paths.notifications}
        onClick={membersOnly}
        className={itemClass}
        aria-describedby={user?.hasNotification ? 'new-notifications' : undefined}
      >
        {({ isActive }) => (
          <ItemContent icon={Bell} label={t('Notifications')} active={isActive} dot={Boolean(user?.hasNotification)} />
        )}
      </NavLink>
      {user?.hasNotification && (
        <span id="new-notifications" className="sr-only">
          {t('You have new notifications')}
        </span>
      )}
      <NavLink
        to={paths.messages}
        onClick={membersOnly}
        className={itemClass}
        aria-describedby={unreadMessages > 0 ? 'unread-messages' : undefined}
      >
        {({ isActive }) => (
          <ItemContent
            icon={Mail}
            label={t('Messages')}
            active={isActive}
            dot={unreadMessages > 0}
            dotTestId="messages-dot"
          />
        )}
      </NavLink>
      {unreadMessages > 0 && (
        <span id="unread-messages" className="sr-only">
          {unreadMessages > 99
            ? t('99+ unread conversations')
            : t('{count, plural, one {# unread conversation} other {# unread conversations}}', {
                count: unreadMessages,
              })}
        </span>
      )}
      <NavLink to={paths.bookmarks} onClick={membersOnly} className={itemClass}>
        {({ isActive }) => <ItemContent icon={Bookmark} label={t('Bookmarks')} active={isActive} />}
      </NavLink>
      <NavLink to={paths.lists} onClick={membersOnly} className={itemClass}>
        {({ isActive }) => <ItemContent icon={List} label={t('Lists')} active={isActive} />}
      </NavLink>
      <Link to={profilePath} onClick={membersOnly} aria-current={onProfile ? 'page' : undefined} className={itemClass}>
        <ItemContent icon={User} label={t('Profile')} active={onProfile} />
      </Link>
      {user && canModerate(user.role) && (
        // Not on the phone's bottom bar (no room): Settings links to it there.
        <NavLink to={paths.moderation} className={cn(itemClass, 'hidden sm:flex')}>
          {({ isActive }) => <ItemContent icon={Shield} label={t('Moderation')} active={isActive} />}
        </NavLink>
      )}
      {signedIn && (
        <NavLink to={paths.settings} className={itemClass}>
          {({ isActive }) => <ItemContent icon={Settings} label={t('Settings')} active={isActive} />}
        </NavLink>
      )}
      {signedIn && (
        <button type="button" onClick={() => (onPhone() ? setConfirming(true) : logout())} className={itemClass}>
          <ItemContent icon={LogOut} label={t('Logout')} />
        </button>
      )}
      <button
        type="button"
        onClick={() => ifMember(() => openModal('compose'))}
        className="absolute end-4 bottom-[calc(100%+16px)] flex size-14 items-center justify-center rounded-full bg-accent-strong text-white shadow-lg shadow-black/50 transition-colors hover:bg-accent-hover sm:static sm:mt-3 sm:size-[52px] sm:shadow-none xl:h-[52px] xl:w-full"
      >
        <Feather aria-hidden="true" className="size-6 xl:hidden" />
        <span className="sr-only text-[17px] font-bold xl:not-sr-only">{t('Tweet')}</span>
      </button>
      {confirming && (
        <Suspense fallback={null}>
          <SignOutConfirm busy={signingOut} onConfirm={logout} onCancel={() => setConfirming(false)} />
        </Suspense>
      )}
      {user && (
        <Link
          to={profilePath}
          className="mt-auto mb-3 hidden items-center gap-3 rounded-full p-3 hover:bg-fg/10 xl:flex"
        >
          <Avatar user={user} link={false} />
          <span className="min-w-0 leading-5">
            <span className="block truncate font-bold">{user.name}</span>
            <span className="block truncate text-muted">
              <bdi>@{user.username}</bdi>
            </span>
          </span>
        </Link>
      )}
    </nav>
  );
}
