import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { MEDIA_PATH } from './media.service.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET /media/<sha256>.<ext>: stored images. A name is its content's hash, so an answer never changes:
 * cached for a year, ETag = the hash. Unknown names answer a JSON 404.
 */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const { media } = app.services;

  app.get(
    `${MEDIA_PATH}:name`,
    { schema: { params: z.object({ name: z.string().max(100) }) } },
    async (request, reply) => {
      const file = await media.open(request.params.name);
      if (!file) throw new AppError('NOT_FOUND', 'No such image.');
      const etag = `"${file.hash}"`;
      reply
        .header('Content-Type', file.contentType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', IMMUTABLE)
        .header('ETag', etag)
        // Public images, shown by Mastodon web apps on other origins too (Elk, Phanpy), which load
        // them in CORS mode (`crossorigin`): any origin may read them; no credentials are involved.
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .header('Access-Control-Allow-Origin', '*')
        // Opened on its own, an image runs nothing.
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
        file.body.destroy();
        return reply.code(304).send();
      }
      return reply.header('Content-Length', file.size).send(file.body);
    },
  );
};
