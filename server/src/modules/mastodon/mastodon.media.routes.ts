import { altText } from '@pipit/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { readUpload, UPLOAD_LIMITS } from '../media/media.upload.ts';
import { MASTODON_ID, need, userOf } from './mastodon.auth.ts';
import { toMedia } from './mastodon.statuses.ts';

/**
 * Images for statuses: POST /api/v2/media (and v1) takes `file` and `description` (the alt text),
 * processed at once (so 200, never 202); PUT /api/v1/media/:id changes the description before the
 * image is in a post. The web's rules: types, sizes, pixels, metadata stripped (modules/media).
 */
export async function mastodonMediaRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const { media } = app.services;
  const upload = async (request: FastifyRequest) => {
    const viewer = userOf(request);
    const { bytes, alt } = await readUpload(request, { file: 'file', alt: 'description' });
    return toMedia(config.publicUrl, await media.upload(viewer.userId, bytes, alt, 'file'));
  };
  app.post('/api/v2/media', { preHandler: need('write:media') }, upload);
  app.post('/api/v1/media', { preHandler: need('write:media') }, upload);
  app.get<{ Params: { id: string } }>('/api/v1/media/:id', { preHandler: need('write:media') }, async (request) => {
    const viewer = userOf(request);
    if (!MASTODON_ID.test(request.params.id)) throw notFound('No such upload.');
    return toMedia(config.publicUrl, await media.own(viewer.userId, Number(request.params.id)));
  });
  app.put<{ Params: { id: string } }>('/api/v1/media/:id', { preHandler: need('write:media') }, async (request) => {
    const viewer = userOf(request);
    if (!MASTODON_ID.test(request.params.id)) throw notFound('No such upload (or it is in a post already).');
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
    return toMedia(config.publicUrl, await media.describe(viewer.userId, Number(request.params.id), parsed.data));
  });
}
