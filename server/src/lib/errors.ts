import type { ErrorCode } from '@pipit/contract';

const STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  UNSUPPORTED_IMAGE: 400,
  IMAGE_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CSRF_FAILED: 403,
  NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  USERNAME_TAKEN: 409,
  CANNOT_FOLLOW_SELF: 400,
  NOT_FOLLOWING: 409,
  LIMIT_REACHED: 409,
  ALREADY_VOTED: 422,
  POLL_ENDED: 422,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

/** A coded error services throw; the error handler turns it into `{code, message, field?}`. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = STATUS[code];
  }
}

export const invalid = (field: string, message: string) => new AppError('INVALID_INPUT', message, field);
export const unauthenticated = () => new AppError('UNAUTHENTICATED', 'You need to sign in to do that.');
export const forbidden = (message = 'You are not allowed to do that.') => new AppError('FORBIDDEN', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const postNotFound = () => notFound('This post does not exist (or was deleted).');
export const userNotFound = () => notFound('This user does not exist.');
