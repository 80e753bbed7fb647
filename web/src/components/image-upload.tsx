import { LIMITS } from '@pipit/contract';
import { Camera, X } from 'lucide-react';
import { useState } from 'react';
import { type FileRejection, useDropzone } from 'react-dropzone';
import { t } from '../i18n/i18n.ts';
import { cn } from '../lib/cn.ts';

const ACCEPT = { 'image/jpeg': [], 'image/png': [] };

/**
 * react-dropzone's own messages ('File type must be …', 'Too many files'), except the size one:
 * the seed says 'File is larger than N bytes' where this version would say "5 MB".
 */
function rejectionMessages(rejections: FileRejection[], maxSize: number): string[] {
  const messages = new Set<string>();
  for (const { errors } of rejections) {
    for (const error of errors) {
      messages.add(
        error.code === 'file-too-large' ? t('File is larger than {maxSize} bytes', { maxSize }) : error.message,
      );
    }
  }
  return [...messages];
}

const buttonClass = (variant: 'avatar' | 'cover') =>
  cn(
    'grid place-items-center rounded-full bg-black/60 text-white hover:bg-black/40 disabled:opacity-50',
    variant === 'cover' ? 'size-11' : 'size-9',
  );

const typeMessage = () => t('File type must be one of {types}', { types: Object.keys(ACCEPT).join(', ') });

/** The first bytes of a JPEG (FF D8 FF) and of a PNG (89 'PNG' CR LF 1A LF). */
const SIGNATURES = [
  [0xff, 0xd8, 0xff],
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
];

/** Whether the file really is a JPEG or a PNG, by its bytes: its name and type are only claims. */
export function isJpegOrPng(file: Blob): Promise<boolean> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => {
      const head = new Uint8Array(reader.result as ArrayBuffer);
      resolve(SIGNATURES.some((signature) => signature.every((byte, i) => head[i] === byte)));
    };
    reader.onerror = () => resolve(false);
    reader.readAsArrayBuffer(file.slice(0, 8));
  });
}

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

interface ImageUploadProps {
  /** The accessible name of the file input, e.g. "Profile image". */
  label: string;
  /** The current image: a /media URL, a data URL, or null. */
  value: string | null;
  onChange: (value: string | null) => void;
  disabled?: boolean;
  variant: 'avatar' | 'cover';
  /** Shown when there is no image. */
  placeholder?: string;
  /** The server's word on the image, shown with the upload's own messages. */
  error?: string | null;
}

/**
 * Exactly one JPEG or PNG, by drop or by the file dialog, read as a data URL. Rejections show
 * react-dropzone's messages in the seed's wording.
 */
export function ImageUpload({ label, value, onChange, disabled, variant, placeholder, error }: ImageUploadProps) {
  const [errors, setErrors] = useState<string[]>([]);
  const maxSize = LIMITS.imageMaxBytes;
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    accept: ACCEPT,
    maxFiles: 1,
    multiple: false,
    maxSize,
    disabled,
    noClick: true,
    noKeyboard: true,
    onDrop: async (accepted, rejections) => {
      setErrors(rejectionMessages(rejections, maxSize));
      const file = accepted[0];
      if (!file || rejections.length > 0) return;
      // A file named .png that is something else is refused here, before any preview.
      if (!(await isJpegOrPng(file))) {
        setErrors([typeMessage()]);
        return;
      }
      onChange(await readAsDataUrl(file));
    },
  });

  const shown = value ?? placeholder ?? null;
  return (
    <div className="relative">
      <div
        {...getRootProps({
          className: cn(
            'group relative overflow-hidden bg-surface',
            variant === 'cover' ? 'aspect-[3/1] w-full' : 'size-28 rounded-full border-4 border-bg',
            isDragActive && 'ring-2 ring-accent',
          ),
        })}
      >
        <input {...getInputProps({ 'aria-label': label })} />
        {shown && <img src={shown} alt="" className="absolute inset-0 size-full object-cover" />}
        <div
          className={cn(
            'absolute inset-0 flex items-center justify-center bg-black/40',
            variant === 'cover' ? 'gap-3' : 'gap-1',
          )}
        >
          <button
            type="button"
            onClick={open}
            disabled={disabled}
            aria-label={t('Upload {what}', { what: label.toLowerCase() })}
            className={buttonClass(variant)}
          >
            <Camera aria-hidden="true" className="size-5" />
          </button>
          {value && (
            <button
              type="button"
              onClick={() => {
                setErrors([]);
                onChange(null);
              }}
              disabled={disabled}
              aria-label={t('Remove {what}', { what: label.toLowerCase() })}
              className={buttonClass(variant)}
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          )}
        </div>
      </div>
      {(errors.length > 0 || error) && (
        <ul
          role="alert"
          aria-label={t('{label} problems', { label })}
          className={cn(
            'space-y-0.5 text-sm text-danger',
            // Under the cover sits the overlapping avatar: the cover's messages go on a band inside it.
            variant === 'cover' ? 'absolute inset-x-0 top-0 z-10 bg-black/90 px-4 py-2 sm:px-8' : 'mt-2',
          )}
        >
          {(errors.length > 0 ? errors : [error]).map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
