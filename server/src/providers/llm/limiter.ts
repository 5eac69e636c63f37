// Per-organization limits on LLM calls, per process: at most LLM_ORG_CONCURRENCY calls in flight
// and LLM_ORG_RATE_PER_MINUTE started per minute (token bucket). Waiting callers queue in order and
// leave the queue when their AbortSignal fires. Across processes the execution runner's
// per-organization concurrency (EXECUTION_ORG_CONCURRENCY) already bounds the worker side; see
// docs/ARCHITECTURE.md 'LLM provider' for why these limits are per process.
import { LlmError } from './port';

interface OrgState {
  active: number;
  /** Waiting callers, by priority (lower first), then arrival. */
  waiters: Array<{ wake: () => void; priority: number }>;
  tokens: number;
  refilledAt: number;
}

export interface LimiterSettings {
  concurrency: number;
  /** Calls per minute; 0 = no limit. */
  ratePerMinute: number;
}

export class OrgLimiter {
  private orgs = new Map<string, OrgState>();
  constructor(private settings: LimiterSettings) {}

  configure(settings: LimiterSettings): void {
    this.settings = settings;
  }

  private state(org: string): OrgState {
    let s = this.orgs.get(org);
    if (!s) {
      s = { active: 0, waiters: [], tokens: this.settings.ratePerMinute, refilledAt: Date.now() };
      this.orgs.set(org, s);
    }
    return s;
  }

  /** Calls in flight for an organization in this process. */
  active(org: string): number {
    return this.orgs.get(org)?.active ?? 0;
  }

  /**
   * Waits for a slot (and a rate token); answers its release. Waiters are served by `priority`
   * (lower first; default: the time of the call, so without priorities the queue is FIFO), then in
   * arrival order. Executions pass the time their batch was claimed: the rows of an older batch go
   * first, so batches finish one after the other and the worker refetches while the next batch's
   * rows keep the calls in flight (all batches finishing together left gaps at each refill).
   */
  async acquire(org: string, signal?: AbortSignal, priority: number = Date.now()): Promise<() => void> {
    const s = this.state(org);
    if (s.active < this.settings.concurrency && s.waiters.length === 0) {
      s.active += 1;
    } else {
      // Woken by a release that hands its slot over (active stays counted).
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = s.waiters.findIndex((w) => w.wake === wake);
          if (i >= 0) s.waiters.splice(i, 1);
          reject(new LlmError('cancelled', 'The AI request was cancelled.'));
        };
        if (signal?.aborted) return onAbort();
        // After every waiter of the same or a lower priority (mostly: at the end).
        let at = s.waiters.length;
        while (at > 0 && s.waiters[at - 1].priority > priority) at -= 1;
        s.waiters.splice(at, 0, { wake, priority });
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = s.waiters.shift();
      if (next) next.wake();
      else s.active -= 1;
    };
    try {
      await this.takeToken(s, signal);
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  private async takeToken(s: OrgState, signal?: AbortSignal): Promise<void> {
    const rate = this.settings.ratePerMinute;
    if (rate <= 0) return;
    for (;;) {
      const now = Date.now();
      s.tokens = Math.min(rate, s.tokens + ((now - s.refilledAt) * rate) / 60_000);
      s.refilledAt = now;
      if (s.tokens >= 1) {
        s.tokens -= 1;
        return;
      }
      const waitMs = Math.ceil(((1 - s.tokens) * 60_000) / rate);
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new LlmError('cancelled', 'The AI request was cancelled.'));
        const t = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, waitMs);
        const onAbort = () => {
          clearTimeout(t);
          reject(new LlmError('cancelled', 'The AI request was cancelled.'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }
}
