import { z } from 'zod';
import { CONTROL_CHARS, idSchema, page } from './common.ts';
import { ROLES, type Role, userSummary } from './users.ts';

/**
 * Reports and moderation. Every member is a `member`; moderators read reports and act on them;
 * admins also name moderators (ROLES, users.ts). The first account and the emails in ADMIN_EMAILS are admins.
 */
/** Whether a role may read reports, act on them and read the audit log. */
export const canModerate = (role: Role) => role === 'moderator' || role === 'admin';

/** Why something is reported: the value sent, and the words the web shows. */
export const REPORT_CATEGORIES = [
  { value: 'spam', label: 'Spam' },
  { value: 'harassment', label: 'Harassment or bullying' },
  { value: 'hate', label: 'Hate' },
  { value: 'violence', label: 'Violence or threats' },
  { value: 'illegal', label: 'Something illegal' },
  { value: 'other', label: 'Something else' },
] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number]['value'];
export const REPORT_CATEGORY_VALUES = REPORT_CATEGORIES.map((c) => c.value) as [ReportCategory, ...ReportCategory[]];
export const reportCategory = z.enum(REPORT_CATEGORY_VALUES, {
  error: `category must be one of ${REPORT_CATEGORY_VALUES.join(', ')}`,
});

export const REPORT_COMMENT_MAX = 1000;

/** Free text for moderators (a report's comment, a block's reason): at most `max`, trimmed, no control characters. */
const noteForModerators = (max: number, noun: 'comment' | 'reason') =>
  z
    .string()
    .max(max, `A ${noun} is at most ${max} characters`)
    .transform((text) => text.trim())
    .refine((text) => !CONTROL_CHARS.test(text), `A ${noun} must not contain control characters`)
    .default('');

/** POST /api/posts/:id/report, POST /api/users/:id/report: why, and what the reporter wants moderators to know. */
export const reportBody = z.strictObject({
  category: reportCategory,
  comment: noteForModerators(REPORT_COMMENT_MAX, 'comment'),
  /**
   * Someone elsewhere in the fediverse: also send the report (category, comment and the post, never who
   * reported) to their server's moderators, from this server. Refused for a member of this server.
   */
  forward: z.boolean().default(false),
});
export type ReportBody = z.input<typeof reportBody>;

/** What came of a report: a post removed, the account suspended, or nothing to act on. */
export const REPORT_OUTCOMES = ['post_removed', 'suspended', 'dismissed'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** What was reported: a person, or one of their posts (as it read when reported). */
export const reportSubject = z.object({
  user: userSummary,
  postId: idSchema.nullable(),
  /** The post's text when it was reported (kept after the post is gone); null for a report of a person. */
  postText: z.string().nullable(),
});

/** A report as the member who made it sees it: what they reported, and what came of it. */
export const report = z.object({
  id: idSchema,
  category: reportCategory,
  comment: z.string(),
  subject: reportSubject,
  status: z.enum(['open', 'closed']),
  /** Null while open. */
  outcome: z.enum(REPORT_OUTCOMES).nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** Sent to the moderators of the reported person's server too (they are elsewhere in the fediverse). */
  forwarded: z.boolean(),
});
export type Report = z.infer<typeof report>;
export const reportPage = page(report);

/** The person a moderator is looking at, with what moderators need to know about them. */
export const moderatedUser = userSummary.extend({ suspended: z.boolean(), role: z.enum(ROLES) });
export type ModeratedUser = z.infer<typeof moderatedUser>;

/** A report as moderators see it: who reported, the reported content and its context. */
export const moderationReport = report.extend({
  reporter: userSummary.nullable(),
  subject: reportSubject.extend({
    user: moderatedUser,
    /** Whether the reported post still exists (false once removed or deleted). */
    postExists: z.boolean(),
    /** What the reported post replied to, when it was a reply: its author and text. */
    inReplyTo: z.object({ user: userSummary, text: z.string() }).nullable(),
  }),
  /** Open reports about the same person, this one included. */
  openReportsAboutUser: z.number().int(),
  resolvedBy: userSummary.nullable(),
});
export type ModerationReport = z.infer<typeof moderationReport>;
export const moderationReportPage = page(moderationReport);

export const moderationReportsQuery = z.object({
  status: z.enum(['open', 'closed']).default('open'),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

/** POST /api/moderation/reports/:id/resolve: what to do about it. */
export const MODERATION_ACTIONS = ['remove_post', 'suspend', 'dismiss'] as const;
export const resolveReportBody = z.strictObject({
  action: z.enum(MODERATION_ACTIONS, { error: `action must be one of ${MODERATION_ACTIONS.join(', ')}` }),
});
export type ResolveReportBody = z.infer<typeof resolveReportBody>;

/** PUT /api/moderation/users/:id/role: admins name moderators (and take it back); admins come from configuration. */
export const roleBody = z.strictObject({
  role: z.enum(['member', 'moderator'], { error: 'role must be member or moderator' }),
});
export type RoleBody = z.infer<typeof roleBody>;

/** What the audit log records. */
export const AUDIT_ACTIONS = [
  'post.removed',
  'account.suspended',
  'account.restored',
  'report.dismissed',
  'role.changed',
  'domain.blocked',
  'domain.unblocked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One line of the audit log: who did what to whom, when. */
export const auditEntry = z.object({
  id: idSchema,
  action: z.enum(AUDIT_ACTIONS),
  /** Null once the moderator's account is deleted. */
  moderator: userSummary.nullable(),
  /** The person acted on (the removed post's author); null once their account is deleted. */
  subject: userSummary.nullable(),
  reportId: idSchema.nullable(),
  /** The removed post's text; the new role for role.changed; the server for domain.blocked and domain.unblocked. */
  detail: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditPage = page(auditEntry);

/** GET /api/moderation/accounts: the suspended accounts, or the team (moderators and admins). */
export const moderationAccountsQuery = z.object({
  filter: z.enum(['suspended', 'team']),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const moderatedUserPage = page(moderatedUser);

/**
 * A server's host as a domain block names it: lower case, a port when it has one (`social.example`,
 * `social.example:8443`). Leading `@`, `https://` and a trailing `/` are taken off.
 */
export const blockedDomain = z
  .string()
  .max(300)
  .transform((d) =>
    d
      .trim()
      .toLowerCase()
      .replace(/^@|^https?:\/\//, '')
      .replace(/\/$/, ''),
  )
  .pipe(
    z
      .string()
      .regex(
        /^(?=.{1,253}(?::|$))(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$/,
        'Enter a server’s name, like social.example',
      ),
  );

export const DOMAIN_BLOCK_REASON_MAX = 500;

/** POST /api/moderation/domains: cut a whole server off (admins). */
export const domainBlockBody = z.strictObject({
  domain: blockedDomain,
  reason: noteForModerators(DOMAIN_BLOCK_REASON_MAX, 'reason'),
});
export type DomainBlockBody = z.input<typeof domainBlockBody>;

/**
 * A blocked server: nothing of it is taken in (its activities are dropped, its people not looked up) and
 * its accounts known here are suspended while the block lasts (a suspension of one's own stays).
 */
export const domainBlock = z.object({
  domain: z.string(),
  reason: z.string(),
  createdAt: z.string(),
  /** The admin who blocked it; null once their account is deleted. */
  createdBy: userSummary.nullable(),
  /** Its accounts known here (suspended with the block). */
  accounts: z.number().int(),
});
export type DomainBlock = z.infer<typeof domainBlock>;
export const domainBlockList = z.object({ items: z.array(domainBlock) });

export const domainParams = z.object({ domain: blockedDomain });
