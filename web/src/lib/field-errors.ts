import { LIMITS } from '@pipit/contract';
import { m, t } from '../i18n/i18n.ts';
import { ApiRequestError } from './api-client.ts';
import type { FieldErrors } from './field-rules.ts';

/** What a coded answer means for the field it names, in plain words. */
const CODE_MESSAGES: Record<string, string> = {
  EMAIL_TAKEN: m('An account with this email already exists.'),
  USERNAME_TAKEN: m('This username is taken.'),
  UNSUPPORTED_IMAGE: m('This file isn’t a JPEG or PNG image. Choose another one.'),
  IMAGE_TOO_LARGE: m('This image is too large: at most {bytes} bytes and {pixels} pixels.'),
};
const CODE_VALUES: Record<string, Record<string, number>> = {
  IMAGE_TOO_LARGE: { bytes: LIMITS.imageMaxBytes, pixels: LIMITS.imageMaxPixels },
};

/** Codes that name their field even when the answer does not. */
const CODE_FIELDS: Record<string, string> = { EMAIL_TAKEN: 'email', USERNAME_TAKEN: 'username' };

/** The server's validation messages start with the field ("password: …"); the form shows them under it. */
function withoutFieldPrefix(message: string, field: string): string {
  const prefix = `${field}: `;
  const text = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The messages of a failed call for the form's fields: every issue of an INVALID_INPUT answer,
 * or the one field a coded answer names. Empty when the answer says nothing about these fields.
 */
export function fieldErrorsOf<F extends string>(error: unknown, fields: readonly F[]): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  if (!(error instanceof ApiRequestError)) return errors;
  const known = (field: string | undefined): F | undefined => {
    const top = field?.split('.')[0];
    return fields.find((f) => f === top);
  };
  for (const issue of error.issues) {
    const field = known(issue.field);
    if (field && !errors[field]) errors[field] = withoutFieldPrefix(issue.message, issue.field);
  }
  const field = known(error.field ?? CODE_FIELDS[error.code]);
  if (field && !errors[field]) {
    const coded = CODE_MESSAGES[error.code];
    errors[field] = coded ? t(coded, CODE_VALUES[error.code]) : withoutFieldPrefix(error.message, error.field ?? field);
  }
  return errors;
}

/**
 * What a form's failed call leaves to a toast: nothing when the form shows it under a field (invalid
 * input, a taken email), the server's own words for another 4xx (wait, sign in), else `fallback`.
 */
export function formProblem(error: unknown, fallback: string): string | null {
  if (!(error instanceof ApiRequestError) || error.status >= 500) return fallback;
  if (error.code === 'INVALID_INPUT' || CODE_FIELDS[error.code]) return null;
  return error.message;
}
