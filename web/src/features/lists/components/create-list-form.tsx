import { LIST_LIMITS } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { t } from '../../../i18n/i18n.ts';
import { fieldErrorsOf, formProblem } from '../../../lib/field-errors.ts';
import { paths } from '../../../lib/paths.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useCreateList } from '../api/lists.ts';

/** "New list": a title, then Create; the new list opens, to add people. */
export function CreateListForm() {
  const create = useCreateList();
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const errors = fieldErrorsOf(create.error, ['title'] as const);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) return;
    create.mutate(
      { title },
      {
        onSuccess: (list) => {
          setTitle('');
          notify(t('Created “{title}”', { title: list.title }));
          navigate(paths.list(list.id, 'members'));
        },
        onError: (error) => {
          const problem = formProblem(error, t('Couldn’t create the list. Try again.'));
          if (problem) notifyError(problem);
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      className="flex items-start gap-3 border-b border-line px-4 pt-3"
      aria-label={t('Create a list')}
    >
      <div className="min-w-0 flex-1">
        <TextField
          label={t('New list')}
          placeholder={t('A title, like “Birders”')}
          value={title}
          maxLength={LIST_LIMITS.titleMax * 2}
          onChange={(event) => setTitle(event.target.value)}
          error={errors.title}
          disabled={create.isPending}
        />
      </div>
      {/* Level with the text box (below its label). */}
      <Button type="submit" className="mt-[30px]" disabled={create.isPending || !title.trim()}>
        {t('Create')}
      </Button>
    </form>
  );
}
