// The only module that reads process.env. Everything else receives a Config.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EMAIL_PATTERN } from '@pipit/contract';

export interface RateLimit {
  max: number;
  windowMs: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Origin the app is reached at, without a trailing slash (builds absolute auth URLs). */
  publicUrl: string;
  /** https public URL: secure cookie names, Secure attribute, HSTS. */
  secureCookies: boolean;
  /** PostgreSQL server; when absent, the embedded PGlite database in dataDir is used. */
  databaseUrl: string | null;
  dataDir: string;
  mediaDir: string;
  authSecret: string;
  /** Fastify trustProxy value: false (socket address only), true, a hop count or a list of addresses. */
  trustProxy: boolean | number | string;
  rateLimits: {
    enabled: boolean;
    signInIp: RateLimit;
    signInAccount: RateLimit;
    register: RateLimit;
    write: RateLimit;
    /** Password-reset emails asked for, per email address and per IP. */
    passwordResetEmail: RateLimit;
    passwordResetIp: RateLimit;
    /** Deliveries to the federation's inboxes per sending address (another server's machine). */
    federationInbox: RateLimit;
  };
  /** Outgoing mail (password resets): SMTP through nodemailer, or the server log when no SMTP_URL is set. */
  mail: {
    /** e.g. smtp://user:pass@smtp.example.com:587 or smtps://…:465; null writes each message to the log. */
    smtpUrl: string | null;
    /** The From address, e.g. "Pipit <no-reply@example.com>". */
    from: string;
  };
  /** Emails (lower-case) whose accounts are admins (ADMIN_EMAILS, comma-separated), besides the first account. */
  adminEmails: string[];
  logLevel: string;
  /** `pretty`: one readable line per event (development; needs the pino-pretty dev dependency). `json`: pino's JSON lines. */
  logFormat: 'pretty' | 'json';
  /** Built web app served at /; null disables static serving (API only). */
  webDist: string | null;
  /** Session lifetime (renewed on use). */
  sessionMaxAgeMs: number;
  /** Redis shared by every process (events, rate-limit counters); null = one process, all in memory. */
  redisUrl: string | null;
  /** Prefix of every Redis key and channel, so several apps (or test runs) can share one Redis. */
  redisPrefix: string;
  /** Server processes `npm start` runs (node:cluster, one port); more than one needs PostgreSQL and Redis. */
  workers: number;
  /** Home feeds written ahead (modules/feeds): on with PostgreSQL and Redis unless FEEDS=off. */
  feeds: {
    enabled: boolean;
    /** Post ids kept per feed; older pages come from the query. */
    size: number;
    /** A feed not read for this long expires, and is no longer written to. */
    activeDays: number;
    /** Accounts with more followers are not fanned out; their posts are merged when a page is read. */
    pullAboveFollowers: number;
    /** A job whose process died is run again this long after it started. */
    jobExpireSeconds: number;
    /** How often expired jobs are looked for. */
    jobMaintenanceSeconds: number;
  };
  /**
   * The longest a visitors' page is kept (plugins/shared-cache.ts): events drop it at once; this
   * bounds staleness should one be lost.
   */
  visitorCacheMs: number;
  /** Durable work due at a time (lib/timed-jobs.ts). */
  timedJobs: {
    /** How often each process looks for due jobs another process scheduled; 0: never by itself (tests). */
    pollMs: number;
  };
  /**
   * ActivityPub federation (modules/federation): on when PUBLIC_URL is https:// unless FEDERATION=off;
   * off otherwise (other servers only reach an instance over https). `offReason` says why it is off.
   */
  federation: {
    enabled: boolean;
    offReason: string | null;
    /** How often each process looks for queued deliveries and activities another process enqueued. */
    queuePollMs: number;
    /**
     * Benchmarks only (FEDERATION_ALLOW_LOOPBACK=true, refused in production): servers on this machine's loopback
     * addresses may be fetched and delivered to (the load generator's actors, bench/federation.ts).
     */
    allowLoopback?: boolean;
  };
  /** Live updates (GET /api/stream). */
  stream: {
    /** Open streams per member (tabs and devices); one more is refused with 429. */
    maxPerMember: number;
    /** Open streams per visitor address. */
    maxPerAddress: number;
    /** A comment line this often keeps proxies from closing an idle stream. */
    heartbeatMs: number;
    /** Events kept for a reconnect to resume from (`Last-Event-ID`); older than that, the client reloads. */
    replayWindow: number;
    /** A reader this far behind (bytes not yet taken by its socket) is dropped, never buffered further. */
    maxBufferedBytes: number;
  };
  /**
   * Link preview cards (modules/cards): the first link of a post without images, fetched in the background
   * through the SSRF-safe fetcher (lib/safe-fetch.ts). On unless CARDS=off.
   */
  cards: {
    enabled: boolean;
    /**
     * Tests only (CARDS_ALLOW_LOOPBACK=true, refused in production): loopback addresses (127.0.0.0/8, ::1)
     * may be fetched, so tests serve pages from 127.0.0.1. Every other private address stays refused.
     */
    allowLoopback: boolean;
    /** The whole fetch of a page (every redirect), and of its picture, each at most this long. */
    timeoutMs: number;
    /** A page's body is read up to this many bytes; past it the fetch is aborted and no card is made. */
    maxPageBytes: number;
    /** A card's picture is read up to this many bytes. */
    maxImageBytes: number;
  };
  /** Web Push (modules/push): notifications sent to browsers and Mastodon apps through their push services. */
  push: {
    /**
     * VAPID keys (RFC 8292) from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url, as web-push makes
     * them); null: made at first start and kept in the database (`instance_keys`).
     */
    vapid: { publicKey: string; privateKey: string } | null;
    /** Who push services may contact about this server (VAPID_SUBJECT: mailto: or https:); default from PUBLIC_URL or MAIL_FROM. */
    subject: string;
    /**
     * Tests only (PUSH_ALLOW_LOOPBACK=true, refused in production): http:// endpoints on loopback
     * addresses are taken and sent to, so tests run a push service on 127.0.0.1. Every other endpoint
     * must be https:// on a public address.
     */
    allowLoopback: boolean;
    /** Subscriptions per member (browsers and apps together); one more is refused. */
    maxPerMember: number;
    /** One send to a push service, at most this long. */
    timeoutMs: number;
    /** How often each process looks for deliveries another process queued; 0: never by itself (tests drain by hand). */
    pollMs: number;
  };
}

export class ConfigError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses "25/5m" (25 requests per 5 minutes). */
export function parseRateLimit(value: string | undefined, fallback: RateLimit, name: string): RateLimit {
  if (value === undefined || value === '') return fallback;
  const match = /^(\d+)\/(\d+)([smhd])$/.exec(value.trim());
  if (!match)
    throw new ConfigError('INVALID_CONFIG', `${name} must look like "25/5m" (count/duration), got "${value}"`);
  return { max: Number(match[1]), windowMs: Number(match[2]) * (UNITS[match[3] as string] as number) };
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError('INVALID_CONFIG', `PORT must be an integer between 0 and 65535, got "${value}"`);
  }
  return port;
}

function parseLogFormat(value: string | undefined, nodeEnv: Config['env']): Config['logFormat'] {
  if (value === undefined || value === '') return nodeEnv === 'development' ? 'pretty' : 'json';
  if (value === 'pretty' || value === 'json') return value;
  throw new ConfigError('INVALID_CONFIG', `LOG_FORMAT must be "pretty" or "json", got "${value}"`);
}

/** In development a secret is created once and kept in the data directory. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** A shorter AUTH_SECRET is refused in production: it signs every CSRF token (32 hex = 128 bits). */
export const MIN_SECRET_LENGTH = 32;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const port = parsePort(env.PORT);
  const host = env.HOST || '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError('INVALID_CONFIG', `PUBLIC_URL must be an absolute URL, got "${publicUrl}"`);
  }
  const dataDir = path.resolve(env.DATA_DIR || './data');
  let authSecret = env.AUTH_SECRET || env.NEXTAUTH_SECRET || '';
  if (!authSecret) {
    if (nodeEnv === 'production') {
      throw new ConfigError(
        'NO_SECRET',
        '[NO_SECRET] Please define AUTH_SECRET in production: it signs the CSRF tokens. Generate one with `openssl rand -hex 32`.',
      );
    }
    authSecret = developmentSecret(dataDir);
  } else if (nodeEnv === 'production' && authSecret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      'WEAK_SECRET',
      `[WEAK_SECRET] AUTH_SECRET must be at least ${MIN_SECRET_LENGTH} characters in production (it has ${authSecret.length}). Generate one with \`openssl rand -hex 32\`.`,
    );
  }
  const rateLimitsEnabled = env.RATE_LIMIT_ENABLED !== 'false';
  const workers = parseCount(env.WORKERS, 1, 'WORKERS');
  if (workers > 1 && (!env.DATABASE_URL || !env.REDIS_URL)) {
    throw new ConfigError(
      'INVALID_CONFIG',
      `WORKERS=${workers} needs DATABASE_URL and REDIS_URL: several processes share one PostgreSQL server and one Redis (the embedded database belongs to one process)`,
    );
  }
  const cardsAllowLoopback = env.CARDS_ALLOW_LOOPBACK === 'true';
  if (cardsAllowLoopback && nodeEnv === 'production') {
    throw new ConfigError(
      'INVALID_CONFIG',
      'CARDS_ALLOW_LOOPBACK=true is for tests only: it lets link previews fetch this machine, and is refused when NODE_ENV=production',
    );
  }
  const federationAllowLoopback = env.FEDERATION_ALLOW_LOOPBACK === 'true';
  if (federationAllowLoopback && nodeEnv === 'production') {
    throw new ConfigError(
      'INVALID_CONFIG',
      'FEDERATION_ALLOW_LOOPBACK=true is for benchmarks only: it lets federation fetch and deliver to this machine, and is refused when NODE_ENV=production',
    );
  }
  const pushAllowLoopback = env.PUSH_ALLOW_LOOPBACK === 'true';
  if (pushAllowLoopback && nodeEnv === 'production') {
    throw new ConfigError(
      'INVALID_CONFIG',
      'PUSH_ALLOW_LOOPBACK=true is for tests only: it lets push notifications be sent to this machine over http, and is refused when NODE_ENV=production',
    );
  }
  if (env.CARDS !== undefined && env.CARDS !== '' && env.CARDS !== 'on' && env.CARDS !== 'off') {
    throw new ConfigError('INVALID_CONFIG', `CARDS must be "on" or "off", got "${env.CARDS}"`);
  }
  return {
    env: nodeEnv,
    port,
    host,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    databaseUrl: env.DATABASE_URL || null,
    dataDir,
    mediaDir: path.resolve(env.MEDIA_DIR || path.join(dataDir, 'media')),
    authSecret,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    rateLimits: {
      enabled: rateLimitsEnabled,
      signInIp: parseRateLimit(env.RATE_LIMIT_SIGNIN_IP, { max: 25, windowMs: 5 * 60_000 }, 'RATE_LIMIT_SIGNIN_IP'),
      signInAccount: parseRateLimit(
        env.RATE_LIMIT_SIGNIN_ACCOUNT,
        { max: 25, windowMs: 60 * 60_000 },
        'RATE_LIMIT_SIGNIN_ACCOUNT',
      ),
      register: parseRateLimit(env.RATE_LIMIT_REGISTER, { max: 5, windowMs: 30 * 60_000 }, 'RATE_LIMIT_REGISTER'),
      write: parseRateLimit(env.RATE_LIMIT_WRITE, { max: 300, windowMs: 5 * 60_000 }, 'RATE_LIMIT_WRITE'),
      passwordResetEmail: parseRateLimit(
        env.RATE_LIMIT_PASSWORD_RESET_EMAIL,
        { max: 5, windowMs: 60 * 60_000 },
        'RATE_LIMIT_PASSWORD_RESET_EMAIL',
      ),
      passwordResetIp: parseRateLimit(
        env.RATE_LIMIT_PASSWORD_RESET_IP,
        { max: 5, windowMs: 60 * 60_000 },
        'RATE_LIMIT_PASSWORD_RESET_IP',
      ),
      federationInbox: parseRateLimit(
        env.RATE_LIMIT_FEDERATION_INBOX,
        { max: 6_000, windowMs: 5 * 60_000 },
        'RATE_LIMIT_FEDERATION_INBOX',
      ),
    },
    mail: {
      smtpUrl: parseSmtpUrl(env.SMTP_URL),
      from: env.MAIL_FROM || `Pipit <no-reply@${new URL(publicUrl).hostname}>`,
    },
    adminEmails: parseEmailList(env.ADMIN_EMAILS, 'ADMIN_EMAILS'),
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    logFormat: parseLogFormat(env.LOG_FORMAT, nodeEnv),
    webDist:
      env.WEB_DIST === 'none' ? null : path.resolve(env.WEB_DIST || path.join(import.meta.dirname, '../../web/dist')),
    sessionMaxAgeMs: 30 * 86_400_000,
    redisUrl: env.REDIS_URL || null,
    redisPrefix: env.REDIS_PREFIX || 'pipit:',
    workers,
    feeds: {
      enabled: Boolean(env.DATABASE_URL && env.REDIS_URL) && env.FEEDS !== 'off',
      size: parseCount(env.FEED_SIZE, 100, 'FEED_SIZE'),
      activeDays: parseCount(env.FEED_ACTIVE_DAYS, 14, 'FEED_ACTIVE_DAYS'),
      pullAboveFollowers: parseCount(env.FEED_PULL_ABOVE_FOLLOWERS, 10_000, 'FEED_PULL_ABOVE_FOLLOWERS'),
      jobExpireSeconds: parseCount(env.JOB_EXPIRE_SECONDS, 60, 'JOB_EXPIRE_SECONDS'),
      jobMaintenanceSeconds: parseCount(env.JOB_MAINTENANCE_SECONDS, 30, 'JOB_MAINTENANCE_SECONDS'),
    },
    visitorCacheMs: parseCount(env.VISITOR_CACHE_MS, 1_000, 'VISITOR_CACHE_MS'),
    timedJobs: { pollMs: parseCount(env.TIMED_JOBS_POLL_MS, 1_000, 'TIMED_JOBS_POLL_MS') },
    federation: {
      ...parseFederation(env.FEDERATION, publicUrl),
      queuePollMs: parseCount(env.FEDERATION_QUEUE_POLL_MS, 1_000, 'FEDERATION_QUEUE_POLL_MS'),
      ...(federationAllowLoopback ? { allowLoopback: true } : {}),
    },
    stream: {
      maxPerMember: parseCount(env.STREAM_MAX_PER_MEMBER, 8, 'STREAM_MAX_PER_MEMBER'),
      maxPerAddress: parseCount(env.STREAM_MAX_PER_ADDRESS, 20, 'STREAM_MAX_PER_ADDRESS'),
      heartbeatMs: parseCount(env.STREAM_HEARTBEAT_MS, 25_000, 'STREAM_HEARTBEAT_MS'),
      replayWindow: 1_000,
      maxBufferedBytes: 1024 * 1024,
    },
    cards: {
      enabled: env.CARDS !== 'off',
      allowLoopback: cardsAllowLoopback,
      timeoutMs: 5_000,
      maxPageBytes: 1024 * 1024,
      maxImageBytes: 5 * 1024 * 1024,
    },
    push: {
      vapid: parseVapid(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY),
      subject: parseVapidSubject(env.VAPID_SUBJECT, publicUrl),
      allowLoopback: pushAllowLoopback,
      maxPerMember: parseCount(env.PUSH_MAX_PER_MEMBER, 20, 'PUSH_MAX_PER_MEMBER'),
      timeoutMs: 10_000,
      pollMs: parseCount(env.PUSH_QUEUE_POLL_MS, 1_000, 'PUSH_QUEUE_POLL_MS'),
    },
  };
}

/** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither; a P-256 point (65 bytes) and scalar (32 bytes), base64url. */
function parseVapid(publicKey: string | undefined, privateKey: string | undefined): Config['push']['vapid'] {
  if (!publicKey && !privateKey) return null;
  if (!publicKey || !privateKey) {
    throw new ConfigError('INVALID_CONFIG', 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither');
  }
  const bytes = (value: string) => (/^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url').length : 0);
  if (bytes(publicKey) !== 65 || bytes(privateKey) !== 32) {
    throw new ConfigError(
      'INVALID_CONFIG',
      'VAPID_PUBLIC_KEY must be a P-256 public key (65 bytes) and VAPID_PRIVATE_KEY its private key (32 bytes), both base64url (`npx web-push generate-vapid-keys`)',
    );
  }
  return { publicKey, privateKey };
}

/** VAPID_SUBJECT, or the https PUBLIC_URL, or a mailto: on its host (push services want a way to reach the sender). */
function parseVapidSubject(value: string | undefined, publicUrl: string): string {
  if (value) {
    if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(value)) {
      throw new ConfigError('INVALID_CONFIG', `VAPID_SUBJECT must be a mailto: or https: URL, got "${value}"`);
    }
    return value;
  }
  return publicUrl.startsWith('https://') ? publicUrl : `mailto:no-reply@${new URL(publicUrl).hostname}`;
}

/** FEDERATION: unset (on with an https PUBLIC_URL), `on` (which then needs one) or `off`. */
function parseFederation(value: string | undefined, publicUrl: string): { enabled: boolean; offReason: string | null } {
  const https = publicUrl.startsWith('https://');
  if (value === 'off') return { enabled: false, offReason: 'FEDERATION=off' };
  if (value !== undefined && value !== '' && value !== 'on') {
    throw new ConfigError('INVALID_CONFIG', `FEDERATION must be "on" or "off", got "${value}"`);
  }
  if (https) return { enabled: true, offReason: null };
  if (value === 'on') {
    throw new ConfigError(
      'INVALID_CONFIG',
      `FEDERATION=on needs an https:// PUBLIC_URL (other servers reach an instance over https), got "${publicUrl}"`,
    );
  }
  return { enabled: false, offReason: `PUBLIC_URL is ${new URL(publicUrl).protocol}//, not https://` };
}

function parseEmailList(value: string | undefined, name: string): string[] {
  const emails = (value ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email.length > 0);
  const bad = emails.find((email) => !EMAIL_PATTERN.test(email));
  if (bad !== undefined)
    throw new ConfigError('INVALID_CONFIG', `${name} must be emails separated by commas, got "${bad}"`);
  return [...new Set(emails)];
}

function parseSmtpUrl(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('INVALID_CONFIG', 'SMTP_URL must be a URL like smtp://user:password@host:587');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError('INVALID_CONFIG', `SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}"`);
  }
  return value;
}

/** A positive whole number from the environment, or the fallback when unset. */
function parseCount(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigError('INVALID_CONFIG', `${name} must be a whole number ≥ 1, got "${value}"`);
  return n;
}
