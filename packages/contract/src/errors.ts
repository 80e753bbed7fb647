import { z } from 'zod';

/**
 * Every error code the API can answer with. Codes are stable: clients and tests match on them,
 * never on messages.
 */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_IMAGE',
  'IMAGE_TOO_LARGE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'CSRF_FAILED',
  'NOT_FOUND',
  'EMAIL_TAKEN',
  'USERNAME_TAKEN',
  'CANNOT_FOLLOW_SELF',
  /** A list member must be someone the list's owner follows. */
  'NOT_FOLLOWING',
  /** A per-member limit (lists, a list's members) is reached. */
  'LIMIT_REACHED',
  /** A second vote in a poll (one vote per person). */
  'ALREADY_VOTED',
  /** A vote in a poll that has ended. */
  'POLL_ENDED',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** For INVALID_INPUT: the offending field, as a dotted path (e.g. "email"). */
  field: z.string().optional(),
  /** For INVALID_INPUT: every problem found, one per field. */
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;
