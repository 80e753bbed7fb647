import { LIST_LIMITS, type List, type ListRepliesPolicy } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { m, t } from '../../../i18n/i18n.ts';
import { fieldErrorsOf, formProblem } from '../../../lib/field-errors.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useUpdateList } from '../api/lists.ts';

/** The replies policies in words, as the edit form offers them. */
export const REPLIES_CHOICES: ReadonlyArray<{ value: ListRepliesPolicy; label: string; hint: string }> = [
  { value: 'list', label: m('Members of the list'), hint: m('Replies to people on this list') },
  { value: 'followed', label: m('Anyone you follow'), hint: m('Replies to people you follow, or to you') },
  { value: 'none', label: m('No one'), hint: m('No replies at all') },
];

/** "Edit list": its title, which replies it shows, and whether its members leave Home. */
export function EditListModal({ list, onClose }: { list: List; onClose: () => void }) {
  const update = useUpdateList(list.id);
  const [title, setTitle] = useState(list.title);
  const [repliesPolicy, setRepliesPolicy] = useState(list.repliesPolicy);
  const [exclusive, setExclusive] = useState(list.exclusive);
  const errors = fieldErrorsOf(update.error, ['title'] as const);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { title, repliesPolicy, exclusive },
      {
        onSuccess: () => {
          notify(t('List saved'));
          onClose();
        },
        onError: (error) => {
          const problem = formProblem(error, t('Couldn’t save the list. Try again.'));
          if (problem) notifyError(problem);
        },
      },
    );
  };

  return (
    <Modal title={t('Edit list')} onClose={() => !update.isPending && onClose()}>
      <form onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label={t('Title')}
          value={title}
          maxLength={LIST_LIMITS.titleMax * 2}
          onChange={(event) => setTitle(event.target.value)}
          error={errors.title}
          disabled={update.isPending}
          data-autofocus
        />
        <fieldset disabled={update.isPending}>
          <legend className="mb-2 text-sm font-medium text-muted">{t('Show replies to')}</legend>
          <div className="flex flex-col gap-2">
            {REPLIES_CHOICES.map((choice) => (
              <label key={choice.value} className="flex cursor-pointer items-start gap-3">
                <input
                  type="radio"
                  name="repliesPolicy"
                  value={choice.value}
                  checked={repliesPolicy === choice.value}
                  onChange={() => setRepliesPolicy(choice.value)}
                  className="mt-1 size-4 accent-accent"
                />
                <span className="leading-5">
                  <span className="block text-[15px]">{t(choice.label)}</span>
                  <span className="block text-[13px] text-muted">{t(choice.hint)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex cursor-pointer items-start gap-3">
          <input
            type="checkbox"
            checked={exclusive}
            disabled={update.isPending}
            onChange={(event) => setExclusive(event.target.checked)}
            className="mt-1 size-4 accent-accent"
          />
          <span className="leading-5">
            <span className="block text-[15px]">{t('Hide these people from Home')}</span>
            <span className="block text-[13px] text-muted">
              {t('An exclusive list: its members’ posts show only here, not on your Following timeline.')}
            </span>
          </span>
        </label>
        <Button type="submit" size="lg" disabled={update.isPending || !title.trim()}>
          {t('Save')}
        </Button>
      </form>
    </Modal>
  );
}
