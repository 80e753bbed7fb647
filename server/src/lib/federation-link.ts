/**
 * What the services tell the federation (modules/federation) after a change has committed, so that
 * other servers hear of it: a member followed or stopped following someone elsewhere, answered a
 * remote person's request, wrote, edited or deleted a post. Each call only enqueues (the durable
 * federation queue delivers); each decides itself whether anyone elsewhere is concerned, so the
 * services call it without knowing who is remote.
 *
 * The services are built before the federation (which needs them), so they hold a FederationLink,
 * which the federation attaches itself to when it is on; with federation off every call is nothing.
 * Calls are made from Outbox.afterCommit work in the process that committed (never from an event
 * subscriber, which every process would run); a failure to enqueue is logged by the federation.
 */
export interface FederationPort {
  /** `followerId` (a member) asked to follow `followeeId`: a Follow when the followee is remote. */
  followed(followerId: number, followeeId: number): void;
  /** `followerId` (a member) stopped following, or withdrew the request: an Undo(Follow) when remote. */
  unfollowed(followerId: number, followeeId: number): void;
  /** `memberId` approved (`accepted`) or rejected the request of `requesterId`: Accept or Reject when remote. */
  answeredFollow(memberId: number, requesterId: number, accepted: boolean): void;
  /** A post was written: a Create(Note) to its audience elsewhere when its author is a member. */
  postCreated(postId: number): void;
  /** Its author edited it: an Update(Note). */
  postUpdated(postId: number): void;
  /** It was deleted (by its author or a moderator): a Delete to the author's followers elsewhere. */
  postDeleted(postId: number, authorId: number): void;
  /** `userId` (a member) liked a post: a Like to its author when the author is elsewhere. */
  liked(userId: number, postId: number): void;
  /** They took the like back: an Undo(Like). */
  unliked(userId: number, postId: number): void;
  /**
   * `userId` (a member) reposted `postId`, their repost being the post `repostId`: an Announce to their
   * followers elsewhere and to the post's author when elsewhere.
   */
  reposted(userId: number, postId: number, repostId: number): void;
  /** They took the repost `repostId` back: an Undo(Announce) to the same people. */
  unreposted(userId: number, postId: number, repostId: number): void;
  /** `userId` (a member) blocked `targetId`: a Block to them when they are elsewhere. */
  blocked(userId: number, targetId: number): void;
  /** The block was lifted: an Undo(Block). */
  unblocked(userId: number, targetId: number): void;
  /** A member's profile (name, bio, pictures, username, locked) changed: an Update of their actor to followers elsewhere. */
  profileUpdated(userId: number): void;
  /**
   * A member's account is about to be deleted (called before its transaction): reads what its
   * Delete needs — the keys that sign it and the followers elsewhere who hear it — and answers the sending, to be
   * called once the deletion has committed (nothing is sent for an account nobody elsewhere follows).
   */
  accountDeleting(userId: number): Promise<() => void>;
  /**
   * A member reported someone elsewhere and asked to forward it (report `reportId`): a Flag from this server
   * (never naming the reporter) to the reported person's server, with the comment and the post reported.
   */
  reportForwarded(reportId: number): void;
  /** `userId` (a member) voted `choices` (positions) in the poll of `postId`: a vote to its author when elsewhere. */
  voted(userId: number, postId: number, choices: readonly number[]): void;
}

export class FederationLink {
  private port: FederationPort | null = null;

  attach(port: FederationPort): void {
    this.port = port;
  }

  /** The federation, or null while it is off. */
  get current(): FederationPort | null {
    return this.port;
  }
}
