import type { Logger } from 'pino';

/** Work started after an answer was sent; awaited on shutdown (and by tests through `drain`). */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();
  constructor(private readonly logger: Logger) {}

  run(name: string, fn: () => Promise<void>): void {
    const p = fn()
      .catch((err) => this.logger.error({ err, task: name }, 'background task failed'))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
