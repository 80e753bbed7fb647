import type { ErrorCode } from '@pipit/contract';
import { DEFAULT_LOCALE, hasTranslation, i18n, m, t } from './i18n.ts';

/**
 * The server answers in English, with a code (docs/decisions.md "Languages"): the web shows its message in
 * the reader's language. The exact English texts the server sends that a person meets are translated
 * as they are (below); any other message of a known code gets that code's general sentence; English
 * shows the server's own words, byte for byte.
 */
export const SERVER_TEXTS = [
  m('You have already voted in this poll.'),
  m('You cannot follow yourself.'),
  m('Start setting up two-factor sign-in first.'),
  m('Two-factor sign-in is off.'),
  m('An account with this email already exists.'),
  m('You can only add people you follow to a list. Follow them first.'),
  m('No such image.'),
  m('This poll has ended: it takes no more votes.'),
  m('The server is restarting. Try again shortly.'),
  m('You need to sign in to do that.'),
  m('This username is taken.'),
  m('This user does not exist.'),
  m('No such session.'),
  m('No such report.'),
  m('No such passkey.'),
  m('No such muted word.'),
  m('No such app.'),
  m('This password is one of the most common ones. Choose another.'),
  m('You cannot mute yourself.'),
  m('You cannot block yourself.'),
  m('You can only delete your own posts.'),
  m('You can only edit your own posts.'),
  m('You cannot follow this account.'),
  m('This scheduled post does not exist (or was published or cancelled).'),
  m('This post has no poll.'),
  m('This post does not exist (or was deleted).'),
  m('This list does not exist.'),
  m('This draft does not exist (or was deleted).'),
  m('No such conversation.'),
  m('No request from this person is waiting.'),
  m('Post must not be empty'),
  m('This time has passed: choose a new one.'),
  m('A post can be scheduled at most a year ahead; choose a sooner time.'),
  m('This passkey is added already.'),
  m('The passkey could not be checked.'),
  m('A post cannot have both a poll and images'),
  m('A post with a poll cannot have images: remove the poll first.'),
  m('You cannot suspend yourself.'),
  m('You cannot report yourself.'),
  m('You cannot report your own post.'),
  m('You cannot change your own role.'),
  m('That code is not right. Enter the code your app shows now.'),
  m('Enter a code from your current authenticator app (or a recovery code).'),
  m('This poll takes one choice only.'),
];

/** A general sentence per code, for the messages not listed above. */
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
