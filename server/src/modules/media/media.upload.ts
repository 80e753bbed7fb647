import multipart from '@fastify/multipart';
import { altText, endpoints as e, LIMITS, UPLOAD_FIELDS } from '@pipit/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../lib/endpoint.ts';
import { AppError, invalid } from '../../lib/errors.ts';
import { requireViewer } from '../../plugins/session.ts';

const MB = 1024 * 1024;

/**
 * What one upload may hold: the `alt` field and one `file`. The file is read as it arrives and the
 * upload refused the moment it passes LIMITS.postImageMaxBytes (never buffered whole past it);
 * alt text fits in 1,500 characters of up to 16 code units each, UTF-8 encoded.
 */
export const UPLOAD_LIMITS = {
  fileSize: LIMITS.postImageMaxBytes,
  files: 1,
  fields: 1,
  parts: 2,
  fieldNameSize: 20,
  fieldSize: LIMITS.altTextMax * 16 * 3,
  headerPairs: 20,
};

/** The multipart plugin's and busboy's errors as the contract's. */
function uploadError(error: unknown): Error {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(
        'IMAGE_TOO_LARGE',
        `The image is larger than ${LIMITS.postImageMaxBytes / MB} MB (${LIMITS.postImageMaxBytes} bytes).`,
        UPLOAD_FIELDS.file,
      );
    case 'FST_FILES_LIMIT':
      return invalid(UPLOAD_FIELDS.file, 'Send one image per upload.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return invalid('body', 'An upload takes an "alt" field and one "file", nothing else.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the image as multipart/form-data.');
    default:
      // Malformed multipart (busboy), or the request closed early.
      return invalid('body', 'The multipart body is malformed.');
  }
}

/**
 * The image's bytes and its alt text from a multipart upload (modules/media/README.md); `fields` names
 * them (the Mastodon API's are `file` and `description`).
 */
export async function readUpload(
  request: FastifyRequest,
  fields: { file: string; alt: string } = UPLOAD_FIELDS,
): Promise<{ bytes: Buffer; alt: string }> {
  let bytes: Buffer | null = null;
  let alt = '';
  try {
    for await (const part of request.parts({ limits: UPLOAD_LIMITS })) {
      if (part.type === 'file' && part.fieldname === fields.file) {
        bytes = await part.toBuffer();
      } else if (part.type === 'field' && part.fieldname === fields.alt && typeof part.value === 'string') {
        if (part.valueTruncated) throw invalid(fields.alt, `Alt text must be at most ${LIMITS.altTextMax} characters`);
        alt = part.value;
      } else {
        throw invalid('body', `An upload takes a "${fields.alt}" field and one "${fields.file}", nothing else.`);
      }
    }
  } catch (error) {
    throw uploadError(error);
  }
  if (!bytes || bytes.length === 0)
    throw invalid(fields.file, `Choose an image to upload (the "${fields.file}" field).`);
  const parsed = altText.safeParse(alt);
  if (!parsed.success) throw invalid(fields.alt, parsed.error.issues[0]?.message ?? 'Alt text is not valid');
  return { bytes, alt: parsed.data };
}

/**
 * POST /api/media: one image for a post, multipart (errors: the contract's endpoint table). In its
 * own scope, so multipart bodies are parsed here and stay a 415 everywhere else.
 */
export const mediaUploadRoutes: FastifyPluginAsync = async (app) => {
  const { media } = app.services;
  await app.register(multipart, { limits: UPLOAD_LIMITS });

  route(app, e.uploadMedia, {}, async (request) => {
    const viewer = requireViewer(request);
    const { bytes, alt } = await readUpload(request);
    return media.upload(viewer.userId, bytes, alt, UPLOAD_FIELDS.file);
  });
};
