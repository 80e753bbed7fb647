import { Modal } from '../../../components/modal.tsx';
import { closeModal, useModalState } from '../../../lib/modals.ts';
import { Composer } from './composer.tsx';

/** The 'Tweet' button's modal, Quote's (the quoted post shown under the text box), and Edit's ("Save"). */
export function ComposeModal() {
  const { returnFocus, quote, edit } = useModalState();
  if (edit) {
    return (
      <Modal title="Edit post" onClose={closeModal} returnFocus={returnFocus}>
        <Composer
          autoFocus
          onPosted={closeModal}
          className="-mx-4"
          editing={edit}
          label="Edit your post"
          submitLabel="Save"
        />
      </Modal>
    );
  }
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
