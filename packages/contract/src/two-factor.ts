import { z } from 'zod';
import { CONTROL_CHARS, idSchema } from './common.ts';

/**
 * Two-factor sign-in (an authenticator app's codes, TOTP) and passkeys (WebAuthn). The sign-in itself
 * goes through the /api/auth protocol (docs/security.md "Two-factor sign-in"); these are Settings'
 * calls and the passkey sign-in's challenge.
 */

/** How many recovery codes are made when two-factor sign-in is turned on. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * The error names the credentials callback puts in its `?error=` (NextAuth's way of saying why a
 * sign-in failed), beside NextAuth's own CredentialsSignin.
 */
export const SIGN_IN_ERRORS = {
  /** The email and password are right and the account asks for a code: send them again with `totp`. */
  twoFactorRequired: 'TwoFactorRequired',
  /** The code (or recovery code) is wrong, or was already used. */
  twoFactorInvalid: 'TwoFactorInvalid',
  /** The passkey's answer does not sign this server's challenge, or names no passkey here. */
  passkeyInvalid: 'PasskeySignin',
} as const;

/** A code as typed: 6 digits from the app, or a recovery code (spaces and dashes are ignored). */
export const twoFactorCode = z
  .string()
  .trim()
  .min(1, 'Enter the code from your authenticator app')
  .max(64, 'This is not a code');

/** GET /api/settings/two-factor. */
export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  /** Recovery codes not used yet (0 while two-factor sign-in is off). */
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

/**
 * POST /api/settings/two-factor/setup: the password, as proof, and when two-factor sign-in is on
 * already (moving it to a new app) a code of the current one; answers a new secret to confirm.
 */
export const twoFactorSetupBody = z.strictObject({
  password: z.string().min(1, 'Enter your password').max(1024),
  code: twoFactorCode.optional(),
});
export const twoFactorSetup = z.object({
  /** The secret in base32, for typing into the app by hand. */
  secret: z.string(),
  /** The otpauth:// URI the QR code holds. */
  uri: z.string(),
  /** The QR code of `uri`, an SVG image as a data: URL. */
  qrCode: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetup>;

/** POST /api/settings/two-factor/enable: a code from the app, for the secret just set up. */
export const twoFactorEnableBody = z.strictObject({ code: twoFactorCode });
/** The recovery codes, shown this once (only their hashes are kept). */
export const recoveryCodeList = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodeList = z.infer<typeof recoveryCodeList>;

/** DELETE /api/settings/two-factor: the password and a code (or a recovery code). */
export const twoFactorDisableBody = z.strictObject({
  password: z.string().min(1, 'Enter your password').max(1024),
  code: twoFactorCode,
});

/** One of the member's passkeys. */
export const passkeyInfo = z.object({
  id: idSchema,
  name: z.string(),
  createdAt: z.string(),
  /** null until it signs in once. */
  lastUsedAt: z.string().nullable(),
});
export type PasskeyInfo = z.infer<typeof passkeyInfo>;
export const passkeyList = z.object({ items: z.array(passkeyInfo) });
export type PasskeyList = z.infer<typeof passkeyList>;

/** POST /api/passkeys/options: the password, as proof, before a new way in is added. */
export const passkeyOptionsBody = z.strictObject({ password: z.string().min(1, 'Enter your password').max(1024) });

/**
 * WebAuthn options (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON) as the browser
 * library takes them; passed through whole.
 */
export const webauthnOptions = z.looseObject({ challenge: z.string() });

/** A browser's WebAuthn answer (RegistrationResponseJSON / AuthenticationResponseJSON), checked by the server. */
export const webauthnResponse = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(4096) }),
});

export const PASSKEY_NAME_MAX = 64;

/** POST /api/passkeys: the browser's answer to the options, and a name for the passkey. */
export const addPasskeyBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'Give the passkey a name')
    .max(PASSKEY_NAME_MAX, `At most ${PASSKEY_NAME_MAX} characters`)
    .refine((name) => !CONTROL_CHARS.test(name), 'The name has characters that are not allowed'),
  response: webauthnResponse,
});
