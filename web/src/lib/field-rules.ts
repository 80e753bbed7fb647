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

/**
 * The contract's rules for the account fields (packages/contract/src/users.ts), with its messages,
 * checked in the browser before anything is sent. The web bundle leaves zod out (web/README.md,
 * "Bundle"), so the few rules are repeated here; the server checks them all again and its answer
 * (every problem, one per field) is shown the same way (`field-errors.ts`).
 */

/** null when the email is fine; the value is checked as typed (see EmailField). */
export function emailProblem(email: string): string | null {
  const value = email.trim();
  if (!EMAIL_PATTERN.test(value)) return 'Invalid email';
  if (value.length > LIMITS.emailMax) return `Email must be at most ${LIMITS.emailMax} characters`;
  return null;
}

export function nameProblem(name: string): string | null {
  const value = name.trim();
  if (value.length === 0) return 'Name is required';
  if (value.length > LIMITS.nameMax) return `Name must be at most ${LIMITS.nameMax} characters`;
  if (CONTROL_CHARS_NO_NEWLINE.test(value)) return 'Name must not contain control characters';
  if (!hasVisibleContent(value)) return 'Name must have letters you can see, not only invisible ones';
  if (hasTooManyMarks(value)) return `Name has too many accent marks on one character (at most ${MAX_COMBINING_MARKS})`;
  return null;
}

export function usernameProblem(username: string): string | null {
  const value = username.trim();
  if (value.length === 0) return 'Username is required';
  if (value.length > LIMITS.usernameMax) return `Username must be at most ${LIMITS.usernameMax} characters`;
  if (!USERNAME_PATTERN.test(value)) return 'Username may only contain letters, digits and _';
  if (RESERVED_USERNAMES.has(value.toLowerCase())) return 'This username is reserved';
  return null;
}

/** The password on its own; with `email`, also the contract's "not your email" rule. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < LIMITS.passwordMin) return `Password must be at least ${LIMITS.passwordMin} characters`;
  if (password.length > LIMITS.passwordMax) return `Password must be at most ${LIMITS.passwordMax} characters`;
  if (password.trim().length === 0) return 'Password must not be only spaces';
  if (email !== undefined && passwordIsEmail(password, email)) return PASSWORD_IS_EMAIL;
  return null;
}

export function bioProblem(bio: string): string | null {
  const value = bio.trim();
  if (value.length > LIMITS.bioMax) return `Bio must be at most ${LIMITS.bioMax} characters`;
  if (CONTROL_CHARS_NO_NEWLINE.test(value.replace(/\n/g, ''))) return 'Bio must not contain control characters';
  if (hasTooManyMarks(value)) return `Bio has too many accent marks on one character (at most ${MAX_COMBINING_MARKS})`;
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
