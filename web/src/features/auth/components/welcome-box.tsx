import { Button } from '../../../components/button.tsx';
import { t } from '../../../i18n/i18n.ts';
import { openModal } from '../../../lib/modals.ts';

/** Home's greeting for visitors: what Pipit is and the two ways in. */
export function WelcomeBox() {
  return (
    <section aria-labelledby="welcome-title" className="border-b border-line px-4 py-5">
      <h2 id="welcome-title" className="text-xl font-extrabold">
        {t('Welcome to Pipit')}
      </h2>
      <p className="mt-1 text-[15px] text-muted">
        {t('Short messages from people you follow. Sign in to post, reply, like and follow.')}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button onClick={() => openModal('login')}>{t('Sign in')}</Button>
        <Button variant="secondary" onClick={() => openModal('register')}>
          {t('Register')}
        </Button>
      </div>
    </section>
  );
}
