import { LIMITS } from '@pipit/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ModalHost } from '../../../app/modal-host.tsx';
import { openModal } from '../../../lib/modals.ts';
import { useUser } from '../../../state/users.ts';
import { deferred, json, mockFetch } from '../../../test/fetch-mock.ts';
import { ALICE, renderApp, signedInRoutes } from '../../../test/render.tsx';

function ShownName() {
  const { data } = useUser('1');
  return <p data-testid="shown-name">{data?.name}</p>;
}

function server(patch: () => Response | Promise<Response> = () => json({ ...ALICE, name: 'Alicia' })) {
  let profile = ALICE;
  const mock = mockFetch({
    ...signedInRoutes(),
    'GET /api/users/1': () => json(profile),
    'PATCH /api/edit': async () => {
      const res = await patch();
      if (res.ok) profile = { ...ALICE, name: 'Alicia' };
      return res;
    },
  });
  return mock;
}

async function openEdit() {
  renderApp(
    <>
      <ShownName />
      <ModalHost />
    </>,
  );
  await waitFor(() => expect(screen.getByTestId('shown-name')).toHaveTextContent('Alice Anderson'));
  openModal('editProfile');
  const dialog = await screen.findByRole('dialog', { name: 'Edit your profile' });
  await within(dialog).findByLabelText('Name');
  return dialog;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A file that starts like a PNG (the upload checks the first bytes). */
const png = (name = 'me.png', bytes = 16) => {
  const data = new Uint8Array(bytes);
  data.set(PNG_SIGNATURE);
  return new File([data], name, { type: 'image/png' });
};

/** Drops files on the drop zone around an upload input, as a person dragging them would. */
function drop(input: HTMLElement, files: File[]) {
  const items = files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file }));
  fireEvent.drop(input.parentElement as HTMLElement, { dataTransfer: { files, items, types: ['Files'] } });
}

describe('Edit profile modal', () => {
  it("saves, fetches the user again, toasts 'Updated' and closes", async () => {
    const mock = server();
    const user = userEvent.setup();
    const dialog = await openEdit();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Alice Anderson');
    expect(within(dialog).getByLabelText('Username')).toHaveValue('alice');
    expect(within(dialog).getByLabelText('Bio')).toHaveValue('Birds and bikes.');

    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Alicia');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Updated')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [patch] = mock.callsTo('PATCH', '/api/edit');
    expect(patch?.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(JSON.parse(patch?.body ?? '')).toEqual({
      name: 'Alicia',
      username: 'alice',
      bio: 'Birds and bikes.',
      profileImage: null,
      coverImage: null,
    });
    expect(mock.callsTo('GET', '/api/users/1')).toHaveLength(2);
    expect(screen.getByTestId('shown-name')).toHaveTextContent('Alicia');
  });

  it("toasts 'Something went wrong' when saving fails and stays open", async () => {
    server(() => json({ code: 'USERNAME_TAKEN', message: 'This username is taken.', field: 'username' }, 409));
    const user = userEvent.setup();
    const dialog = await openEdit();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit your profile' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Username')).toHaveAccessibleDescription('This username is taken.');
    await waitFor(() => expect(within(dialog).getByLabelText('Username')).toHaveFocus());
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.queryByText('Updated')).not.toBeInTheDocument();
  });

  it('is busy while saving: inputs and Save are disabled until the answer', async () => {
    const answer = deferred<Response>();
    server(() => answer.promise);
    const user = userEvent.setup();
    const dialog = await openEdit();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled());
    for (const label of ['Name', 'Username', 'Bio']) expect(within(dialog).getByLabelText(label)).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Upload profile image' })).toBeDisabled();

    answer.resolve(json({ ...ALICE, name: 'Alicia' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends a chosen PNG as a data URL', async () => {
    const mock = server();
    const user = userEvent.setup();
    const dialog = await openEdit();
    await user.upload(within(dialog).getByLabelText('Profile image'), png());
    await within(dialog).findByText('New profile image chosen');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await screen.findByText('Updated');
    const body = JSON.parse(mock.callsTo('PATCH', '/api/edit')[0]?.body ?? '');
    expect(body.profileImage).toMatch(/^data:image\/png;base64,/);
    expect(body.coverImage).toBeNull();
  });

  it("shows the upload's rejection messages", async () => {
    server();
    const dialog = await openEdit();
    const input = within(dialog).getByLabelText('Profile image');

    drop(input, [new File(['GIF89a'], 'anim.gif', { type: 'image/gif' })]);
    expect(await within(dialog).findByText('File type must be one of image/jpeg, image/png')).toBeInTheDocument();

    drop(input, [png('a.png'), png('b.png')]);
    expect(await within(dialog).findByText('Too many files')).toBeInTheDocument();

    drop(input, [png('big.png', LIMITS.imageMaxBytes + 1)]);
    expect(await within(dialog).findByText(`File is larger than ${LIMITS.imageMaxBytes} bytes`)).toBeInTheDocument();
  });

  it('refuses a file that only claims to be a PNG, before any preview', async () => {
    const mock = server();
    const user = userEvent.setup();
    const dialog = await openEdit();
    const fake = new File(['GIF89a not a png at all'], 'fake.png', { type: 'image/png' });
    await user.upload(within(dialog).getByLabelText('Profile image'), fake);

    expect(await within(dialog).findByText('File type must be one of image/jpeg, image/png')).toBeInTheDocument();
    expect(within(dialog).queryByText('New profile image chosen')).not.toBeInTheDocument();
    expect(dialog.querySelector('img[src^="data:"]')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Updated');
    expect(JSON.parse(mock.callsTo('PATCH', '/api/edit')[0]?.body ?? '').profileImage).toBeNull();
  });

  it('flags an empty name and username at once, in plain words, and sends nothing', async () => {
    const mock = server();
    const user = userEvent.setup();
    const dialog = await openEdit();
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.clear(within(dialog).getByLabelText('Username'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('Name is required');
    expect(within(dialog).getByLabelText('Username')).toHaveAccessibleDescription('Username is required');
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();
    expect(mock.callsTo('PATCH', '/api/edit')).toHaveLength(0);
  });

  it("shows the server's image refusal under the image in plain words", async () => {
    server(() =>
      json(
        {
          code: 'UNSUPPORTED_IMAGE',
          message: 'coverImage must be a JPEG or PNG image (checked by its bytes).',
          field: 'coverImage',
        },
        415,
      ),
    );
    const user = userEvent.setup();
    const dialog = await openEdit();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert', { name: 'Cover image problems' })).toHaveTextContent(
      'This file isn’t a JPEG or PNG image. Choose another one.',
    );
    expect(within(dialog).queryByText(/checked by its bytes/)).not.toBeInTheDocument();
  });
});
