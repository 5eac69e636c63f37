import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryAfterSeconds } from './retry-after';

describe('Retry-After, read one way for every outside service', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('delta-seconds, whole or fractional', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(' 0.5 ')).toBe(500);
    expect(retryAfterSeconds('120')).toBe(120);
    expect(retryAfterSeconds('0.2')).toBe(1);
  });
  it('an HTTP date, never negative', () => {
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:02 GMT', now)).toBe(2);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });
  it("OpenAI's retry-after-ms wins over Retry-After", () => {
    expect(retryAfterMs('2', now, '250')).toBe(250);
    expect(retryAfterMs(null, now, 'x')).toBeNull();
  });
  it('absent or unreadable is null', () => {
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterSeconds('-1')).toBeNull();
  });
});
