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
