import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { t } from '../../../i18n/i18n.ts';
import { closeModal, useModalState } from '../../../lib/modals.ts';
import { Composer, type ComposerControls } from './composer.tsx';

/**
 * The 'Tweet' button's modal, and Quote's (the quoted post shown under the text box), a draft
 * resumed from Drafts, and Edit's ("Save"). Closed with unsent text or images, a new post asks: save
 * as a draft, or discard (an edit closed is left as the post was).
 */
export function ComposeModal() {
  const { returnFocus, quote, draft, edit } = useModalState();
  const controls = useRef<ComposerControls | null>(null);
  const navigate = useNavigate();
  // Asking before closing; `then` is where to go once closed (a link to Drafts or Scheduled).
  const [asking, setAsking] = useState<{ then: string | null } | null>(null);
  const [saving, setSaving] = useState(false);

  const leave = (then: string | null) => {
    closeModal();
    if (then) navigate(then);
  };
  const requestClose = (then: string | null = null) => {
    if (controls.current?.hasUnsent()) setAsking({ then });
    else leave(then);
  };

  if (edit) {
    return (
      <Modal title={t('Edit post')} onClose={closeModal} returnFocus={returnFocus}>
        <Composer
          autoFocus
          onPosted={closeModal}
          className="-mx-4"
          editing={edit}
          label={t('Edit your post')}
          submitLabel={t('Save')}
        />
      </Modal>
    );
  }

  return (
    <Modal
      title={quote ? t('Quote post') : draft ? t('Draft') : t('New post')}
      hideTitle={!quote && !draft}
      onClose={() => requestClose()}
      returnFocus={returnFocus}
    >
      <Composer
        autoFocus
        unsent
        controls={controls}
        onPosted={closeModal}
        onSettled={closeModal}
        onLeave={(to) => requestClose(to)}
        className="-mx-4"
        {...(draft ? { draft } : {})}
        {...(quote ? { quote, label: t('Add a comment') } : {})}
      />
      {asking && (
        <Modal title={t('Save as draft?')} onClose={() => !saving && setAsking(null)} className="sm:max-w-[360px]">
          <p className="text-[15px] text-muted">
            {t('Keep this post in your Drafts to finish it later, on any device, or discard it.')}
          </p>
          <div className="mt-6 flex flex-col gap-3">
            <Button
              size="lg"
              data-autofocus
              disabled={saving}
              onClick={() => {
                setSaving(true);
                controls.current?.saveDraft().then(
                  () => leave(asking.then),
                  () => setSaving(false),
                );
              }}
            >
              {t('Save draft')}
            </Button>
            <Button variant="secondary" size="lg" disabled={saving} onClick={() => leave(asking.then)}>
              {t('Discard')}
            </Button>
          </div>
        </Modal>
      )}
    </Modal>
  );
}
