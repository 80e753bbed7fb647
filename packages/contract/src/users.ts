import { z } from 'zod';
import {
  CONTROL_CHARS_NO_NEWLINE,
  hasTooManyMarks,
  hasVisibleContent,
  idSchema,
  MAX_COMBINING_MARKS,
  visibility,
} from './common.ts';

export const LIMITS = {
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  usernameMax: 30,
  nameMax: 50,
  bioMax: 160,
  postMax: 280,
  imageMaxBytes: 5 * 1024 * 1024,
  imageMaxPixels: 16_777_216,
  /** Images of a post (contract media.ts). */
  postImagesMax: 4,
  postImageMaxBytes: 10 * 1024 * 1024,
  /** The longest side of a stored post image; its preview's. */
  postImageMaxSide: 2048,
  postImagePreviewSide: 640,
  altTextMax: 1500,
  /** A post's content warning (contract posts.ts `spoilerText`), in user-perceived characters. */
  spoilerTextMax: 100,
} as const;

/** The seed's pattern: letters, digits and . _ % + - then @, a domain, a dot and a 2+ letter top level. */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;

/** Words that would shadow routes or impersonate staff. Compared ignoring case. */
export const RESERVED_USERNAMES = new Set([
  'about',
  'admin',
  'administrator',
  'api',
  'auth',
  'edit',
  'explore',
  'help',
  'home',
  'login',
  'logout',
  'me',
  'media',
  'moderator',
  'notifications',
  'pipit',
  'posts',
  'register',
  'root',
  'search',
  'settings',
  'signin',
  'signout',
  'signup',
  'support',
  'system',
  'users',
  'www',
]);

export const emailField = z
  .string()
  .trim()
  .max(LIMITS.emailMax, `Email must be at most ${LIMITS.emailMax} characters`)
  .regex(EMAIL_PATTERN, 'Invalid email');

export const passwordField = z
  .string()
  .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters`)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters`)
  .refine((p) => p.length === 0 || p.trim().length > 0, 'Password must not be only spaces');

/** A password is not the account's own email (ignoring case and surrounding spaces). */
export const passwordIsEmail = (password: string, email: string) =>
  email.trim().length > 0 && password.trim().toLowerCase() === email.trim().toLowerCase();
export const PASSWORD_IS_EMAIL = 'Password must not be your email';

export const usernameField = z
  .string()
  .trim()
  .min(1, 'Username is required')
  .max(LIMITS.usernameMax, `Username must be at most ${LIMITS.usernameMax} characters`)
  .regex(USERNAME_PATTERN, 'Username may only contain letters, digits and _')
  .refine((u) => !RESERVED_USERNAMES.has(u.toLowerCase()), 'This username is reserved');

export const nameField = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(LIMITS.nameMax, `Name must be at most ${LIMITS.nameMax} characters`)
  // No line breaks or tabs in a name either: it is one line everywhere it shows.
  .refine((n) => !CONTROL_CHARS_NO_NEWLINE.test(n), 'Name must not contain control characters')
  .refine((n) => n.length === 0 || hasVisibleContent(n), 'Name must have letters you can see, not only invisible ones')
  .refine(
    (n) => !hasTooManyMarks(n),
    `Name has too many accent marks on one character (at most ${MAX_COMBINING_MARKS})`,
  );

export const bioField = z
  .string()
  .trim()
  .max(LIMITS.bioMax, `Bio must be at most ${LIMITS.bioMax} characters`)
  .refine((b) => !CONTROL_CHARS_NO_NEWLINE.test(b.replace(/\n/g, '')), 'Bio must not contain control characters')
  .refine(
    (b) => !hasTooManyMarks(b),
    `Bio has too many accent marks on one character (at most ${MAX_COMBINING_MARKS})`,
  );

export const registerBody = z
  .strictObject({
    email: emailField,
    password: passwordField,
    username: usernameField,
    name: nameField,
  })
  .refine((b) => !passwordIsEmail(b.password, b.email), {
    message: PASSWORD_IS_EMAIL,
    path: ['password'],
    // Also when other fields have problems, so every problem is told at once.
    when: ({ value }) => {
      const v = value as { password?: unknown; email?: unknown } | undefined;
      return typeof v?.password === 'string' && typeof v?.email === 'string';
    },
  });
export type RegisterBody = z.infer<typeof registerBody>;

/**
 * The longest image string accepted: as long as PATCH /api/edit's body may be (16 MiB), so a data URL
 * over LIMITS.imageMaxBytes decoded reaches the server's check and gets 413 IMAGE_TOO_LARGE.
 */
export const IMAGE_FIELD_MAX_CHARS = 16 * 1024 * 1024;

/**
 * Image fields: a data URL (new image), the current /media URL (unchanged) or null (remove).
 * The server checks the bytes; this only bounds the size of the string.
 */
export const imageField = z.string().max(IMAGE_FIELD_MAX_CHARS, 'Image is too large').nullable();

export const editBody = z.strictObject({
  name: nameField.optional(),
  username: usernameField.optional(),
  bio: bioField.nullable().optional(),
  profileImage: imageField.optional(),
  coverImage: imageField.optional(),
  /** The visibility the composer starts with (posts.ts VISIBILITIES). */
  defaultVisibility: visibility.optional(),
  /** "Approve followers": following them becomes a request they approve. Turning it off approves every waiting request. */
  locked: z.boolean().optional(),
  /** "Always expand posts with content warnings" (Settings). */
  expandSpoilers: z.boolean().optional(),
});
export type EditBody = z.infer<typeof editBody>;

/** A member; a moderator (reads reports and acts on them); an admin (also names moderators). */
export const ROLES = ['member', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The smallest view of a person: suggestions, authors, actors. */
export const userSummary = z.object({
  id: idSchema,
  name: z.string(),
  username: z.string(),
  profileImage: z.string().nullable(),
  /**
   * Where the person lives: null for members of this instance, the server's host (`example.social`,
   * with a port when it has one) for someone elsewhere in the fediverse, whose handle is
   * `@username@domain`.
   */
  domain: z.string().nullable(),
});
export type UserSummary = z.infer<typeof userSummary>;

/** Someone's public profile as a given viewer sees it. */
export const user = userSummary.extend({
  bio: z.string(),
  coverImage: z.string().nullable(),
  createdAt: z.string(),
  followersCount: z.number().int(),
  followingCount: z.number().int(),
  postsCount: z.number().int(),
  /** Whether the signed-in viewer follows this person (false for visitors and for oneself). */
  isFollowing: z.boolean(),
  /** "Approve followers" is on: following them sends a request (followRequested) until they approve it. */
  locked: z.boolean(),
  /** Whether the viewer asked to follow this locked account and is waiting (never together with isFollowing). */
  followRequested: z.boolean(),
  /** Whether the viewer blocked this person (never whether the person blocked the viewer). */
  isBlocking: z.boolean(),
  /** Whether the viewer muted this person (a mute that ran out is none). */
  isMuting: z.boolean(),
  /** Suspended by a moderator: the profile says so and shows nothing of theirs. */
  suspended: z.boolean(),
});
export type User = z.infer<typeof user>;

/** GET /api/current: the signed-in person, with private fields. */
export const currentUser = user.extend({
  email: z.string(),
  /** What the person may do beyond a member's (moderation.ts). */
  role: z.enum(ROLES),
  hasNotification: z.boolean(),
  /** The visibility the composer starts with (Settings). */
  defaultVisibility: visibility,
  /** "Always expand posts with content warnings": posts open without "Show more" (Settings). */
  expandSpoilers: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUser>;

/** A username in a path (`/api/users/by-username/:username`): the username charset, any case. */
export const usernameParams = z.object({
  username: z.string().min(1).max(LIMITS.usernameMax).regex(USERNAME_PATTERN, 'must be a username'),
});

export const suggestionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(20).default(5),
});
