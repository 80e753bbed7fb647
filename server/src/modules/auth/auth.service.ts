import { randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import { type CurrentUser, PASSWORD_IS_EMAIL, passwordIsEmail } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { invalid } from '../../lib/errors.ts';
import type { SessionsService, SessionUser } from '../sessions/sessions.service.ts';
import { hashPassword, isCommonPassword } from '../users/users.passwords.ts';
import type { UsersService } from '../users/users.service.ts';
import * as repo from './auth.repository.ts';

/** Nothing longer can belong to an account (docs/spec/product.md §2); the cap also bounds the work per attempt. */
const MAX_EMAIL_LENGTH = 254;
const MAX_PASSWORD_LENGTH = 1024;

/** Expired sessions are deleted during a sign-in at most this often. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** Whether `password` is the one `hash` was made from; a malformed stored hash never matches. */
async function passwordMatches(hash: string, password: string): Promise<boolean> {
  try {
    return await verify(hash, password);
  } catch {
    return false;
  }
}

export class AuthService {
  private lastPurge = 0;

  private constructor(
    private readonly db: Database,
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
    /** Verified when the email is unknown, so that case costs what a wrong password costs. */
    private readonly dummyHash: string,
  ) {}

  /** The dummy hash is made as registration makes hashes, so verifying it costs the same. */
  static async create(db: Database, sessions: SessionsService, users: UsersService): Promise<AuthService> {
    return new AuthService(db, sessions, users, await hashPassword(randomBytes(32).toString('hex')));
  }

  /**
   * The account id when the email and password match, otherwise null ('suspended' when they match a
   * suspended account: only someone with its password learns that). An unknown email and a wrong
   * password take one lookup and one argon2 verification each, so neither the answer nor its timing
   * tells which emails have accounts.
   */
  async verifyCredentials(
    email: string | undefined,
    password: string | undefined,
  ): Promise<number | 'suspended' | null> {
    if (!email || !password || email.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH) return null;
    // PostgreSQL refuses a NUL in a text parameter; no account's email contains one.
    if (email.includes('\u0000')) return null;
    const account = await repo.findCredentialsByEmail(this.db, email.trim());
    const matches = await passwordMatches(account?.passwordHash ?? this.dummyHash, password);
    if (!account || !matches) return null;
    return account.suspendedAt === null ? account.id : 'suspended';
  }

  /**
   * Starts a new session for a successful sign-in. A session the browser still carried is revoked:
   * every sign-in gets a fresh token, so a token planted before sign-in is worth nothing after it.
   */
  async startSession(
    userId: number,
    previousToken: string | undefined,
    userAgent?: string,
  ): Promise<{ token: string; expiresAt: Date }> {
    await this.sessions.revoke(previousToken);
    if (Date.now() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = Date.now();
      await this.sessions.purgeExpired();
    }
    return this.sessions.create(userId, userAgent);
  }

  /** Proof that the member is at the keyboard: their password, or 400 INVALID_INPUT on `field`. */
  async confirmPassword(viewer: SessionUser, password: string, field: string, message: string): Promise<void> {
    const account = await repo.findCredentialsById(this.db, viewer.userId);
    if (!account?.passwordHash || !(await passwordMatches(account.passwordHash, password)))
      throw invalid(field, message);
  }

  /** Changes a member's email, their password as proof (UsersService.changeEmail: unique, lower-case). */
  async changeEmail(viewer: SessionUser, password: string, email: string): Promise<CurrentUser> {
    await this.confirmPassword(viewer, password, 'password', 'The password is not right.');
    return this.users.changeEmail(viewer.userId, email);
  }

  /**
   * Changes a member's password: the current one must match (400 on `currentPassword` otherwise), the
   * new one follows registration's rules, and every other session of theirs ends (this one stays).
   */
  async changePassword(viewer: SessionUser, currentPassword: string, newPassword: string): Promise<void> {
    await this.confirmPassword(viewer, currentPassword, 'currentPassword', 'The current password is not right.');
    if (isCommonPassword(newPassword)) {
      throw invalid('newPassword', 'This password is one of the most common ones. Choose another.');
    }
    if (passwordIsEmail(newPassword, viewer.email)) {
      throw invalid('newPassword', PASSWORD_IS_EMAIL);
    }
    await repo.updatePasswordHash(this.db, viewer.userId, await hashPassword(newPassword));
    await this.sessions.revokeOthers(viewer);
  }
}
