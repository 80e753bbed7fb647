import { ID_PATTERN } from '@pipit/contract';
import { type AppError, postNotFound, userNotFound } from './errors.ts';

declare const idKind: unique symbol;

/**
 * Database ids that say what they name. A route parses the wire's string once (`parsePostId`,
 * `parseUserId`); services and repositories then take these types, so a person's id can never be
 * passed where a post's is wanted.
 */
export type PostId = number & { readonly [idKind]: 'post' };
export type UserId = number & { readonly [idKind]: 'user' };

/** The one id rule of every API (the contract's, for its idSchema, Mastodon's ids and the web alike). */
export const WIRE_ID = ID_PATTERN;

/** Whether a wire string is an id that can name something (the rule above, and within 2^53). */
export const isWireId = (wire: unknown): wire is string =>
  typeof wire === 'string' && WIRE_ID.test(wire) && Number.isSafeInteger(Number(wire));

/**
 * A wire id as a database id. The contract allows up to 18 digits; past 2^53 a JS number would
 * round to another id, so such ids name nothing (the 404 of an unknown one), as does anything
 * that is not an id at all.
 */
export function parseId(wire: string, whenUnknown: () => AppError): number {
  if (!isWireId(wire)) throw whenUnknown();
  return Number(wire);
}

export const parsePostId = (wire: string): PostId => parseId(wire, postNotFound) as PostId;
export const parseUserId = (wire: string): UserId => parseId(wire, userNotFound) as UserId;
