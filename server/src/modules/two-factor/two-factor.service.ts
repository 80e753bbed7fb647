import { RECOVERY_CODE_COUNT, type RecoveryCodeList, type TwoFactorSetup, type TwoFactorStatus } from '@pipit/contract';
import { renderSVG } from 'uqr';
import type { Database } from '../../db/client.ts';
import { AppError, invalid } from '../../lib/errors.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import {
  appCode,
  decryptSecret,
  encryptSecret,
  hashRecoveryCode,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  totpStep,
  totpUri,
} from './two-factor.crypto.ts';
import * as repo from './two-factor.repository.ts';

/** What a sign-in's second step comes to: no code needed or the right one, none given, a wrong or used one. */
export type SecondFactor = 'ok' | 'required' | 'invalid';

const WRONG_CODE = 'That code is not right, or it was used already. Enter the newest code from your app.';

/**
 * Two-factor sign-in with an authenticator app (TOTP) and recovery codes: Settings turns it on (a
 * secret confirmed with a code) and off (password and a code); the sign-in asks `check` for the code.
 */
export class TwoFactorService {
  /** The clock codes are checked against (tests set it to check replay at a known step). */
  now: () => number = () => Date.now();

  constructor(
    private readonly db: Database,
    private readonly auth: AuthService,
    private readonly config: { authSecret: string; publicUrl: string },
  ) {}

  async status(viewer: SessionUser): Promise<TwoFactorStatus> {
    const row = await repo.findTwoFactor(this.db, viewer.userId);
    if (!row?.enabledAt) return { enabled: false, recoveryCodesLeft: 0 };
    return { enabled: true, recoveryCodesLeft: await repo.countUnusedRecoveryCodes(this.db, viewer.userId) };
  }

  /** Whether the account asks for a second factor at sign-in. */
  async isEnabled(userId: number): Promise<boolean> {
    return Boolean((await repo.findTwoFactor(this.db, userId))?.enabledAt);
  }

  /**
   * A new secret to confirm: the password as proof and, when two-factor sign-in is on already (a new
   * phone), a code of the current one too, so neither factor alone can move it. Answers the secret,
   * its otpauth URI and QR code; sign-in keeps using the current secret until the new one is confirmed.
   */
  async setup(viewer: SessionUser, password: string, code?: string): Promise<TwoFactorSetup> {
    await this.auth.confirmPassword(viewer, password, 'password', 'The password is not right.');
    if (await this.isEnabled(viewer.userId)) {
      if (!code) throw invalid('code', 'Enter a code from your current authenticator app (or a recovery code).');
      if ((await this.check(viewer.userId, code)) !== 'ok') throw invalid('code', WRONG_CODE);
    }
    const secret = newTotpSecret();
    await repo.savePendingSecret(this.db, viewer.userId, encryptSecret(secret, viewer.userId, this.config.authSecret));
    const host = new URL(this.config.publicUrl).host;
    const uri = totpUri(secret, `@${viewer.username}@${host}`, `Pipit (${host})`);
    const svg = renderSVG(uri, { border: 2 });
    return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /**
   * Confirms the secret being set up with one of its codes: two-factor sign-in is on (or moved to the
   * new secret), with ten new recovery codes, shown this once (the old ones stop working).
   */
  async enable(viewer: SessionUser, code: string): Promise<RecoveryCodeList> {
    const row = await repo.findTwoFactor(this.db, viewer.userId);
    if (!row?.pendingSecret) throw new AppError('CONFLICT', 'Start setting up two-factor sign-in first.');
    const secret = decryptSecret(row.pendingSecret, viewer.userId, this.config.authSecret);
    const digits = appCode(code);
    const step = secret && digits ? totpStep(secret, digits, this.now()) : null;
    if (step === null) throw invalid('code', 'That code is not right. Enter the code your app shows now.');
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const enabled = await this.db.transaction(async (tx) => {
      if (!(await repo.enable(tx, viewer.userId, row.pendingSecret!, step))) return false;
      await repo.replaceRecoveryCodes(
        tx,
        viewer.userId,
        recoveryCodes.map((c) => hashRecoveryCode(normalizeRecoveryCode(c)!)),
      );
      return true;
    });
    // Another request confirmed this secret (or set up another) meanwhile.
    if (!enabled) throw new AppError('CONFLICT', 'Start setting up two-factor sign-in first.');
    return { recoveryCodes };
  }

  /** Turns it off: the password and a code (or a recovery code), each refused on its own field. */
  async disable(viewer: SessionUser, password: string, code: string): Promise<void> {
    if (!(await this.isEnabled(viewer.userId))) throw new AppError('CONFLICT', 'Two-factor sign-in is off.');
    await this.auth.confirmPassword(viewer, password, 'password', 'The password is not right.');
    if ((await this.check(viewer.userId, code)) !== 'ok') throw invalid('code', WRONG_CODE);
    await this.db.transaction((tx) => repo.deleteTwoFactor(tx, viewer.userId));
  }

  /**
   * The second step of a sign-in whose password was right: 'ok' when the account has no second
   * factor or `code` is a current app code not used before (its step is spent) or an unused recovery
   * code (spent); 'required' when no code came; 'invalid' otherwise.
   */
  async check(userId: number, code: string | undefined): Promise<SecondFactor> {
    const row = await repo.findTwoFactor(this.db, userId);
    if (!row?.enabledAt || !row.secret) return 'ok';
    if (!code?.trim()) return 'required';
    if (code.length > 64) return 'invalid';
    const digits = appCode(code);
    if (digits) {
      const secret = decryptSecret(row.secret, userId, this.config.authSecret);
      const step = secret ? totpStep(secret, digits, this.now()) : null;
      if (step === null) return 'invalid';
      return (await repo.claimStep(this.db, userId, step)) ? 'ok' : 'invalid';
    }
    const recovery = normalizeRecoveryCode(code);
    if (!recovery) return 'invalid';
    return (await repo.spendRecoveryCode(this.db, userId, hashRecoveryCode(recovery))) ? 'ok' : 'invalid';
  }
}
