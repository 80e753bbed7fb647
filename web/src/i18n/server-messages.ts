import type { ErrorCode } from '@pipit/contract';
import { DEFAULT_LOCALE, hasTranslation, i18n, m, t } from './i18n.ts';

/**
 * The server answers in English, with a code (docs/decisions.md "Languages"): the web shows its message in
 * the reader's language. The exact English texts the server sends that a person meets are translated as
 * they are (listed in server-texts.ts, for the catalogs: the app does not carry the list); any other
 * message of a known code gets that code's general sentence below; English shows the server's own words,
 * byte for byte.
 */

/** A general sentence per code, for the messages not in the catalogs as they are. */
const BY_CODE: Partial<Record<ErrorCode | string, string>> = {
  INVALID_INPUT: m('Some of what you sent isn’t right. Check it and try again.'),
  UNSUPPORTED_MEDIA_TYPE: m('This kind of file can’t be sent here.'),
  PAYLOAD_TOO_LARGE: m('What you sent is too large.'),
  UNSUPPORTED_IMAGE: m('This file isn’t a JPEG or PNG image. Choose another one.'),
  IMAGE_TOO_LARGE: m('This image is too large.'),
  UNAUTHENTICATED: m('You need to sign in to do that.'),
  FORBIDDEN: m('You can’t do that.'),
  CSRF_FAILED: m('Your session expired. Reload the page and try again.'),
  NOT_FOUND: m('It isn’t there any more.'),
  LIMIT_REACHED: m('You have reached the limit. Remove something first.'),
  RATE_LIMITED: m('Too many requests. Try again in a moment.'),
  SERVICE_UNAVAILABLE: m('The server is restarting. Try again shortly.'),
  INTERNAL_ERROR: m('Something went wrong. Try again.'),
  CONFLICT: m('That can’t be done now. Reload the page and try again.'),
};

/** The server's message for this code, in the reader's language where the app has it. */
export function serverMessage(code: string, message: string): string {
  if (i18n.locale === DEFAULT_LOCALE) return message;
  if (hasTranslation(message)) return t(message);
  const general = BY_CODE[code];
  return general ? t(general) : message;
}
