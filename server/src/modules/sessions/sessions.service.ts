import { randomBytes } from 'node:crypto';
import type { Role, SessionList } from '@pipit/contract';
import type { Database } from '../../db/client.ts';
import { sha256Hex } from '../../lib/auth-cookies.ts';
import { notFound } from '../../lib/errors.ts';
import { EventCache } from '../../lib/event-cache.ts';
import type { EventBus } from '../../lib/events.ts';
import { deleteUserTokens } from '../mastodon/oauth.repository.ts';
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

export class SessionsService {
  private readonly cache: EventCache<string, SessionUser>;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly maxAgeMs: number,
  ) {
    this.cache = new EventCache(events, CACHE);
    events.subscribe((event) => {
      if (event.type === 'sessions.ended' || event.type === 'user.updated' || event.type === 'user.suspended') {
        this.cache.dropWhere((session) => session.userId === event.userId);
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
    await repo.deleteOtherSessions(this.db, viewer.userId, viewer.sessionId);
    await deleteUserTokens(this.db, viewer.userId);
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
    await repo.deleteUserSessions(this.db, userId);
    await deleteUserTokens(this.db, userId);
    await this.events.publish([{ type: 'sessions.ended', userId }]);
  }

  async purgeExpired(): Promise<void> {
    await repo.deleteExpiredSessions(this.db, new Date());
  }
}
