import { type CurrentUser, LIMITS } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { PLACEHOLDER_IMAGE } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { ImageUpload } from '../../../components/image-upload.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/states.tsx';
import { TextAreaField, TextField } from '../../../components/text-field.tsx';
import { useRefocus } from '../../../components/use-refocus.ts';
import { t } from '../../../i18n/i18n.ts';
import { fieldErrorsOf } from '../../../lib/field-errors.ts';
import { bioProblem, checkFields, type FieldErrors, nameProblem, usernameProblem } from '../../../lib/field-rules.ts';
import { closeModal, useModalState } from '../../../lib/modals.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useViewer } from '../../../state/viewer.tsx';
import { useEditProfile } from '../api/edit-profile.ts';

const FIELDS = ['name', 'username', 'bio', 'profileImage', 'coverImage'] as const;
type Field = (typeof FIELDS)[number];

function EditProfileForm({ user }: { user: CurrentUser }) {
  const [name, setName] = useState(user.name);
  const [username, setUsername] = useState(user.username);
  const [bio, setBio] = useState(user.bio);
  const [profileImage, setProfileImage] = useState(user.profileImage);
  const [coverImage, setCoverImage] = useState(user.coverImage);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const edit = useEditProfile();
  const busy = edit.isPending;
  const { formRef, refocus } = useRefocus();
  /** Sets a field and drops its message; the next Save checks everything again. */
  const change =
    <T,>(field: Field, set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setErrors(({ [field]: _, ...rest }) => rest as FieldErrors<Field>);
    };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problems = checkFields<'name' | 'username' | 'bio'>({
      name: () => nameProblem(name),
      username: () => usernameProblem(username),
      bio: () => bioProblem(bio),
    });
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      refocus();
      return;
    }
    edit.mutate(
      { name, username, bio, profileImage, coverImage },
      {
        onSuccess: () => {
          notify('Updated');
          closeModal();
        },
        onError: (error) => {
          notifyError(t('Something went wrong'));
          setErrors(fieldErrorsOf(error, FIELDS));
          refocus();
        },
      },
    );
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
      {/* The profile image comes first in the document; the cover is drawn above it, as on the profile. */}
      <div className="-mx-4 flex flex-col sm:-mx-8">
        <div className="relative z-10 -mt-14 px-4 sm:px-8">
          <ImageUpload
            label={t('Profile image')}
            variant="avatar"
            value={profileImage}
            placeholder={PLACEHOLDER_IMAGE}
            onChange={change('profileImage', setProfileImage)}
            disabled={busy}
            error={errors.profileImage}
          />
          <p className="sr-only" aria-live="polite">
            {profileImage?.startsWith('data:') ? t('New profile image chosen') : ''}
          </p>
        </div>
        <div className="order-first">
          <ImageUpload
            label={t('Cover image')}
            variant="cover"
            value={coverImage}
            onChange={change('coverImage', setCoverImage)}
            disabled={busy}
            error={errors.coverImage}
          />
        </div>
      </div>
      <TextField
        label={t('Name')}
        value={name}
        onChange={(event) => change('name', setName)(event.target.value)}
        disabled={busy}
        maxLength={LIMITS.nameMax}
        autoComplete="name"
        error={errors.name}
      />
      <TextField
        label={t('Username')}
        value={username}
        onChange={(event) => change('username', setUsername)(event.target.value)}
        disabled={busy}
        maxLength={LIMITS.usernameMax}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username}
      />
      <TextAreaField
        label={t('Bio')}
        value={bio}
        onChange={(event) => change('bio', setBio)(event.target.value)}
        disabled={busy}
        rows={3}
        maxLength={LIMITS.bioMax}
        hint={`${bio.length} / ${LIMITS.bioMax}`}
        error={errors.bio}
      />
      <Button type="submit" size="lg" disabled={busy} className="mt-2">
        {t('Save')}
      </Button>
    </form>
  );
}

/** 'Edit your profile': name, username, bio, profile and cover images; 'Save'. */
export function EditProfileModal() {
  const { returnFocus } = useModalState();
  const { user } = useViewer();
  return (
    <Modal title={t('Edit your profile')} onClose={closeModal} returnFocus={returnFocus}>
      {user ? <EditProfileForm user={user} /> : <Spinner />}
    </Modal>
  );
}
