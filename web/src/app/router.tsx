import { lazy } from 'react';
import { createBrowserRouter, isRouteErrorResponse, useRouteError } from 'react-router';
import { RootLayout } from './layout/root-layout.tsx';

// One chunk per page (1–2 kB gzip each): a first visit loads only the shell and the page it asked
// for, and the others when someone goes there. Prefetching them all when idle cost ~18 kB on every
// first visit (bench/README.md, web budget).
const pages = {
  home: () => import('./routes/home.tsx'),
  notifications: () => import('./routes/notifications.tsx'),
  user: () => import('./routes/user.tsx'),
  post: () => import('./routes/post.tsx'),
  hashtag: () => import('./routes/hashtag.tsx'),
  notFound: () => import('./routes/not-found.tsx'),
};
const HomePage = lazy(() => pages.home().then((m) => ({ default: m.HomePage })));
const NotificationsPage = lazy(() => pages.notifications().then((m) => ({ default: m.NotificationsPage })));
const UserPage = lazy(() => pages.user().then((m) => ({ default: m.UserPage })));
const PostPage = lazy(() => pages.post().then((m) => ({ default: m.PostPage })));
const HashtagPage = lazy(() => pages.hashtag().then((m) => ({ default: m.HashtagPage })));
const NotFoundPage = lazy(() => pages.notFound().then((m) => ({ default: m.NotFoundPage })));

/** A render error or a page chunk that no longer exists (a deploy happened): offer a reload. */
function AppError() {
  const error = useRouteError();
  console.error(error);
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'Something went wrong.';
  return (
    <div role="alert" className="mx-auto max-w-sm px-8 py-16">
      <p className="text-[31px] font-extrabold leading-9">{message}</p>
      <p className="mt-2 text-[15px] text-muted">Reloading the page usually helps.</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="mt-6 h-9 rounded-full bg-accent-strong px-4 font-bold text-white hover:bg-accent-hover"
      >
        Reload
      </button>
    </div>
  );
}

export const routes = [
  {
    element: <RootLayout />,
    errorElement: <AppError />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'notifications', element: <NotificationsPage /> },
      { path: 'users/:id', element: <UserPage /> },
      { path: 'posts/:id', element: <PostPage /> },
      { path: 'hashtag/:tag', element: <HashtagPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
