// Retrying a call to an outside service, in one place for every adapter (the data providers, Affinity,
// the OpenAI-compatible model providers): a bounded number of attempts; after a failure the adapter
// says whether it is worth another attempt and how long the server asked us to wait (Retry-After,
// read by ./retry-after.ts); without such a wait the delay backs off exponentially with jitter.
// A wait longer than the caller accepts is not waited: the failure is passed on at once (a queue
// retries later, or the user is told when to try again). The caller's signal cuts a wait short.

export interface RetryVerdict {
  /** Another attempt may succeed (429, 5xx, a dropped connection…). */
  retry: boolean;
  /** The wait the server asked for in ms, or null to back off with jitter. */
  waitMs: number | null;
}

export interface RetryOptions {
  /** Attempts in all, the first included (at least 1). */
  attempts: number;
  /** The longest wait accepted before another attempt; a longer one passes the failure on. */
  maxWaitMs: number;
  /** First backoff step when the server names no wait: base · 2^(n−1) · (0.5…1.5). Default 500 ms. */
  baseDelayMs?: number;
  /** Cuts a wait short: the error `cancelled()` gives is thrown instead. */
  signal?: AbortSignal;
  cancelled?: () => Error;
  /** Told before each new attempt (attempt number from 2), e.g. for a retries counter. */
  onRetry?: (attempt: number) => void;
}

/** The backoff delay before attempt `attempt + 1` when the server named no wait. */
export const backoffMs = (attempt: number, baseDelayMs = 500, random = Math.random): number =>
  Math.round(baseDelayMs * 2 ** (attempt - 1) * (0.5 + random()));

function wait(ms: number, o: RetryOptions): Promise<void> {
  const cancelled = () => o.cancelled?.() ?? new Error('Cancelled.');
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(cancelled());
    const onAbort = () => {
      clearTimeout(t);
      reject(cancelled());
    };
    const t = setTimeout(() => {
      o.signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    o.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `call` until it succeeds; after a failure, `judge(error)` decides. The last failure is thrown
 * when it is not worth retrying, when the attempts are spent, or when the wait is over `maxWaitMs`.
 */
export async function withRetries<T>(
  call: (attempt: number) => Promise<T>,
  judge: (error: unknown, attempt: number) => RetryVerdict,
  o: RetryOptions,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (err) {
      const verdict = judge(err, attempt);
      if (!verdict.retry || attempt >= o.attempts) throw err;
      const delay = verdict.waitMs ?? backoffMs(attempt, o.baseDelayMs);
      if (delay > o.maxWaitMs) throw err;
      await wait(delay, o);
      o.onRetry?.(attempt + 1);
    }
  }
}
