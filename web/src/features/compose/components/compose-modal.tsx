import { Modal } from '../../../components/modal.tsx';
import { closeModal, useModalState } from '../../../lib/modals.ts';
import { Composer } from './composer.tsx';

/** The 'Tweet' button's modal. */
export function ComposeModal() {
  const { returnFocus } = useModalState();
  return (
    <Modal title="New post" hideTitle onClose={closeModal} returnFocus={returnFocus}>
      <Composer autoFocus onPosted={closeModal} className="-mx-4" />
    </Modal>
  );
}
