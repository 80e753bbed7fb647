import { Link } from 'react-router';
import { t } from '../i18n/i18n.ts';
import { paths } from '../lib/paths.ts';
import { PageHeader } from './page-header.tsx';
import { PageTitle } from './page-title.tsx';

/** The 404 view, for unknown routes, users and posts. */
export function NotFound({ message = t('This page doesn’t exist.') }: { message?: string }) {
  return (
    <>
      <PageTitle>{t('Page not found')}</PageTitle>
      <PageHeader title={t('Not found')} back />
      <div className="mx-auto max-w-sm px-8 py-12">
        <p className="text-[31px] font-extrabold leading-9">{message}</p>
        <p className="mt-2 text-[15px] text-muted">{t('The link may be broken, or the page may have been removed.')}</p>
        <Link
          to={paths.home}
          className="mt-6 inline-flex h-9 items-center rounded-full bg-accent-strong px-4 font-bold text-white hover:bg-accent-hover"
        >
          {t('Go to Home')}
        </Link>
      </div>
    </>
  );
}
