import { altText } from '@pipit/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid } from '../../lib/errors.ts';
import { readUpload, UPLOAD_LIMITS } from '../media/media.upload.ts';
import type { MastodonContext } from './mastodon.context.ts';
import { mastodonEndpoints as e } from './mastodon.endpoints.ts';
import { idOf, route, userOf } from './mastodon.http.ts';

/**
 * Images for statuses: POST /api/v2/media (and v1) takes `file` and `description` (the alt text),
 * processed at once (so 200, never 202); PUT /api/v1/media/:id changes the description before the
 * image is in a post. The web's rules: types, sizes, pixels, metadata stripped (modules/media).
 */
export async function mediaRoutes(app: FastifyInstance, { present }: MastodonContext) {
  const { media } = app.services;
  const upload = async (request: FastifyRequest) => {
    const viewer = userOf(request);
    const { bytes, alt } = await readUpload(request, { file: 'file', alt: 'description' });
    return present.media(await media.upload(viewer.userId, bytes, alt, 'file'));
  };
  route(app, e.uploadMedia, upload);
  route(app, e.uploadMediaV1, upload);
  route(app, e.media, async (request, _reply, { params }) => {
    const viewer = userOf(request);
    return present.media(await media.own(viewer.userId, idOf(params.id ?? '', 'No such upload.')));
  });
  route(app, e.describeMedia, async (request, _reply, { params }) => {
    const viewer = userOf(request);
    const id = idOf(params.id ?? '', 'No such upload (or it is in a post already).');
    let description: unknown;
    if (request.isMultipart()) {
      // masto.js and others send it as a multipart form field.
      for await (const part of request.parts({ limits: UPLOAD_LIMITS })) {
        if (part.type === 'field' && part.fieldname === 'description') description = part.value;
        else throw invalid('body', 'A media update takes a "description" field, nothing else.');
      }
    } else {
      description = (request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {})
        .description;
    }
    const parsed = altText.safeParse(typeof description === 'string' ? description : '');
    if (!parsed.success) throw invalid('description', parsed.error.issues[0]?.message ?? 'Alt text is not valid');
    return present.media(await media.describe(viewer.userId, id, parsed.data));
  });
}
