import { randomBytes } from 'node:crypto';
import type { Role, SessionList, Visibility } from '@pipit/contract';
import type { Database, Executor } from '../../db/client.ts';
import { sha256Hex } from '../../lib/auth-cookies.ts';
import { notFound } from '../../lib/errors.ts';
import { EventCache } from '../../lib/event-cache.ts';
import { type EventBus, exhaustive } from '../../lib/events.ts';
import * as repo from './sessions.repository.ts';

/** The longest User-Agent kept with a session. */
const USER_AGENT_MAX = 256;

/** The expiry is pushed forward at most once a day (NextAuth's updateAge), not on every request. */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

export interface SessionUser {
  sessionId: number;
  userId: number;
  name: string;
  email: string;
  username: string;
  profileImage: string | null;
  /** member, moderator or admin: what moderation.service lets them do. */
  role: Role;
  /** What a post is seen by when its writer does not say (Settings). */
  defaultVisibility: Visibility;
  expiresAt: Date;
}

/** Who is asking: the signed-in person, or null for a visitor. The one convention of every service. */
export type Viewer = SessionUser | null;
/** The asking person's id for a query, or null for a visitor. */
export const viewerIdOf = (viewer: Viewer): number | null => viewer?.userId ?? null;

/**
 * Sessions resolved lately, by token hash: most calls then need no statement for the session. Kept
 * right by events (sessions.ended, user.updated) in every process; a renewal drops its entry.
 */
const CACHE = { max: 10_000, ttlMs: 30_000 };

/**
 * Another way a person is signed in (an app's OAuth tokens): ended with their sessions — signing out
 * everywhere, a new password, a suspension. The core never imports what implements it (services.ts
 * hands it in), so sign-in methods can be added without the core knowing them.
 */
export interface OtherCredentials {
  /** Ends every credential of the person, inside the caller's transaction when given one. */
  endAllWithin(db: Executor, userId: number): Promise<void>;
}

export class SessionsService {
  private readonly cache: EventCache<string, SessionUser>;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly maxAgeMs: number,
    private readonly otherCredentials: readonly OtherCredentials[] = [],
  ) {
    this.cache = new EventCache(events, CACHE);
    events.subscribe((event) => {
      switch (event.type) {
        case 'sessions.ended':
        case 'user.updated':
        case 'user.suspended':
          this.cache.dropWhere((session) => session.userId === event.userId);
          break;
        case 'post.created':
        case 'post.deleted':
        case 'post.updated':
        case 'post.card':
        case 'post.liked':
        case 'post.unliked':
        case 'post.bookmarked':
        case 'post.unbookmarked':
        case 'user.followed':
        case 'user.unfollowed':
        case 'hashtag.followed':
        case 'hashtag.unfollowed':
        case 'visibility.changed':
        case 'oauth.revoked':
        case 'feed.updated':
        case 'notifications.read':
        case 'notification.created':
        case 'conversation.updated':
        case 'poll.updated':
          // A session holds who the person is and their role: nothing else changes it.
          break;
        default:
          exhaustive(event);
      }
    });
  }

  /**
   * Creates a session and returns the opaque token for the cookie (256 bits; only its hash is stored).
   * The browser's User-Agent is kept (at most USER_AGENT_MAX characters) to name it in Settings.
   */
  async create(userId: number, userAgent?: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.maxAgeMs);
    await repo.insertSession(this.db, {
      tokenHash: sha256Hex(token),
      userId,
      expiresAt,
      userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
    });
    return { token, expiresAt };
  }

  /** The member's live sessions, the asking one first and marked current. */
  async list(viewer: SessionUser): Promise<SessionList> {
    const rows = await repo.findUserSessions(this.db, viewer.userId, new Date());
    const items = rows.map((row) => ({
      id: String(row.id),
      createdAt: row.createdAt.toISOString(),
      lastActiveAt: row.renewedAt.toISOString(),
      userAgent: row.userAgent,
      current: row.id === viewer.sessionId,
    }));
    return { items: [...items.filter((s) => s.current), ...items.filter((s) => !s.current)] };
  }

  /** Ends one of the member's sessions (404 for anyone else's or an unknown one); any process drops it. */
  async revokeOne(viewer: SessionUser, id: number): Promise<void> {
    if (!(await repo.deleteUserSession(this.db, viewer.userId, id))) throw notFound('No such session.');
    await this.events.publish([{ type: 'sessions.ended', userId: viewer.userId }]);
  }

  /** Ends every session of the member but the asking one, and every app's access (OAuth tokens). */
  async revokeOthers(viewer: SessionUser): Promise<void> {
    await this.db.transaction(async (tx) => {
      await repo.deleteOtherSessions(tx, viewer.userId, viewer.sessionId);
      await this.endOtherCredentials(tx, viewer.userId);
    });
    await this.events.publish([{ type: 'sessions.ended', userId: viewer.userId }]);
  }

  /** Resolves a cookie token to its user, or null when unknown or expired. */
  async resolve(token: string | undefined): Promise<SessionUser | null> {
    if (!token || token.length > 200) return null;
    const now = new Date();
    const hash = sha256Hex(token);
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return { ...cached };
    const ticket = this.cache.ticket();
    const row = await repo.findLiveSession(this.db, hash, now);
    if (!row) return null;
    const session: SessionUser = {
      sessionId: row.id,
      userId: row.userId,
      name: row.name,
      email: row.email,
      username: row.username,
      profileImage: row.profileImage,
      role: row.role as Role,
      defaultVisibility: row.defaultVisibility,
      expiresAt: row.expiresAt,
    };
    this.cache.set(hash, session, ticket);
    return { ...session };
  }

  /** Renews on use: a session used within its lifetime lives another full lifetime. */
  async touch(session: SessionUser): Promise<Date> {
    const now = Date.now();
    const renewedRecently = session.expiresAt.getTime() - this.maxAgeMs > now - RENEW_AFTER_MS;
    if (renewedRecently) return session.expiresAt;
    const expiresAt = new Date(now + this.maxAgeMs);
    await repo.renewSession(this.db, session.sessionId, expiresAt, new Date(now));
    this.cache.dropWhere((cached) => cached.sessionId === session.sessionId);
    session.expiresAt = expiresAt;
    return expiresAt;
  }

  async revoke(token: string | undefined): Promise<void> {
    if (!token) return;
    const userId = await repo.deleteSessionByHash(this.db, sha256Hex(token));
    if (userId !== null) await this.events.publish([{ type: 'sessions.ended', userId }]);
  }

  /** Ends every session of the person and every app's access (a new password, a reset). */
  async revokeAll(userId: number): Promise<void> {
    await this.db.transaction((tx) => this.endAllWithin(tx, userId));
    await this.events.publish([{ type: 'sessions.ended', userId }]);
  }

  /**
   * Ends every session and every other credential of the person inside `tx` (a suspension's
   * transaction); the caller publishes what ended them once it commits.
   */
  async endAllWithin(tx: Executor, userId: number): Promise<void> {
    await repo.deleteUserSessions(tx, userId);
    await this.endOtherCredentials(tx, userId);
  }

  private async endOtherCredentials(tx: Executor, userId: number): Promise<void> {
    for (const credentials of this.otherCredentials) await credentials.endAllWithin(tx, userId);
  }

  async purgeExpired(): Promise<void> {
    await repo.deleteExpiredSessions(this.db, new Date());
  }
}
