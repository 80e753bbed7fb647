import { randomBytes } from 'node:crypto';
import { PASSWORD_IS_EMAIL, PASSWORD_RESET_TTL_MINUTES, passwordIsEmail } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { sha256Hex } from '../../lib/auth-cookies.ts';
import { invalid } from '../../lib/errors.ts';
import type { Jobs } from '../../lib/jobs.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { SessionsService } from '../sessions/sessions.service.ts';
import { hashPassword, isCommonPassword } from '../users/users.passwords.ts';
import * as repo from './auth.repository.ts';
import { type MailLanguage, passwordResetMail } from './password-reset.mail.ts';

const TTL_MS = PASSWORD_RESET_TTL_MINUTES * 60_000;
/** Spent and expired resets are kept this long after expiring (a support question may need them), then removed. */
const KEEP_MS = 24 * 60 * 60_000;

const badLink = () =>
  invalid(
    'token',
    'This link does not work any more: it was used already, or it is more than an hour old. Ask for a new one.',
  );

/**
 * "Forgot password?": a link by email to set a new password. The token is 256 random bits, sent only
 * in the email; the database keeps its sha256. A link works once, for an hour; using it spends every
 * other link of the account and ends every session.
 */
export class PasswordResetService {
  constructor(
    private readonly db: Database,
    private readonly sessions: SessionsService,
    private readonly mailer: Mailer,
    private readonly jobs: Jobs,
    private readonly publicUrl: string,
  ) {}

  /**
   * Sends a link when an account uses `email`, and nothing otherwise. Done in the background: the
   * answer (and its timing) is the same either way, so it tells nobody which emails have accounts.
   * The email is written in `language` (the asker's, from Accept-Language).
   */
  request(email: string, language: MailLanguage = 'en'): void {
    this.jobs.run('password-reset.mail', async () => {
      const account = await repo.findCredentialsByEmail(this.db, email);
      if (!account) return;
      const token = randomBytes(32).toString('base64url');
      await repo.insertPasswordReset(this.db, account.id, sha256Hex(token), new Date(Date.now() + TTL_MS));
      await repo.deleteOldPasswordResets(this.db, new Date(Date.now() - KEEP_MS));
      const link = `${this.publicUrl}/reset-password?token=${token}`;
      const mail = passwordResetMail(language, link, PASSWORD_RESET_TTL_MINUTES);
      await this.mailer.send({ to: account.email, subject: mail.subject, text: mail.text });
    });
  }

  /**
   * Sets a new password with a link's token: registration's rules for the password (checked before
   * the link is spent, so a refused password leaves the link working), then, at once, the link is
   * spent, the password changed and every session of the account ended.
   */
  async reset(token: string, password: string): Promise<void> {
    const hash = sha256Hex(token);
    const account = await repo.findLivePasswordReset(this.db, hash, new Date());
    if (!account) throw badLink();
    if (isCommonPassword(password)) {
      throw invalid('password', 'This password is one of the most common ones. Choose another.');
    }
    if (passwordIsEmail(password, account.email)) throw invalid('password', PASSWORD_IS_EMAIL);
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      const spent = await repo.spendPasswordReset(tx, hash, new Date());
      if (!spent) throw badLink(); // Used by a request that raced this one.
      await repo.updatePasswordHash(tx, spent.id, passwordHash);
    });
    await this.sessions.revokeAll(account.id);
  }
}
