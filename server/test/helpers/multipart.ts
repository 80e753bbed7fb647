/** multipart/form-data bodies for inject(), built by hand so a test controls every byte. */
import { randomBytes } from 'node:crypto';

export type Part = { name: string; value: string } | { name: string; file: Buffer; filename?: string; type?: string };

export interface MultipartBody {
  payload: Buffer;
  headers: { 'content-type': string };
}

export function multipart(parts: Part[]): MultipartBody {
  const boundary = `----pipit${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if ('file' in part)
      head += `; filename="${part.filename ?? 'image.jpg'}"\r\nContent-Type: ${part.type ?? 'image/jpeg'}`;
    chunks.push(
      Buffer.from(`${head}\r\n\r\n`),
      'file' in part ? part.file : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** An upload for POST /api/media: the alt text (when given) then the file. */
export const imageUpload = (file: Buffer, alt?: string, filename?: string) =>
  multipart([
    ...(alt === undefined ? [] : [{ name: 'alt', value: alt }]),
    { name: 'file', file, ...(filename ? { filename } : {}) },
  ]);
