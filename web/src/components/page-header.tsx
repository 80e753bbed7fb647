import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { t } from '../i18n/i18n.ts';
import { paths } from '../lib/paths.ts';

interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Inner pages get a back arrow. */
  back?: boolean;
  /** A control at the right end of the heading's row (a hashtag's Follow). */
  action?: ReactNode;
  children?: ReactNode;
}

/** The sticky heading at the top of the centre column. */
export function PageHeader({ title, subtitle, back, action, children }: PageHeaderProps) {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <header className="sticky top-0 z-20 border-b border-line bg-bg/85 backdrop-blur-md">
      <div className="flex min-h-[53px] items-center gap-6 px-4">
        {back && (
          <button
            type="button"
            aria-label={t('Back')}
            // A deep link has no history inside the app: go home instead of leaving.
            onClick={() => (location.key === 'default' ? navigate(paths.home) : navigate(-1))}
            className="-ms-2 grid size-9 shrink-0 place-items-center rounded-full hover:bg-fg/10"
          >
            <ArrowLeft aria-hidden="true" className="size-5 rtl:-scale-x-100" />
          </button>
        )}
        <div className="min-w-0 py-1">
          <h1 className="truncate text-xl font-bold leading-6">
            <bdi>{title}</bdi>
          </h1>
          {/* <bdi>: an "@username" keeps its @ in front on a right-to-left page. */}
          {subtitle && (
            <p className="truncate text-[13px] text-muted">
              <bdi>{subtitle}</bdi>
            </p>
          )}
        </div>
        {action && <div className="ms-auto shrink-0">{action}</div>}
      </div>
      {children}
    </header>
  );
}
