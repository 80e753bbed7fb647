import type { PasskeyInfo, PasskeyList } from '@pipit/contract';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Database } from '../../db/client.ts';
import { AppError, invalid, notFound } from '../../lib/errors.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import * as repo from './passkeys.repository.ts';

/** How long a challenge can be answered (the browser's own prompt times out after OPTIONS_TIMEOUT_MS). */
const CHALLENGE_TTL_MS = 5 * 60_000;
const OPTIONS_TIMEOUT_MS = 2 * 60_000;
/** Passkeys one member can keep. */
export const MAX_PASSKEYS = 20;

type Row = Awaited<ReturnType<typeof repo.listPasskeys>>[number];
const pack = (row: Row): PasskeyInfo => ({
  id: String(row.id),
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** The challenge a browser's answer signed (from its clientDataJSON), or null when it names none. */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const clientData = response.response?.clientDataJSON;
  if (typeof clientData !== 'string') return null;
  try {
    const parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 512 ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/** Whom a passkey sign-in is: the account, or 'suspended' (only the passkey's holder learns that). */
export type PasskeySignIn = { userId: number; email: string } | 'suspended' | null;

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): Settings adds (the password as proof), lists and
 * removes them; the sign-in checks an answer against a challenge this server handed out. The relying
 * party is PUBLIC_URL's host; each challenge is single-use and short-lived (kept in the database,
 * so any process can check it); user verification is required, since a passkey counts as two factors.
 */
export class PasskeysService {
  private readonly rpID: string;
  private readonly origin: string;

  constructor(
    private readonly db: Database,
    private readonly auth: AuthService,
    publicUrl: string,
  ) {
    const url = new URL(publicUrl);
    this.rpID = url.hostname;
    this.origin = url.origin;
  }

  async list(viewer: SessionUser): Promise<PasskeyList> {
    return { items: (await repo.listPasskeys(this.db, viewer.userId)).map(pack) };
  }

  /** Options for the browser to make a new passkey (the password as proof: it is a new way in). */
  async registrationOptions(viewer: SessionUser, password: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
    await this.auth.confirmPassword(viewer, password, 'password', 'The password is not right.');
    const existing = await repo.listPasskeys(this.db, viewer.userId);
    if (existing.length >= MAX_PASSKEYS) throw tooMany();
    const options = await generateRegistrationOptions({
      rpName: 'Pipit',
      rpID: this.rpID,
      userName: viewer.username,
      userDisplayName: viewer.name,
      userID: new TextEncoder().encode(`pipit:${viewer.userId}`),
      attestationType: 'none',
      timeout: OPTIONS_TIMEOUT_MS,
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      // A passkey: kept on the authenticator (so it signs in without an email), verified by its owner.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await repo.saveChallenge(
      this.db,
      options.challenge,
      'register',
      viewer.userId,
      new Date(Date.now() + CHALLENGE_TTL_MS),
    );
    return options;
  }

  /** Checks the browser's new credential against the member's challenge and keeps it, named. */
  async add(viewer: SessionUser, name: string, response: RegistrationResponseJSON): Promise<PasskeyInfo> {
    const challenge = challengeOf(response);
    if (!challenge || !(await repo.takeChallenge(this.db, challenge, 'register', viewer.userId))) {
      throw invalid(
        'response',
        'This answer is not for a challenge of yours, or it expired. Try adding the passkey again.',
      );
    }
    if ((await repo.countPasskeys(this.db, viewer.userId)) >= MAX_PASSKEYS) throw tooMany();
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        requireUserVerification: true,
      });
    } catch (error) {
      throw invalid('response', `The passkey could not be checked: ${(error as Error).message}`);
    }
    if (!verification.verified) throw invalid('response', 'The passkey could not be checked.');
    const { credential } = verification.registrationInfo;
    const row = await repo.insertPasskey(this.db, {
      userId: viewer.userId,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: (credential.transports ?? []).slice(0, 10),
      name,
    });
    if (!row) throw invalid('response', 'This passkey is added already.');
    return pack(row);
  }

  async remove(viewer: SessionUser, id: number): Promise<void> {
    if (!(await repo.deletePasskey(this.db, viewer.userId, id))) throw notFound('No such passkey.');
  }

  /** Options for a sign-in with any passkey of this site (discoverable: no email asked). */
  async signInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: this.rpID,
      userVerification: 'preferred',
      timeout: OPTIONS_TIMEOUT_MS,
    });
    await repo.saveChallenge(this.db, options.challenge, 'authenticate', null, new Date(Date.now() + CHALLENGE_TTL_MS));
    return options;
  }

  /**
   * The account a browser's sign-in answer proves, or null: the challenge must be one handed out for
   * a sign-in, unexpired and unused (it is spent here whatever follows); the passkey must exist; the
   * signature, origin, RP ID and user verification must check out and the counter must grow.
   */
  async verifySignIn(response: AuthenticationResponseJSON): Promise<PasskeySignIn> {
    const challenge = challengeOf(response);
    if (!challenge || !(await repo.takeChallenge(this.db, challenge, 'authenticate', null))) return null;
    const found = await repo.findByCredentialId(this.db, response.id);
    if (!found) return null;
    const { passkey } = found;
    let newCounter: number;
    try {
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        credential: {
          id: passkey.credentialId,
          publicKey: isoBase64URL.toBuffer(passkey.publicKey),
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: true,
      });
      if (!verification.verified) return null;
      newCounter = verification.authenticationInfo.newCounter;
    } catch {
      return null;
    }
    if (!(await repo.recordUse(this.db, passkey.id, passkey.counter, newCounter))) return null;
    if (found.suspendedAt !== null) return 'suspended';
    // Only members sign in (a remote person's row has no email, and no passkey).
    if (found.email === null) return null;
    return { userId: passkey.userId, email: found.email };
  }
}

const tooMany = () => new AppError('LIMIT_REACHED', `You can keep at most ${MAX_PASSKEYS} passkeys. Remove one first.`);
