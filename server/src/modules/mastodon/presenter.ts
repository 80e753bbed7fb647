import type {
  Conversation,
  CurrentUser,
  MediaAttachment,
  Notification,
  Post,
  PostHistory,
  User,
} from '@pipit/contract';
import type { Services } from '../../services.ts';
import type { SessionUser, Viewer } from '../sessions/sessions.service.ts';
import { type Account, toAccount, toCredentialAccount } from './account.presenter.ts';
import { toConversation } from './conversation.presenter.ts';
import { toMedia } from './media.presenter.ts';
import { toNotification } from './notification.presenter.ts';
import { toRelationship } from './relationship.presenter.ts';
import { peopleOf, type Status, toStatus } from './status.presenter.ts';
import { toStatusEdit } from './status-edit.presenter.ts';

/**
 * Pipit's things as Mastodon's entities, for one viewer: each entity has its presenter
 * (account.presenter.ts, status.presenter.ts, …); what they need besides the thing itself (the whole
 * Account of each author, the quoted posts) is read through the services, once per page.
 */
export class MastodonPresenter {
  constructor(
    private readonly services: Pick<Services, 'users' | 'posts' | 'follows'>,
    readonly publicUrl: string,
  ) {}

  account(user: User): Account {
    return toAccount(this.publicUrl, user);
  }

  /** The person themselves (the requests waiting on them counted: one statement). */
  async credentialAccount(viewer: SessionUser, user: CurrentUser) {
    return toCredentialAccount(this.publicUrl, user, await this.services.follows.requestCount(viewer));
  }

  accounts(users: readonly User[]): Account[] {
    return users.map((user) => this.account(user));
  }

  media(attachment: MediaAttachment) {
    return toMedia(this.publicUrl, attachment);
  }

  /** Posts as Statuses: their people (and the quoted posts the viewer may see) read in one statement each. */
  async statuses(viewer: Viewer, posts: readonly Post[]): Promise<Status[]> {
    const quotedIds = posts.flatMap((p) => (p.quote?.state === 'shown' ? [Number(p.quote.post.id)] : []));
    const quotedPosts = await this.services.posts.many(viewer, quotedIds);
    const people = await this.services.users.many(viewer, peopleOf([...posts, ...quotedPosts]));
    const accounts = new Map(people.map((user) => [user.id, this.account(user)]));
    const noQuotes = { accounts, quoted: new Map<string, unknown>() };
    // A quoted post shows its own quote as an id only (one level, as the web embeds one level).
    const quoted = new Map(quotedPosts.map((q) => [q.id, toStatus(this.publicUrl, { ...q, quote: null }, noQuotes)]));
    return posts.map((p) => toStatus(this.publicUrl, p, { accounts, quoted }));
  }

  async status(viewer: Viewer, post: Post): Promise<Status> {
    return (await this.statuses(viewer, [post]))[0] as Status;
  }

  /** A post's versions as StatusEdits, each with its author's Account (the status's own). */
  async statusEdits(viewer: Viewer, post: Post, history: PostHistory) {
    const status = await this.status(viewer, { ...post, repostedBy: null });
    return history.items.map((version) => toStatusEdit(this.publicUrl, version, status.account));
  }

  /** Notifications with whole Accounts and Statuses (the people and the posts read once for the page). */
  async notifications(viewer: SessionUser, items: readonly Notification[]) {
    const actors = await this.services.users.many(
      viewer,
      items.map((n) => Number(n.actor.id)),
    );
    const accounts = new Map(actors.map((user) => [user.id, this.account(user)]));
    const withPost = items.filter((n): n is Notification & { post: Post } => n.post !== null);
    const statuses = await this.statuses(
      viewer,
      withPost.map((n) => n.post),
    );
    const byNotification = new Map(statuses.map((status, i) => [withPost[i]?.id, status]));
    return items.flatMap((n) => {
      const account = accounts.get(n.actor.id);
      return account ? [toNotification(n, account, byNotification.get(n.id))] : [];
    });
  }

  /** Conversations with whole Accounts and Statuses (the people and the posts read once for the page). */
  async conversations(viewer: SessionUser, items: readonly Conversation[]) {
    const people = await this.services.users.many(
      viewer,
      items.flatMap((c) => c.participants.map((p) => Number(p.id))),
    );
    const accounts = new Map(people.map((user) => [user.id, this.account(user)]));
    const statuses = await this.statuses(
      viewer,
      items.map((c) => c.lastPost),
    );
    return items.map((c, i) =>
      toConversation(
        c,
        c.participants.flatMap((p) => accounts.get(p.id) ?? []),
        statuses[i] ?? null,
      ),
    );
  }

  /** The viewer's Relationship to each person (whether each follows the viewer, whether each asked to: a statement each). */
  async relationships(viewer: SessionUser, people: readonly User[]) {
    const ids = people.map((p) => Number(p.id));
    const followers = await this.services.follows.followersAmong(viewer, ids);
    const requesters = await this.services.follows.requestersAmong(viewer, ids);
    return people.map((p) =>
      toRelationship(p, { followedBy: followers.has(Number(p.id)), requestedBy: requesters.has(Number(p.id)) }),
    );
  }
}
