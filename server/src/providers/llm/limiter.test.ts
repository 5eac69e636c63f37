// The per-organization limiter: concurrency cap with a FIFO hand-over, abort while waiting, and
// organizations not waiting on each other.
import { describe, it, expect } from 'vitest';
import { OrgLimiter } from './limiter';
import { LlmError } from './port';
import { retryAfterOf as retryAfterMs } from './openai';

describe('OrgLimiter', () => {
  it('lets at most `concurrency` calls of one organization run; the next waits for a release, in order', async () => {
    const limiter = new OrgLimiter({ concurrency: 2, ratePerMinute: 0 });
    const r1 = await limiter.acquire('a');
    const r2 = await limiter.acquire('a');
    const order: number[] = [];
    const p3 = limiter.acquire('a').then((r) => {
      order.push(3);
      return r;
    });
    const p4 = limiter.acquire('a').then((r) => {
      order.push(4);
      return r;
    });
    // Another organization is not held up.
    const other = await limiter.acquire('b');
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(limiter.active('a')).toBe(2);
    r1();
    const r3 = await p3;
    expect(order).toEqual([3]);
    expect(limiter.active('a')).toBe(2);
    r2();
    const r4 = await p4;
    expect(order).toEqual([3, 4]);
    r3();
    r4();
    other();
    r3(); // a second release is ignored
    expect(limiter.active('a')).toBe(0);
  });

  it('waiters are served by priority (lower first), then in arrival order', async () => {
    const limiter = new OrgLimiter({ concurrency: 1, ratePerMinute: 0 });
    let release = await limiter.acquire('a', undefined, 5);
    const order: string[] = [];
    const wait = (name: string, priority: number) =>
      limiter.acquire('a', undefined, priority).then((r) => {
        order.push(name);
        return r;
      });
    const waits = [wait('late batch 1', 20), wait('old batch 1', 10), wait('late batch 2', 20), wait('old batch 2', 10)];
    for (let i = 0; i < waits.length; i++) {
      release();
      release = await Promise.race(
        waits.filter((_, j) => !order.includes(['late batch 1', 'old batch 1', 'late batch 2', 'old batch 2'][j])),
      );
    }
    release();
    expect(order).toEqual(['old batch 1', 'old batch 2', 'late batch 1', 'late batch 2']);
    expect(limiter.active('a')).toBe(0);
  });

  it('a waiter whose signal aborts leaves the queue with a cancelled error', async () => {
    const limiter = new OrgLimiter({ concurrency: 1, ratePerMinute: 0 });
    const r1 = await limiter.acquire('a');
    const ac = new AbortController();
    const waiting = limiter.acquire('a', ac.signal);
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(LlmError);
    await expect(waiting).rejects.toMatchObject({ kind: 'cancelled' });
    r1();
    expect(limiter.active('a')).toBe(0);
    const r2 = await limiter.acquire('a');
    expect(limiter.active('a')).toBe(1);
    r2();
  });

  it('the rate limit lets a burst of `ratePerMinute` calls start, then makes the next one wait', async () => {
    const limiter = new OrgLimiter({ concurrency: 100, ratePerMinute: 3 });
    const releases = await Promise.all([limiter.acquire('a'), limiter.acquire('a'), limiter.acquire('a')]);
    releases.forEach((r) => r());
    const ac = new AbortController();
    let started = false;
    const fourth = limiter.acquire('a', ac.signal).then(() => {
      started = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(started).toBe(false);
    ac.abort();
    await expect(fourth).rejects.toMatchObject({ kind: 'cancelled' });
    expect(limiter.active('a')).toBe(0);
  });
});

describe('retryAfterMs', () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it('reads retry-after-ms, Retry-After seconds and an HTTP date', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(h({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(h({}))).toBeNull();
    expect(retryAfterMs(h({ 'retry-after': 'soon' }))).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
  });
});
