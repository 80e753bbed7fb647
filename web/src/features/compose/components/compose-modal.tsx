import { Modal } from '../../../components/modal.tsx';
import { closeModal, useModalState } from '../../../lib/modals.ts';
import { Composer } from './composer.tsx';

/** The 'Tweet' button's modal, and Quote's (the quoted post shown under the text box). */
export function ComposeModal() {
  const { returnFocus, quote } = useModalState();
  return (
    <Modal title={quote ? 'Quote post' : 'New post'} hideTitle={!quote} onClose={closeModal} returnFocus={returnFocus}>
      <Composer
        autoFocus
        onPosted={closeModal}
        className="-mx-4"
        {...(quote ? { quote, label: 'Add a comment' } : {})}
      />
    </Modal>
  );
}
