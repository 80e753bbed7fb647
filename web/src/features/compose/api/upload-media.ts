import { type MediaAttachment, routes, UPLOAD_FIELDS } from '@pipit/contract';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/media: one image, multipart; answers the upload a post takes by id (alt text is sent with the post). */
export function uploadMedia(file: File): Promise<MediaAttachment> {
  const form = new FormData();
  form.append(UPLOAD_FIELDS.file, file);
  return apiFetch<MediaAttachment>(routes.uploadMedia.path, { method: routes.uploadMedia.method, form });
}
