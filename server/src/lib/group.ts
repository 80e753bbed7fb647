/**
 * Runs items together, group commit style: an item arriving while `maxInFlight` groups are being
 * run waits for one of them to finish and goes with the next group, together with whatever else
 * arrived meanwhile (at most `maxGroup`). Alone (a quiet server), an item runs at once: nothing waits
 * for company. Under load, one statement and one commit serve many requests.
 *
 * `run` answers one result per item, in order. When a group fails with an error `retryAlone` accepts
 * (one that says nothing was done: a statement refused by the database, rolled back), each of its
 * items is run again on its own, so one bad item fails only its own caller; any other error (a lost
 * connection: done or not, nobody knows) fails the whole group, never run twice.
 */
export class GroupRunner<I, O> {
  private waiting: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxInFlight: number,
    private readonly maxGroup: number,
    private readonly retryAlone: (error: unknown) => boolean,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.maxGroup);
      this.inFlight++;
      void this.runGroup(group).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async runGroup(group: typeof this.waiting): Promise<void> {
    let results: O[];
    try {
      results = await this.run(group.map((g) => g.item));
    } catch (error) {
      if (group.length === 1 || !this.retryAlone(error)) {
        for (const g of group) g.reject(error);
        return;
      }
      await Promise.all(
        group.map(async (g) => {
          try {
            const results = await this.run([g.item]);
            if (results.length !== 1) throw new Error(`${results.length} results for 1 item`);
            g.resolve(results[0] as O);
          } catch (alone) {
            g.reject(alone);
          }
        }),
      );
      return;
    }
    if (results.length !== group.length) {
      const error = new Error(`${results.length} results for ${group.length} items`);
      for (const g of group) g.reject(error);
      return;
    }
    group.forEach((g, i) => {
      g.resolve(results[i] as O);
    });
  }
}
