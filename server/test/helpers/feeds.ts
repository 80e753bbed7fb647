import type { FeedsService } from '../../src/modules/feeds/feeds.service.ts';

/**
 * Waits until the home feeds' fan-out has nothing left to do (its outbox and jobs are empty): the
 * signal the feeds tests wait for before reading a feed. Looks every 25 ms for as long as it takes —
 * the test's own timeout is the bound, never a guess at how fast the machine is.
 */
export async function fanOutDone(feeds: FeedsService | null): Promise<void> {
  if (!feeds) return;
  while ((await feeds.pendingJobs()) > 0) await new Promise((resolve) => setTimeout(resolve, 25));
}
