// Group commit: callers submit items one by one; whatever is submitted while the previous group is
// being written goes into the next group, written at once by `write` (one transaction). Used where
// each commit holds a per-organization row (the realtime sequence) until it ends, so committing one
// item at a time would limit an organization to one commit's round trips per item: the executions'
// completions (executions/runner.ts) and the sends' records (email/send/send.ts).

/**
 * `write(group)` writes a group in one transaction and answers one result per item, in order. A
 * group that fails is written again one item at a time, so one item cannot sink the rest; an item
 * that fails alone rejects its caller's promise.
 */
export class GroupCommit<I, R> {
  private pending: { item: I; resolve(r: R): void; reject(e: unknown): void }[] = [];
  private flushing = false;

  constructor(
    private readonly write: (group: I[]) => Promise<R[]>,
    private readonly maxGroup: number,
  ) {}

  submit(item: I): Promise<R> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.flushing) return;
      this.flushing = true;
      // After the current turn: the items that finish together join this group.
      setImmediate(() => {
        void this.flush();
      });
    });
  }

  private async flush(): Promise<void> {
    try {
      // A group settles its own items (commit() does not throw).
      while (this.pending.length > 0) await this.commit(this.pending.splice(0, this.maxGroup));
    } finally {
      this.flushing = false;
    }
  }

  private async commit(group: GroupCommit<I, R>['pending']): Promise<void> {
    let results: R[];
    try {
      results = await this.write(group.map((g) => g.item));
    } catch (error) {
      if (group.length > 1) {
        for (const g of group) await this.commit([g]);
        return;
      }
      group[0].reject(error);
      return;
    }
    group.forEach((g, i) => g.resolve(results[i]));
  }
}
