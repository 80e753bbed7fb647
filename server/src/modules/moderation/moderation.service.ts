import {
  type AuditEntry,
  canModerate,
  type ModeratedUser,
  type ModerationReport,
  type Report,
  type ReportBody,
  type ReportCategory,
  type ReportOutcome,
  type ResolveReportBody,
  type Role,
  type RoleBody,
  type UserSummary,
} from '@pipit/contract';
import type { Database, Tx } from '../../db/client.ts';
import { type Cursor, listPage, type Page, type PageRequest } from '../../lib/cursor.ts';
import { forbidden, invalid, notFound, postNotFound, userNotFound } from '../../lib/errors.ts';
import { commitThenPublish, type EventBus, type Outbox } from '../../lib/events.ts';
import type { FederationLink } from '../../lib/federation-link.ts';
import type { PostId, UserId } from '../../lib/ids.ts';
import type { PostsService } from '../posts/posts.service.ts';
import type { SessionsService, SessionUser } from '../sessions/sessions.service.ts';
import { userExists } from '../users/users.repository.ts';
import * as repo from './moderation.repository.ts';

const reportNotFound = () => notFound('No such report.');

/**
 * Reports and what moderators do about them. Members report posts and people and see what came of
 * their reports; moderators (and admins) read the open reports, remove a post, suspend or restore an
 * account, or dismiss a report; admins name moderators. Every act of a moderator is written to the
 * audit log in the transaction that does it. What a suspension hides is decided with everything
 * else that is hidden (modules/safety/visibility.ts).
 */
export class ModerationService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly posts: PostsService,
    /** Ends a suspended person's sessions and apps' tokens in the suspending transaction. */
    private readonly sessions: SessionsService,
    /** Federation: a report the reporter asks to forward goes to the reported person's server (lib/federation-link.ts). */
    private readonly federation: FederationLink | null = null,
  ) {}

  /**
   * Reports a post (a repost: the post it reposts). 404 when there is no such post or the reporter
   * cannot see it (its author blocked them); 400 for one's own.
   */
  async reportPost(viewer: SessionUser, postId: PostId, body: ReportBody): Promise<Report> {
    const post = await repo.findReportablePost(this.db, postId, viewer.userId);
    if (!post) throw postNotFound();
    if (post.authorId === viewer.userId) throw invalid('id', 'You cannot report your own post.');
    return this.file(viewer, { subjectUserId: post.authorId, postId: post.id, postText: post.text }, body);
  }

  /** Reports a person. 404 when there is no such person; 400 for oneself. */
  async reportUser(viewer: SessionUser, userId: UserId, body: ReportBody): Promise<Report> {
    if (userId === viewer.userId) throw invalid('id', 'You cannot report yourself.');
    if (!(await userExists(this.db, userId))) throw userNotFound();
    return this.file(viewer, { subjectUserId: userId, postId: null, postText: null }, body);
  }

  /** The member's own reports, newest first, each with what came of it. */
  async myReports(viewer: SessionUser, page: PageRequest): Promise<Page<Report>> {
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findMyReports(this.db, viewer.userId, cursor, limit),
      toReport,
    );
  }

  /** Open reports, oldest first (the queue), or closed ones, newest closed first. */
  async reports(
    viewer: SessionUser,
    query: PageRequest & { status: 'open' | 'closed' },
  ): Promise<Page<ModerationReport>> {
    requireModerator(viewer);
    return listPage(
      query,
      (cursor: Cursor | null, limit: number) =>
        repo.findModerationReports(this.db, { status: query.status }, cursor, limit),
      toModerationReport,
    );
  }

  /**
   * Acts on a report. `remove_post` removes the reported post and closes every open report about it;
   * `suspend` suspends the person and closes every open report about them; `dismiss` closes this one.
   * A report already closed is answered as it is (two moderators acting at once: the first one wins).
   */
  async resolve(viewer: SessionUser, reportId: number, body: ResolveReportBody): Promise<ModerationReport> {
    requireModerator(viewer);
    const me = viewer.userId;
    const files = await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const report = await repo.lockReport(tx, reportId);
      if (!report) throw reportNotFound();
      if (report.outcome !== null) return [];
      switch (body.action) {
        case 'dismiss':
          await repo.closeReports(tx, { id: report.id }, 'dismissed', me);
          await repo.insertAudit(tx, {
            moderatorId: me,
            action: 'report.dismissed',
            subjectUserId: report.subjectUserId,
            reportId: report.id,
          });
          return [];
        case 'remove_post': {
          if (report.postId === null) throw invalid('action', 'This report is about a person, not a post.');
          // Gone already (its author deleted it): the reports about it close all the same.
          const removed = await this.posts.deleteWithin(tx, outbox, report.postId, null);
          await repo.closeReports(tx, { postId: report.postId }, 'post_removed', me);
          await repo.insertAudit(tx, {
            moderatorId: me,
            action: 'post.removed',
            subjectUserId: report.subjectUserId,
            reportId: report.id,
            detail: removed?.text ?? null,
          });
          return removed?.files ?? [];
        }
        case 'suspend':
          await this.suspendWithin(tx, outbox, viewer, report.subjectUserId, report.id);
          return [];
      }
    });
    this.posts.collect(files);
    return this.moderationReport(reportId);
  }

  /**
   * Suspends an account: its sessions end at once, it cannot sign in, everything of it is hidden
   * from everyone and its profile says it is suspended; the open reports about it close. Already
   * suspended: answered as it is.
   */
  async suspend(viewer: SessionUser, userId: UserId): Promise<ModeratedUser> {
    requireModerator(viewer);
    await commitThenPublish(this.db, this.events, (tx, outbox) => this.suspendWithin(tx, outbox, viewer, userId, null));
    return this.account(userId);
  }

  /** Lifts a suspension: the person can sign in again and what they wrote is shown again. */
  async unsuspend(viewer: SessionUser, userId: UserId): Promise<ModeratedUser> {
    requireModerator(viewer);
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const account = await repo.lockAccount(tx, userId);
      if (!account) throw userNotFound();
      if (account.suspendedAt === null) return;
      await repo.setSuspended(tx, userId, false);
      await repo.insertAudit(tx, {
        moderatorId: viewer.userId,
        action: 'account.restored',
        subjectUserId: userId,
        reportId: null,
      });
      outbox.add({ type: 'user.suspended', userId, suspended: false });
    });
    return this.account(userId);
  }

  /** Names a moderator, or takes it back (admins only). Admins are named by configuration, not here. */
  async setRole(viewer: SessionUser, userId: UserId, body: RoleBody): Promise<ModeratedUser> {
    if (viewer.role !== 'admin') throw forbidden('Only admins can name moderators.');
    if (userId === viewer.userId) throw invalid('id', 'You cannot change your own role.');
    await commitThenPublish(this.db, this.events, async (tx, outbox) => {
      const account = await repo.lockAccount(tx, userId);
      if (!account) throw userNotFound();
      if (account.role === 'admin') throw forbidden('An admin stays an admin: admins are named in ADMIN_EMAILS.');
      if (account.role === body.role) return;
      await repo.setRole(tx, userId, body.role);
      await repo.insertAudit(tx, {
        moderatorId: viewer.userId,
        action: 'role.changed',
        subjectUserId: userId,
        reportId: null,
        detail: body.role,
      });
      // Sessions carry the role: theirs are read again.
      outbox.add({ type: 'user.updated', userId });
    });
    return this.account(userId);
  }

  /** The suspended accounts (newest first) or the team (moderators and admins). */
  async accounts(
    viewer: SessionUser,
    query: PageRequest & { filter: 'suspended' | 'team' },
  ): Promise<Page<ModeratedUser>> {
    requireModerator(viewer);
    return listPage(
      query,
      (cursor: Cursor | null, limit: number) => repo.findAccounts(this.db, query.filter, cursor, limit),
      toModeratedUser,
    );
  }

  /** What moderators did, newest first. */
  async auditLog(viewer: SessionUser, page: PageRequest): Promise<Page<AuditEntry>> {
    requireModerator(viewer);
    return listPage(
      page,
      (cursor: Cursor | null, limit: number) => repo.findAuditPage(this.db, cursor, limit),
      (row): AuditEntry => ({
        id: String(row.id),
        action: row.action as AuditEntry['action'],
        moderator: person(row.moderator),
        subject: person(row.subject),
        reportId: row.reportId === null ? null : String(row.reportId),
        detail: row.detail,
        createdAt: row.createdAt.toISOString(),
      }),
    );
  }

  private async file(
    viewer: SessionUser,
    about: { subjectUserId: number; postId: number | null; postText: string | null },
    body: ReportBody,
  ): Promise<Report> {
    const forward = body.forward === true;
    // Only someone elsewhere has a server to forward to; with federation off there is no way to send it.
    if (forward && ((await repo.findDomain(this.db, about.subjectUserId)) === null || !this.federation?.current)) {
      throw invalid('forward', 'Only a report about someone on another server can be forwarded.');
    }
    const id = await repo.upsertReport(this.db, {
      reporterId: viewer.userId,
      ...about,
      category: body.category,
      comment: body.comment ?? '',
      forwarded: forward,
    });
    if (forward) this.federation?.current?.reportForwarded(id);
    const [row] = await repo.findMyReports(this.db, viewer.userId, null, 1, id);
    return toReport(row!);
  }

  private async suspendWithin(
    tx: Tx,
    outbox: Outbox,
    viewer: SessionUser,
    userId: number,
    reportId: number | null,
  ): Promise<void> {
    if (userId === viewer.userId) throw invalid('id', 'You cannot suspend yourself.');
    const account = await repo.lockAccount(tx, userId);
    if (!account) throw userNotFound();
    if (account.role === 'admin') throw forbidden('An admin cannot be suspended.');
    if (account.role === 'moderator' && viewer.role !== 'admin') {
      throw forbidden('Only an admin can suspend a moderator.');
    }
    await repo.closeReports(tx, { subjectUserId: userId }, 'suspended', viewer.userId);
    if (account.suspendedAt !== null) return;
    await repo.setSuspended(tx, userId, true);
    await this.sessions.endAllWithin(tx, userId);
    await repo.insertAudit(tx, {
      moderatorId: viewer.userId,
      action: 'account.suspended',
      subjectUserId: userId,
      reportId,
    });
    outbox.add({ type: 'user.suspended', userId, suspended: true }, { type: 'sessions.ended', userId });
  }

  private async moderationReport(id: number): Promise<ModerationReport> {
    const [row] = await repo.findModerationReports(this.db, { id }, null, 1);
    if (!row) throw reportNotFound();
    return toModerationReport(row);
  }

  private async account(id: number): Promise<ModeratedUser> {
    const row = await repo.findModeratedUser(this.db, id);
    if (!row) throw userNotFound();
    return toModeratedUser(row);
  }
}

function requireModerator(viewer: SessionUser): void {
  if (!canModerate(viewer.role)) throw forbidden('Only moderators can do this.');
}

/** A person's columns as selected through an alias (each may read null: a left join's). */
interface PersonRow {
  id: number | null;
  name: string | null;
  username: string | null;
  profileImage: string | null;
  domain: string | null;
}

/** The person, or null when the left join found nobody (an account since deleted). */
function person(u: PersonRow | null): UserSummary | null {
  if (u?.id == null || u.name === null || u.username === null) return null;
  return { id: String(u.id), name: u.name, username: u.username, profileImage: u.profileImage, domain: u.domain };
}

/** A person an inner join found. */
const summary = (u: PersonRow): UserSummary => person(u)!;

function toModeratedUser(u: PersonRow & { suspendedAt: Date | null; role: string | null }): ModeratedUser {
  return { ...summary(u), suspended: u.suspendedAt !== null, role: (u.role ?? 'member') as Role };
}

function toReport(row: Omit<repo.ReportRow, 'subject'> & { subject: PersonRow }): Report {
  return {
    id: String(row.id),
    category: row.category as ReportCategory,
    comment: row.comment,
    subject: {
      user: summary(row.subject),
      postId: row.postId === null ? null : String(row.postId),
      postText: row.postText,
    },
    status: row.outcome === null ? 'open' : 'closed',
    outcome: row.outcome as ReportOutcome | null,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    forwarded: row.forwarded,
  };
}

function toModerationReport(row: repo.ModerationRow): ModerationReport {
  const base = toReport(row);
  return {
    ...base,
    reporter: person(row.reporter),
    resolvedBy: person(row.resolvedBy),
    subject: {
      ...base.subject,
      user: toModeratedUser(row.subject),
      postExists: row.postExists,
      inReplyTo: (() => {
        const user = person(row.inReplyToUser);
        return user && row.inReplyToText !== null ? { user, text: row.inReplyToText } : null;
      })(),
    },
    openReportsAboutUser: row.openReportsAboutUser,
  };
}
