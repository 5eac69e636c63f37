// Per-organization limits on LLM calls, per process: at most LLM_ORG_CONCURRENCY calls in flight
// and LLM_ORG_RATE_PER_MINUTE started per minute (token bucket). Waiting callers queue in order and
// leave the queue when their AbortSignal fires. Across processes the execution runner's
// per-organization concurrency (EXECUTION_ORG_CONCURRENCY) already bounds the worker side; see
// docs/ARCHITECTURE.md 'LLM provider' for why these limits are per process.
import { LlmError } from './port';

interface OrgState {
  active: number;
  waiters: Array<() => void>;
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

  /** Waits for a slot (and a rate token); answers its release. */
  async acquire(org: string, signal?: AbortSignal): Promise<() => void> {
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
          const i = s.waiters.indexOf(wake);
          if (i >= 0) s.waiters.splice(i, 1);
          reject(new LlmError('cancelled', 'The AI request was cancelled.'));
        };
        if (signal?.aborted) return onAbort();
        s.waiters.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = s.waiters.shift();
      if (next) next();
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
