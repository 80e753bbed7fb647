import { z } from 'zod';
import { idSchema } from './common.ts';
import { emailField, passwordField } from './users.ts';

/** POST /api/settings/password: the current password (proof it is the owner), and the new one. */
export const changePasswordBody = z
  .strictObject({
    currentPassword: z.string().min(1, 'Enter your current password').max(1024),
    newPassword: passwordField,
  })
  .refine((b) => b.newPassword !== b.currentPassword, {
    message: 'The new password must differ from the current one',
    path: ['newPassword'],
  });
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** One of the member's signed-in sessions (a browser or device). */
export const sessionInfo = z.object({
  id: idSchema,
  createdAt: z.string(),
  /** When it was last renewed by use (at most daily). */
  lastActiveAt: z.string(),
  /** The browser's User-Agent when it signed in, as sent (at most 256 characters); null when none was sent. */
  userAgent: z.string().nullable(),
  /** The session this request came from. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

/** GET /api/sessions: the member's live sessions, the current one first, then newest first. */
export const sessionList = z.object({ items: z.array(sessionInfo) });
export type SessionList = z.infer<typeof sessionList>;

/** POST /api/settings/email: the new email (registration's rules) and the password, as proof. */
export const changeEmailBody = z.strictObject({
  email: emailField,
  password: z.string().min(1, 'Enter your password').max(1024),
});
export type ChangeEmailBody = z.infer<typeof changeEmailBody>;

/** POST /api/password-reset: where to send a link. The answer is the same whether or not an account uses it. */
export const passwordResetRequestBody = z.strictObject({ email: emailField });
export type PasswordResetRequestBody = z.infer<typeof passwordResetRequestBody>;

/** POST /api/password-reset/confirm: the link's token and the new password (registration's rules). */
export const passwordResetBody = z.strictObject({
  token: z.string().min(1, 'The link has no token').max(200, 'This is not a reset link’s token'),
  password: passwordField,
});
export type PasswordResetBody = z.infer<typeof passwordResetBody>;

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_MINUTES = 60;

/** DELETE /api/account: the password, as proof. */
export const deleteAccountBody = z.strictObject({ password: z.string().min(1, 'Enter your password').max(1024) });
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;
