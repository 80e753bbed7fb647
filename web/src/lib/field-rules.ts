import {
  CONTROL_CHARS_NO_NEWLINE,
  EMAIL_PATTERN,
  hasTooManyMarks,
  hasVisibleContent,
  LIMITS,
  MAX_COMBINING_MARKS,
  PASSWORD_IS_EMAIL,
  passwordIsEmail,
  RESERVED_USERNAMES,
  USERNAME_PATTERN,
} from '@pipit/contract';
import { t } from '../i18n/i18n.ts';

/**
 * The contract's rules for the account fields (packages/contract/src/users.ts), with its messages,
 * checked in the browser before anything is sent. The web bundle leaves zod out (web/README.md,
 * "Bundle"), so the few rules are repeated here; the server checks them all again and its answer
 * (every problem, one per field) is shown the same way (`field-errors.ts`).
 */

/** null when the email is fine; the value is checked as typed (see EmailField). */
export function emailProblem(email: string): string | null {
  const value = email.trim();
  if (!EMAIL_PATTERN.test(value)) return t('Invalid email');
  if (value.length > LIMITS.emailMax)
    return t('Email must be at most {emailMax} characters', { emailMax: LIMITS.emailMax });
  return null;
}

export function nameProblem(name: string): string | null {
  const value = name.trim();
  if (value.length === 0) return t('Name is required');
  if (value.length > LIMITS.nameMax) return t('Name must be at most {nameMax} characters', { nameMax: LIMITS.nameMax });
  if (CONTROL_CHARS_NO_NEWLINE.test(value)) return t('Name must not contain control characters');
  if (!hasVisibleContent(value)) return t('Name must have letters you can see, not only invisible ones');
  if (hasTooManyMarks(value))
    return t('Name has too many accent marks on one character (at most {MAX_COMBINING_MARKS})', {
      MAX_COMBINING_MARKS,
    });
  return null;
}

export function usernameProblem(username: string): string | null {
  const value = username.trim();
  if (value.length === 0) return t('Username is required');
  if (value.length > LIMITS.usernameMax)
    return t('Username must be at most {usernameMax} characters', { usernameMax: LIMITS.usernameMax });
  if (!USERNAME_PATTERN.test(value)) return t('Username may only contain letters, digits and _');
  if (RESERVED_USERNAMES.has(value.toLowerCase())) return t('This username is reserved');
  return null;
}

/** The password on its own; with `email`, also the contract's "not your email" rule. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < LIMITS.passwordMin)
    return t('Password must be at least {passwordMin} characters', { passwordMin: LIMITS.passwordMin });
  if (password.length > LIMITS.passwordMax)
    return t('Password must be at most {passwordMax} characters', { passwordMax: LIMITS.passwordMax });
  if (password.trim().length === 0) return t('Password must not be only spaces');
  if (email !== undefined && passwordIsEmail(password, email)) return PASSWORD_IS_EMAIL;
  return null;
}

export function bioProblem(bio: string): string | null {
  const value = bio.trim();
  if (value.length > LIMITS.bioMax) return t('Bio must be at most {bioMax} characters', { bioMax: LIMITS.bioMax });
  if (CONTROL_CHARS_NO_NEWLINE.test(value.replace(/\n/g, ''))) return t('Bio must not contain control characters');
  if (hasTooManyMarks(value))
    return t('Bio has too many accent marks on one character (at most {MAX_COMBINING_MARKS})', { MAX_COMBINING_MARKS });
  return null;
}

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** Runs one check per field and keeps the problems: every one of them at once. */
export function checkFields<F extends string>(checks: Record<F, () => string | null>): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const field of Object.keys(checks) as F[]) {
    const problem = checks[field]();
    if (problem) errors[field] = problem;
  }
  return errors;
}
