import { createBrowserRouter, isRouteErrorResponse, type RouteObject, useRouteError } from 'react-router';
import { t } from '../i18n/i18n.ts';
import { patterns } from '../lib/paths.ts';
import { RootLayout } from './layout/root-layout.tsx';

// One chunk per page (1–2 kB gzip each), loaded through React Router's own `lazy`: a first visit
// loads only the shell and the page it asked for, and the others when someone goes there (the
// router fetches the chunk before it navigates, so the old page stays until the new one can show).
// Prefetching them all when idle cost ~18 kB on every first visit (bench/README.md, web budget).
const page =
  <M,>(load: () => Promise<M>, pick: (module: M) => RouteObject['Component']) =>
  async () => ({ Component: pick(await load()) });

/** A render error or a page chunk that no longer exists (a deploy happened): offer a reload. */
function AppError() {
  const error = useRouteError();
  console.error(error);
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : t('Something went wrong.');
  return (
    <div role="alert" className="mx-auto max-w-sm px-8 py-16">
      <p className="text-[31px] font-extrabold leading-9">{message}</p>
      <p className="mt-2 text-[15px] text-muted">{t('Reloading the page usually helps.')}</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="mt-6 h-9 rounded-full bg-accent-strong px-4 font-bold text-white hover:bg-accent-hover"
      >
        {t('Reload')}
      </button>
    </div>
  );
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <AppError />,
    // While the first page's chunk loads, the shell shows with skeletons in the centre column.
    hydrateFallbackElement: <RootLayout pending />,
    children: [
      {
        path: patterns.home,
        lazy: page(
          () => import('./routes/home.tsx'),
          (m) => m.HomePage,
        ),
      },
      {
        path: patterns.notifications,
        lazy: page(
          () => import('./routes/notifications.tsx'),
          (m) => m.NotificationsPage,
        ),
      },
      {
        path: patterns.messages,
        lazy: page(
          () => import('./routes/messages.tsx'),
          (m) => m.MessagesPage,
        ),
      },
      {
        path: patterns.search,
        lazy: page(
          () => import('./routes/search.tsx'),
          (m) => m.SearchPage,
        ),
      },
      {
        path: patterns.settings,
        lazy: page(
          () => import('./routes/settings.tsx'),
          (m) => m.SettingsPage,
        ),
      },
      {
        path: patterns.moderation,
        lazy: page(
          () => import('./routes/moderation.tsx'),
          (m) => m.ModerationPage,
        ),
      },
      {
        path: patterns.oauthAuthorize,
        lazy: page(
          () => import('./routes/oauth-authorize.tsx'),
          (m) => m.OAuthAuthorizePage,
        ),
      },
      {
        path: patterns.resetPassword,
        lazy: page(
          () => import('./routes/reset-password.tsx'),
          (m) => m.ResetPasswordPage,
        ),
      },
      {
        path: patterns.followRequests,
        lazy: page(
          () => import('./routes/follow-requests.tsx'),
          (m) => m.FollowRequestsPage,
        ),
      },
      {
        path: patterns.bookmarks,
        lazy: page(
          () => import('./routes/bookmarks.tsx'),
          (m) => m.BookmarksPage,
        ),
      },
      {
        path: patterns.drafts,
        lazy: page(
          () => import('./routes/drafts.tsx'),
          (m) => m.DraftsPage,
        ),
      },
      {
        path: patterns.scheduled,
        lazy: page(
          () => import('./routes/scheduled.tsx'),
          (m) => m.ScheduledPage,
        ),
      },
      {
        path: patterns.lists,
        lazy: page(
          () => import('./routes/lists.tsx'),
          (m) => m.ListsPage,
        ),
      },
      {
        path: patterns.list,
        lazy: page(
          () => import('./routes/list.tsx'),
          (m) => m.ListPage,
        ),
      },
      {
        path: patterns.user,
        lazy: page(
          () => import('./routes/user.tsx'),
          (m) => m.UserPage,
        ),
      },
      {
        path: patterns.followers,
        lazy: page(
          () => import('./routes/people.tsx'),
          (m) => m.FollowersPage,
        ),
      },
      {
        path: patterns.following,
        lazy: page(
          () => import('./routes/people.tsx'),
          (m) => m.FollowingPage,
        ),
      },
      {
        path: patterns.post,
        lazy: page(
          () => import('./routes/post.tsx'),
          (m) => m.PostPage,
        ),
      },
      {
        path: patterns.hashtag,
        lazy: page(
          () => import('./routes/hashtag.tsx'),
          (m) => m.HashtagPage,
        ),
      },
      {
        path: '*',
        lazy: page(
          () => import('./routes/not-found.tsx'),
          (m) => m.NotFoundPage,
        ),
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
