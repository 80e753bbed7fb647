import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { type EventBus, InProcessEventBus } from './lib/events.ts';
import { FederationLink } from './lib/federation-link.ts';
import { InProcessJobs, type Jobs } from './lib/jobs.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { DurableQueue } from './lib/queue.ts';
import type { RedisConnection } from './lib/redis.ts';
import { RedisEventBus } from './lib/redis-event-bus.ts';
import type { Resolve } from './lib/safe-fetch.ts';
import { TimedJobs } from './lib/timed-jobs.ts';
import { AccountService } from './modules/account/account.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { PasswordResetService } from './modules/auth/password-reset.service.ts';
import { BookmarksService } from './modules/bookmarks/bookmarks.service.ts';
import { CardsService } from './modules/cards/cards.service.ts';
import { ConversationsService } from './modules/conversations/conversations.service.ts';
import { DraftsService } from './modules/drafts/drafts.service.ts';
import { ScheduledPostsService } from './modules/drafts/scheduled.service.ts';
import { FeedsService } from './modules/feeds/feeds.service.ts';
import { FeedStore } from './modules/feeds/feeds.store.ts';
import { FollowsService } from './modules/follows/follows.service.ts';
import { HashtagsService } from './modules/hashtags/hashtags.service.ts';
import { ListsService } from './modules/lists/lists.service.ts';
import { MASTODON_TYPES } from './modules/mastodon/notification.presenter.ts';
import { MediaService, UPLOAD_SWEEP_INTERVAL_MS } from './modules/media/media.service.ts';
import { createMediaStore } from './modules/media/media.store.ts';
import { DomainBlocksService } from './modules/moderation/domain-blocks.service.ts';
import { ModerationService } from './modules/moderation/moderation.service.ts';
import { NodeInfoService } from './modules/nodeinfo/nodeinfo.service.ts';
import { NotificationsService } from './modules/notifications/notifications.service.ts';
import { Notifier } from './modules/notifications/notifier.ts';
import { OAuthService } from './modules/oauth/oauth.service.ts';
import { PasskeysService } from './modules/passkeys/passkeys.service.ts';
import { PollsService } from './modules/polls/polls.service.ts';
import { PostEditsService } from './modules/posts/post-edits.service.ts';
import { PostViewCache } from './modules/posts/posts.cache.ts';
import { PostsService } from './modules/posts/posts.service.ts';
import { PushService } from './modules/push/push.service.ts';
import { MUTE_SWEEP_INTERVAL_MS, SafetyService } from './modules/safety/safety.service.ts';
import { SearchService } from './modules/search/search.service.ts';
import { SessionsService } from './modules/sessions/sessions.service.ts';
import { StreamHub } from './modules/stream/stream.hub.ts';
import { TimelinesService } from './modules/timelines/timelines.service.ts';
import { TwoFactorService } from './modules/two-factor/two-factor.service.ts';
import { promoteAdmins } from './modules/users/users.repository.ts';
import { UsersService } from './modules/users/users.service.ts';

/** Every service of the app, built once: each dependency is handed over here and nowhere else. */
export interface Services {
  events: EventBus;
  jobs: Jobs;
  /** Durable work due at a time (polls ending, scheduled posts), once in a cluster; modules register kinds. */
  timedJobs: TimedJobs;
  notifier: Notifier;
  sessions: SessionsService;
  auth: AuthService;
  /** The account as a whole: export and delete. */
  account: AccountService;
  /** Forgotten passwords: links by email. */
  passwordReset: PasswordResetService;
  /** Two-factor sign-in with an authenticator app (TOTP) and recovery codes. */
  twoFactor: TwoFactorService;
  /** Passkeys (WebAuthn): a sign-in that counts as two factors. */
  passkeys: PasskeysService;
  /** Web Push: browsers' and Mastodon apps' subscriptions, and the deliveries of notifications to them. */
  push: PushService;
  /** Outgoing mail (SMTP, or the log in development). */
  mailer: Mailer;
  media: MediaService;
  /** Link preview cards: fetched in the background for posts' first links. */
  cards: CardsService;
  users: UsersService;
  /** Where the services tell the federation what other servers should hear of (lib/federation-link.ts). */
  federationLink: FederationLink;
  posts: PostsService;
  /** Edits of posts and their history (issue 28). */
  postEdits: PostEditsService;
  /** Polls: votes, their end (a timed job), and the edit's `replacePollIn`. */
  polls: PollsService;
  bookmarks: BookmarksService;
  hashtags: HashtagsService;
  search: SearchService;
  follows: FollowsService;
  /** Blocks, mutes and muted words. */
  safety: SafetyService;
  /** The member's lists: their members and timelines, exclusive lists. */
  lists: ListsService;
  /** Reports, suspensions, roles and the audit log. */
  moderation: ModerationService;
  domainBlocks: DomainBlocksService;
  /** What the server tells other servers and apps about itself (NodeInfo: software, usage). */
  nodeinfo: NodeInfoService;
  /** OAuth 2 for Mastodon apps: apps, codes, tokens. */
  oauth: OAuthService;
  timelines: TimelinesService;
  notifications: NotificationsService;
  /** Direct posts as conversations (written by posts, read here). */
  conversations: ConversationsService;
  /** Posts not sent yet: the member's drafts. */
  drafts: DraftsService;
  /** Posts scheduled for a time, published by the timed job `post.scheduled`. */
  scheduledPosts: ScheduledPostsService;
  /** Live updates for the open streams of this process. */
  stream: StreamHub;
  /** Home feeds written ahead: with PostgreSQL and Redis (config.feeds), else null. */
  feeds: FeedsService | null;
  /** Stops what runs in the background (the live hub's queue, the job workers); the app's onClose calls it. */
  stop(): Promise<void>;
}

export async function createServices(
  db: Database,
  config: Config,
  deps: {
    log: FastifyBaseLogger;
    redis: RedisConnection | null;
    /** How link cards resolve names (tests map names to chosen addresses); default: the system's. */
    resolve?: Resolve;
  },
): Promise<Services> {
  // With Redis, events reach every process (their visitors' caches and live streams); else this one.
  const events = deps.redis ? new RedisEventBus(deps.redis, deps.log) : new InProcessEventBus(deps.log);
  const jobs = new InProcessJobs(deps.log);
  const timedJobs = new TimedJobs(db, events, deps.log, config.timedJobs);
  const push = await PushService.create(db, config, {
    log: deps.log,
    appWord: (type) => MASTODON_TYPES[type],
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
  const notifier = new Notifier(push);
  const feeds = await createFeeds(db, config, deps, events);
  const oauth = new OAuthService(db, events);
  // An app's tokens end with the person's sessions (the seam: the core never imports OAuth).
  const sessions = new SessionsService(db, events, config.sessionMaxAgeMs, [oauth]);
  const media = new MediaService(createMediaStore(config), db);
  const cards = new CardsService(db, events, media, jobs, config.cards, config.publicUrl, deps.log, deps.resolve);
  const federationLink = new FederationLink();
  const polls = new PollsService(db, events, notifier, timedJobs, federationLink);
  const posts = new PostsService(
    db,
    events,
    notifier,
    media,
    jobs,
    feeds?.service ?? null,
    cards,
    polls,
    federationLink,
  );
  const scheduledPosts = new ScheduledPostsService(db, events, posts, timedJobs);
  const postEdits = new PostEditsService(db, events, notifier, posts, polls, cards, federationLink);
  const follows = new FollowsService(db, events, notifier, federationLink);
  const users = new UsersService(
    db,
    media,
    jobs,
    events,
    follows,
    config.publicUrl,
    config.adminEmails,
    federationLink,
  );
  await promoteAdmins(db, config.adminEmails);
  const stream = new StreamHub(db, config.stream, deps.log);
  stream.listen(events);
  await feeds?.service.start(events);
  // Uploads no post took are deleted after a day (each process sweeps; the sweep is idempotent).
  const uploadSweep = setInterval(
    () => jobs.run('media.expire', async () => void (await media.expireUploads())),
    UPLOAD_SWEEP_INTERVAL_MS,
  ).unref();
  const safety = new SafetyService(db, events, federationLink);
  const mailer = createMailer(config.mail, deps.log);
  const auth = await AuthService.create(db, sessions, users);
  // Mutes that ran out are removed (and the muters' home feeds rebuilt) by each process; idempotent.
  const muteSweep = setInterval(
    () => jobs.run('mutes.expire', () => safety.expireMutes()),
    MUTE_SWEEP_INTERVAL_MS,
  ).unref();
  // Every kind is registered by now (the services above): due jobs may run from here on.
  timedJobs.start();
  push.start();
  return {
    events,
    jobs,
    timedJobs,
    notifier,
    sessions,
    auth,
    account: new AccountService(db, events, auth, media, jobs, federationLink),
    passwordReset: new PasswordResetService(db, sessions, mailer, jobs, config.publicUrl),
    twoFactor: new TwoFactorService(db, auth, config),
    passkeys: new PasskeysService(db, auth, config.publicUrl),
    mailer,
    media,
    cards,
    users,
    federationLink,
    posts,
    postEdits,
    polls,
    bookmarks: new BookmarksService(db, events, posts),
    lists: new ListsService(db, events),
    hashtags: new HashtagsService(db, events),
    search: new SearchService(db),
    follows,
    safety,
    moderation: new ModerationService(db, events, posts, sessions, federationLink),
    domainBlocks: new DomainBlocksService(db, events, new URL(config.publicUrl).host.toLowerCase()),
    nodeinfo: new NodeInfoService(db, events, config.federation.enabled ? ['activitypub'] : []),
    oauth,
    timelines: new TimelinesService(db, feeds?.service ?? null),
    notifications: new NotificationsService(db, events),
    conversations: new ConversationsService(db, events),
    drafts: new DraftsService(db),
    scheduledPosts,
    stream,
    feeds: feeds?.service ?? null,
    push,
    async stop() {
      await timedJobs.stop();
      await push.stop();
      clearInterval(uploadSweep);
      clearInterval(muteSweep);
      mailer.close();
      // Events already heard are handled before the database closes (the streams are closed by now).
      await stream.idle();
      await feeds?.service.stop();
      await feeds?.queue.stop();
    },
  };
}

/** The feeds service and its job queue, when PostgreSQL and Redis are both there. */
async function createFeeds(
  db: Database,
  config: Config,
  deps: { log: FastifyBaseLogger; redis: RedisConnection | null },
  events: EventBus,
) {
  if (!config.feeds.enabled || !config.databaseUrl || !deps.redis) return null;
  const queue = await DurableQueue.start(config.databaseUrl, deps.log, {
    expireInSeconds: config.feeds.jobExpireSeconds,
    maintenanceIntervalSeconds: config.feeds.jobMaintenanceSeconds,
  });
  const store = new FeedStore(
    deps.redis.commands,
    config.redisPrefix,
    config.feeds.size,
    config.feeds.activeDays * 86_400,
  );
  return { queue, service: new FeedsService(db, store, queue, config.feeds, deps.log, new PostViewCache(events)) };
}
