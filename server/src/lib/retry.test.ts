import { describe, expect, it } from 'vitest';
import { backoffMs, withRetries } from './retry';

class Failure extends Error {
  constructor(
    readonly retry: boolean,
    readonly waitMs: number | null = 0,
  ) {
    super('failed');
  }
}
const judge = (e: unknown) => (e instanceof Failure ? { retry: e.retry, waitMs: e.waitMs } : { retry: false, waitMs: null });

describe('withRetries', () => {
  it('tries again after a retryable failure and returns the first success', async () => {
    const seen: number[] = [];
    const retried: number[] = [];
    const result = await withRetries(
      async (n) => {
        seen.push(n);
        if (n < 3) throw new Failure(true, 1);
        return 'ok';
      },
      judge,
      { attempts: 3, maxWaitMs: 10, onRetry: (n) => retried.push(n) },
    );
    expect(result).toBe('ok');
    expect(seen).toEqual([1, 2, 3]);
    expect(retried).toEqual([2, 3]);
  });

  it('passes on a failure that is not retryable, the last one when attempts are spent, and one whose wait is too long', async () => {
    let calls = 0;
    const count = (e: Failure) => async () => {
      calls++;
      throw e;
    };
    const final = new Failure(false);
    await expect(withRetries(count(final), judge, { attempts: 5, maxWaitMs: 10 })).rejects.toBe(final);
    expect(calls).toBe(1);
    calls = 0;
    const again = new Failure(true, 1);
    await expect(withRetries(count(again), judge, { attempts: 3, maxWaitMs: 10 })).rejects.toBe(again);
    expect(calls).toBe(3);
    calls = 0;
    const long = new Failure(true, 60_000);
    await expect(withRetries(count(long), judge, { attempts: 3, maxWaitMs: 10_000 })).rejects.toBe(long);
    expect(calls).toBe(1);
  });

  it('waits what the server asked, and the signal cuts the wait short with the caller’s error', async () => {
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 50);
    const cancelled = new Error('cancelled');
    await expect(
      withRetries(
        async () => {
          throw new Failure(true, 5_000);
        },
        judge,
        { attempts: 2, maxWaitMs: 10_000, signal: ac.signal, cancelled: () => cancelled },
      ),
    ).rejects.toBe(cancelled);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('backs off exponentially with jitter when the server names no wait', () => {
    expect(backoffMs(1, 500, () => 0)).toBe(250);
    expect(backoffMs(1, 500, () => 1)).toBe(750);
    expect(backoffMs(3, 500, () => 0.5)).toBe(2000);
  });
});
