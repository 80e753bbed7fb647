import { type EditBody, editBody, LIMITS, type Visibility } from '@pipit/contract';
import type { FastifyRequest } from 'fastify';
import { AppError, invalid } from '../../lib/errors.ts';
import { visibilityOf } from './visibility.ts';

const MB = 1024 * 1024;

/** What update_credentials reads of a multipart form: its fields and the two pictures. */
const PROFILE_FORM_LIMITS = {
  fileSize: LIMITS.imageMaxBytes,
  files: 2,
  fields: 40,
  parts: 42,
  fieldNameSize: 100,
  fieldSize: 16 * 1024,
  headerPairs: 20,
};

/** The pictures an app may send, and the profile's own names for them. */
const PICTURES = { avatar: 'profileImage', header: 'coverImage' } as const;
type Picture = keyof typeof PICTURES;
/** The text fields read: the name, the bio and "Approve followers". */
const TEXT_FIELDS = new Set(['display_name', 'note', 'locked', 'source[privacy]']);

interface ProfileForm {
  fields: Record<string, unknown>;
  pictures: Partial<Record<Picture, Buffer>>;
}

/** The form as apps send it: multipart (with pictures), or form fields or JSON (without). */
export async function readProfileForm(request: FastifyRequest): Promise<ProfileForm> {
  if (!request.isMultipart()) {
    const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
    return { fields: body, pictures: {} };
  }
  const form: ProfileForm = { fields: {}, pictures: {} };
  try {
    for await (const part of request.parts({ limits: PROFILE_FORM_LIMITS })) {
      if (part.type === 'file') {
        // Own keys only: a part named `toString` or `__proto__` is no picture.
        if (!Object.hasOwn(PICTURES, part.fieldname)) {
          throw invalid('body', 'Pictures go in "avatar" and "header"; other files are not taken.');
        }
        form.pictures[part.fieldname as Picture] = await part.toBuffer();
      } else if (TEXT_FIELDS.has(part.fieldname) && typeof part.value === 'string') {
        if (part.valueTruncated) throw invalid(part.fieldname, `${part.fieldname} is too long.`);
        form.fields[part.fieldname] = part.value;
      }
      // Other fields (bot, discoverable, fields_attributes…): Pipit has no use for them.
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('IMAGE_TOO_LARGE', `A picture is larger than ${LIMITS.imageMaxBytes / MB} MB.`);
    }
    if (code === 'FST_FILES_LIMIT') throw invalid('body', 'Send at most two pictures: "avatar" and "header".');
    throw invalid('body', 'The multipart body is malformed.');
  }
  return form;
}

/** Rails' words for a boolean in a form (as Mastodon reads them), and JSON's own. */
const TRUE = new Set(['true', '1', 't', 'on']);
const FALSE = new Set(['false', '0', 'f', 'off']);

/**
 * `source[privacy]` (the default visibility of new posts), as JSON (`source: {privacy}`), a form
 * (`source[privacy]`, nested by the form reader or not) or a multipart field; anything else is refused.
 */
function privacyField(fields: Record<string, unknown>): { defaultVisibility?: Visibility } {
  const source = fields.source;
  const value =
    source && typeof source === 'object' && 'privacy' in source
      ? (source as { privacy: unknown }).privacy
      : fields['source[privacy]'];
  if (value === undefined || value === null || value === '') return {};
  const visibility = typeof value === 'string' ? visibilityOf(value) : undefined;
  if (!visibility)
    throw invalid('source[privacy]', 'source[privacy] must be one of public, unlisted, private, direct.');
  return { defaultVisibility: visibility };
}

function booleanField(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const word = typeof value === 'string' || typeof value === 'number' ? String(value).toLowerCase() : '';
  if (TRUE.has(word)) return true;
  if (FALSE.has(word)) return false;
  throw invalid(name, `${name} must be true or false.`);
}

/**
 * update_credentials' form as the web's profile edit: the name (`display_name`), the bio (`note`),
 * the pictures (`avatar`, `header`) and "Approve followers" (`locked`). What Pipit has no use for
 * (bot, fields…) is left.
 */
export function profileEdit({ fields, pictures }: ProfileForm): EditBody {
  const asDataUrl = (bytes: Buffer) => `data:application/octet-stream;base64,${bytes.toString('base64')}`;
  const parsed = editBody.safeParse({
    ...(fields.locked !== undefined ? { locked: booleanField('locked', fields.locked) } : {}),
    ...privacyField(fields),
    ...(fields.display_name !== undefined ? { name: fields.display_name } : {}),
    ...(fields.note !== undefined ? { bio: fields.note } : {}),
    ...(pictures.avatar ? { profileImage: asDataUrl(pictures.avatar) } : {}),
    ...(pictures.header ? { coverImage: asDataUrl(pictures.header) } : {}),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const named: Record<string, string> = {
    name: 'display_name',
    bio: 'note',
    profileImage: 'avatar',
    coverImage: 'header',
  };
  throw invalid(named[String(issue?.path[0])] ?? 'body', issue?.message ?? 'The profile is not valid.');
}
