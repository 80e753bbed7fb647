import { type Draft, type DraftPostBody, UNSENT_LIMITS } from '@pipit/contract';
import type { Database, Executor } from '../../db/client.ts';
import { AppError, invalid, notFound } from '../../lib/errors.ts';
import { parseId } from '../../lib/ids.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { mediaIdsOf, toDraft } from './drafts.pack.ts';
import * as repo from './drafts.repository.ts';

/** Someone else's draft answers as one that does not exist. */
export const draftNotFound = () => notFound('This draft does not exist (or was deleted).');
export const parseDraftId = (wire: string): number => parseId(wire, draftNotFound);

/**
 * Refuses images that are not uploads of `ownerId`'s waiting for a post (unknown, someone else's,
 * in a post already, expired): a draft or a scheduled post holds only what is theirs to post.
 */
export async function refuseUnheldMedia(db: Executor, ownerId: number, ids: readonly number[]): Promise<void> {
  const found = new Set((await repo.findHeldUploads(db, ownerId, ids)).map((u) => u.id));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) {
    throw invalid(
      'post.media',
      `Image ${missing + 1} is not an upload of yours waiting for a post (uploads expire after a day): add it again.`,
    );
  }
}

/**
 * Drafts: posts not sent yet, kept on the server so they follow the person across devices. A draft
 * is the create body as far as written (`draftPostBody`: checked field by field, may be empty); its
 * images stay uploads of the author's, held by the draft so the sweep of uploads no post took leaves
 * them. Sending one is a create (POST /api/posts) followed by the draft's deletion.
 */
export class DraftsService {
  constructor(private readonly db: Database) {}

  async all(viewer: SessionUser): Promise<Draft[]> {
    const rows = await repo.findDrafts(this.db, viewer.userId);
    const uploads = await repo.findHeldUploads(
      this.db,
      viewer.userId,
      rows.flatMap((r) => r.mediaIds),
    );
    return rows.map((row) => toDraft(row, uploads));
  }

  async get(viewer: SessionUser, id: number): Promise<Draft> {
    const row = await repo.findDraft(this.db, viewer.userId, id);
    if (!row) throw draftNotFound();
    return toDraft(row, await repo.findHeldUploads(this.db, viewer.userId, row.mediaIds));
  }

  /** Saves a new draft (at most UNSENT_LIMITS.drafts per member). */
  async create(viewer: SessionUser, post: DraftPostBody): Promise<Draft> {
    const me = viewer.userId;
    const mediaIds = mediaIdsOf(post);
    const row = await this.db.transaction(async (tx) => {
      // Counted in the transaction that adds: two saves at once may both pass (101), never more.
      if ((await repo.countDrafts(tx, me)) >= UNSENT_LIMITS.drafts) {
        throw new AppError(
          'LIMIT_REACHED',
          `You can keep at most ${UNSENT_LIMITS.drafts} drafts; send or delete one to save another.`,
        );
      }
      await refuseUnheldMedia(tx, me, mediaIds);
      return repo.insertDraft(tx, { authorId: me, body: post, mediaIds });
    });
    return toDraft(row, await repo.findHeldUploads(this.db, me, row.mediaIds));
  }

  /** Replaces a draft's post (the whole of it). */
  async update(viewer: SessionUser, id: number, post: DraftPostBody): Promise<Draft> {
    const me = viewer.userId;
    const mediaIds = mediaIdsOf(post);
    const row = await this.db.transaction(async (tx) => {
      if (!(await repo.findDraft(tx, me, id))) throw draftNotFound();
      await refuseUnheldMedia(tx, me, mediaIds);
      return repo.updateDraft(tx, me, id, { body: post, mediaIds });
    });
    if (!row) throw draftNotFound();
    return toDraft(row, await repo.findHeldUploads(this.db, me, row.mediaIds));
  }

  /** Deletes a draft; its images are uploads again, swept after their day unless a post took them. */
  async remove(viewer: SessionUser, id: number): Promise<void> {
    if (!(await repo.deleteDraft(this.db, viewer.userId, id))) throw draftNotFound();
  }
}
