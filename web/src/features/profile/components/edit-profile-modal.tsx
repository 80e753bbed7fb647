import { type CurrentUser, LIMITS } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { PLACEHOLDER_IMAGE } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { ImageUpload } from '../../../components/image-upload.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/states.tsx';
import { TextAreaField, TextField } from '../../../components/text-field.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { closeModal, useModalState } from '../../../lib/modals.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useEditProfile } from '../api/edit-profile.ts';

type Field = 'name' | 'username' | 'bio' | 'profileImage' | 'coverImage';

function EditProfileForm({ user }: { user: CurrentUser }) {
  const [name, setName] = useState(user.name);
  const [username, setUsername] = useState(user.username);
  const [bio, setBio] = useState(user.bio);
  const [profileImage, setProfileImage] = useState(user.profileImage);
  const [coverImage, setCoverImage] = useState(user.coverImage);
  const [fieldError, setFieldError] = useState<{ field: Field; message: string } | null>(null);
  const edit = useEditProfile();
  const busy = edit.isPending;
  const errorFor = (field: Field) => (fieldError?.field === field ? fieldError.message : null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFieldError(null);
    edit.mutate(
      { name, username, bio, profileImage, coverImage },
      {
        onSuccess: () => {
          notify('Updated');
          closeModal();
        },
        onError: (error) => {
          notifyError('Something went wrong');
          if (error instanceof ApiRequestError && error.field) {
            setFieldError({ field: error.field.split('.')[0] as Field, message: error.message });
          }
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
      {/* The profile image comes first in the document; the cover is drawn above it, as on the profile. */}
      <div className="-mx-4 flex flex-col sm:-mx-8">
        <div className="relative z-10 -mt-14 px-4 sm:px-8">
          <ImageUpload
            label="Profile image"
            variant="avatar"
            value={profileImage}
            placeholder={PLACEHOLDER_IMAGE}
            onChange={setProfileImage}
            disabled={busy}
          />
          <p className="sr-only" aria-live="polite">
            {profileImage?.startsWith('data:') ? 'New profile image chosen' : ''}
          </p>
        </div>
        <div className="order-first">
          <ImageUpload
            label="Cover image"
            variant="cover"
            value={coverImage}
            onChange={setCoverImage}
            disabled={busy}
          />
        </div>
      </div>
      <TextField
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        disabled={busy}
        maxLength={LIMITS.nameMax}
        autoComplete="name"
        error={errorFor('name')}
      />
      <TextField
        label="Username"
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        disabled={busy}
        maxLength={LIMITS.usernameMax}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errorFor('username')}
      />
      <TextAreaField
        label="Bio"
        value={bio}
        onChange={(event) => setBio(event.target.value)}
        disabled={busy}
        rows={3}
        maxLength={LIMITS.bioMax}
        hint={`${bio.length} / ${LIMITS.bioMax}`}
        error={errorFor('bio')}
      />
      {(errorFor('profileImage') || errorFor('coverImage')) && (
        <p role="alert" className="text-sm text-danger">
          {errorFor('profileImage') ?? errorFor('coverImage')}
        </p>
      )}
      <Button type="submit" size="lg" disabled={busy} className="mt-2">
        Save
      </Button>
    </form>
  );
}

/** 'Edit your profile': name, username, bio, profile and cover images; 'Save'. */
export function EditProfileModal() {
  const { returnFocus } = useModalState();
  const { user } = useCurrentUser();
  return (
    <Modal title="Edit your profile" onClose={closeModal} returnFocus={returnFocus}>
      {user ? <EditProfileForm user={user} /> : <Spinner />}
    </Modal>
  );
}
