import type { CurrentUser, EditBody, RegisterBody, User, UserSummary } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { violatedUniqueConstraint } from '../../lib/db-errors.ts';
import { AppError, invalid, unauthenticated, userNotFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus } from '../../lib/events.ts';
import type { FederationLink } from '../../lib/federation-link.ts';
import type { UserId } from '../../lib/ids.ts';
import type { Jobs } from '../../lib/jobs.ts';
import type { FollowsService } from '../follows/follows.service.ts';
import { type ImageKind, isDataUrl, type MediaService, type PreparedImage } from '../media/media.service.ts';
import { type Viewer, viewerIdOf } from '../sessions/sessions.service.ts';
import { toCurrentUser, toUser, toUserSummary } from './users.pack.ts';
import { hashPassword, isCommonPassword } from './users.passwords.ts';
import * as repo from './users.repository.ts';

const emailTaken = () => new AppError('EMAIL_TAKEN', 'An account with this email already exists.', 'email');
const usernameTaken = () => new AppError('USERNAME_TAKEN', 'This username is taken.', 'username');

/** A lost race on a unique index reads as the same 409 the check before it would have given. */
function takenError(error: unknown): AppError | null {
  const constraint = violatedUniqueConstraint(error);
  if (constraint === repo.USERS_EMAIL_KEY) return emailTaken();
  if (constraint === repo.USERS_USERNAME_KEY) return usernameTaken();
  return null;
}

/** A person as the viewer sees them: nobody follows, blocks or mutes themselves (one's own profile says false). */
const asSeenBy = (row: repo.UserViewRow, viewer: Viewer) => toUser(row, row.id === viewer?.userId ? undefined : row);

type ImageChange = { kind: 'keep' } | { kind: 'remove' } | { kind: 'upload'; dataUrl: string };

export class UsersService {
  constructor(
    private readonly db: Database,
    private readonly media: MediaService,
    private readonly jobs: Jobs,
    private readonly events: EventBus,
    /** Turning "Approve followers" off approves the waiting requests, in the edit's transaction. */
    private readonly follows: Pick<FollowsService, 'approveAllWithin'>,
    /** The app's origin: an image field may also carry the current URL in absolute form. */
    private readonly publicUrl: string,
    /** Accounts with these emails (lower-case) are admins (config.adminEmails), as is the first account. */
    private readonly adminEmails: readonly string[] = [],
    /** Federation: a profile's change is sent to its followers elsewhere (lib/federation-link.ts). */
    private readonly federation: FederationLink | null = null,
  ) {}

  /**
   * Creates an account; does not sign in (the client signs in through /api/auth afterwards).
   * Emails are kept lower-case; usernames keep their case. Both are unique ignoring case.
   */
  async register(input: RegisterBody): Promise<CurrentUser> {
    if (isCommonPassword(input.password)) {
      throw invalid('password', 'This password is one of the most common ones. Choose another.');
    }
    const email = input.email.toLowerCase();
    const taken = await repo.findByEmailOrUsername(this.db, { email, username: input.username });
    if (taken.some((t) => t.email.toLowerCase() === email)) throw emailTaken();
    if (taken.length > 0) throw usernameTaken();

    const passwordHash = await hashPassword(input.password);
    try {
      const row = await repo.insertUser(
        this.db,
        { email, username: input.username, name: input.name, passwordHash },
        this.adminEmails.includes(email),
      );
      return toCurrentUser(row, false);
    } catch (error) {
      throw takenError(error) ?? error;
    }
  }

  /** Changes the member's email (stored lower-case, unique ignoring case: 409 EMAIL_TAKEN). */
  async changeEmail(userId: number, email: string): Promise<CurrentUser> {
    try {
      await repo.updateEmail(this.db, userId, email.toLowerCase());
    } catch (error) {
      throw takenError(error) ?? error;
    }
    // Cached sessions carry the email.
    await this.events.publish([{ type: 'user.updated', userId }]);
    return this.current(userId);
  }

  async current(userId: number): Promise<CurrentUser> {
    const row = await repo.findCurrentUser(this.db, userId);
    if (!row) throw unauthenticated();
    return toCurrentUser(row, row.hasNotification);
  }

  /** Who To Follow: never the viewer nor people they follow. */
  async suggestions(viewer: Viewer, limit: number): Promise<UserSummary[]> {
    const rows = await repo.findSuggestions(this.db, viewerIdOf(viewer), limit);
    return rows.map(toUserSummary);
  }

  async profile(viewer: Viewer, id: UserId): Promise<User> {
    return this.profileWhere(viewer, { id });
  }

  /** Several people as the viewer sees them, in the order of `ids` (unknown ones left out): one statement. */
  async many(viewer: Viewer, ids: readonly number[]): Promise<User[]> {
    const rows = new Map((await repo.findUsers(this.db, [...new Set(ids)], viewerIdOf(viewer))).map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row ? [asSeenBy(row, viewer)] : [];
    });
  }

  /** The profile an @mention points at (usernames are unique ignoring case). */
  async profileByUsername(viewer: Viewer, username: string): Promise<User> {
    return this.profileWhere(viewer, { username });
  }

  private async profileWhere(viewer: Viewer, where: { id: UserId } | { username: string }): Promise<User> {
    const row = await repo.findUser(this.db, where, viewerIdOf(viewer));
    if (!row) throw userNotFound();
    return asSeenBy(row, viewer);
  }

  /**
   * Edits the viewer's own profile. Image fields: a data URL stores a new image, the current URL
   * keeps it, null removes it. Every field is checked before any image is processed.
   */
  async edit(userId: number, input: EditBody): Promise<CurrentUser> {
    const current = await repo.findCurrentUser(this.db, userId);
    if (!current) throw unauthenticated();

    const profileImage = this.imageChange('profileImage', input.profileImage, current.profileImage);
    const coverImage = this.imageChange('coverImage', input.coverImage, current.coverImage);
    if (input.username !== undefined && input.username !== current.username) {
      const taken = await repo.findByEmailOrUsername(this.db, { username: input.username }, userId);
      if (taken.length > 0) throw usernameTaken();
    }

    // Images are checked and re-encoded first; their files are stored in the transaction that
    // references them, and the files they replace are collected once it has committed.
    const newProfile = await this.prepareImage(profileImage, 'avatar', 'profileImage');
    const newCover = await this.prepareImage(coverImage, 'cover', 'coverImage');
    const patch: repo.UserPatch = {
      name: input.name,
      username: input.username,
      bio: input.bio === null ? '' : input.bio,
      profileImage: columnValue(profileImage, newProfile),
      coverImage: columnValue(coverImage, newCover),
      defaultVisibility: input.defaultVisibility,
      locked: input.locked,
      expandSpoilers: input.expandSpoilers,
    };
    if (Object.values(patch).some((v) => v !== undefined)) {
      try {
        await commitThenPublish(this.db, this.events, async (tx, outbox) => {
          await this.media.storeWithin(
            tx,
            [newProfile, newCover].filter((image) => image !== null),
          );
          // "Approve followers" off: whatever waits is approved with it, first, before the row is locked (nothing
          // waits on an account never locked; apps send locked=false with every profile edit).
          if (input.locked === false) await this.follows.approveAllWithin(tx, outbox, userId);
          if (!(await repo.updateUser(tx, userId, patch))) throw unauthenticated();
          outbox.add({ type: 'user.updated', userId });
          outbox.afterCommit(() => this.federation?.current?.profileUpdated(userId));
        });
      } catch (error) {
        // Rolled back: the files stored for it may be nobody's.
        const stored = [newProfile, newCover].flatMap((image) => (image ? [image.url] : []));
        if (stored.length > 0) this.jobs.run('media.collect', () => this.media.collect(stored));
        throw takenError(error) ?? error;
      }
      const replaced = [
        patch.profileImage !== undefined ? current.profileImage : null,
        patch.coverImage !== undefined ? current.coverImage : null,
      ].filter((url): url is string => url !== null);
      if (replaced.length > 0) this.jobs.run('media.collect', () => this.media.collect(replaced));
    }
    return this.current(userId);
  }

  private imageChange(field: string, value: string | null | undefined, current: string | null): ImageChange {
    if (value === undefined) return { kind: 'keep' };
    if (value === null) return current === null ? { kind: 'keep' } : { kind: 'remove' };
    if (current !== null && (value === current || value === `${this.publicUrl}${current}`)) return { kind: 'keep' };
    if (isDataUrl(value)) return { kind: 'upload', dataUrl: value };
    throw invalid(
      field,
      `${field} must be a data URL (a new image), the current image URL (unchanged) or null (none).`,
    );
  }

  private prepareImage(change: ImageChange, kind: ImageKind, field: string): Promise<PreparedImage | null> {
    return change.kind === 'upload' ? this.media.prepareImage(change.dataUrl, kind, field) : Promise.resolve(null);
  }
}

/** The image column's new value, or undefined to leave it. */
function columnValue(change: ImageChange, prepared: PreparedImage | null): string | null | undefined {
  if (change.kind === 'keep') return undefined;
  if (change.kind === 'remove') return null;
  return prepared?.url;
}
