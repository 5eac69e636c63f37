import { describe, it, expect } from 'vitest';
import { timeAgo } from './time-ago';

const now = new Date('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const S = 1000,
  M = 60 * S,
  H = 60 * M,
  D = 24 * H;

describe('timeAgo (spec 002 §9 Time-ago wording)', () => {
  it('under 10 seconds is Just now', () => {
    expect(timeAgo(now, now)).toBe('Just now');
    expect(timeAgo(ago(9_999), now)).toBe('Just now');
  });
  it('then seconds, minutes, hours', () => {
    expect(timeAgo(ago(10 * S), now)).toBe('10 seconds ago');
    expect(timeAgo(ago(59 * S), now)).toBe('59 seconds ago');
    expect(timeAgo(ago(60 * S), now)).toBe('1 minute ago');
    expect(timeAgo(ago(59 * M), now)).toBe('59 minutes ago');
    expect(timeAgo(ago(H), now)).toBe('1 hour ago');
    expect(timeAgo(ago(23 * H + 59 * M), now)).toBe('23 hours ago');
  });
  it('then Yesterday, days under 7, weeks under 4, months under 12, then years', () => {
    expect(timeAgo(ago(D), now)).toBe('Yesterday');
    expect(timeAgo(ago(2 * D - 1), now)).toBe('Yesterday');
    expect(timeAgo(ago(2 * D), now)).toBe('2 days ago');
    expect(timeAgo(ago(6 * D), now)).toBe('6 days ago');
    expect(timeAgo(ago(7 * D), now)).toBe('1 week ago');
    expect(timeAgo(ago(27 * D), now)).toBe('3 weeks ago');
    expect(timeAgo(ago(28 * D), now)).toBe('1 month ago');
    expect(timeAgo(ago(65 * D), now)).toBe('2 months ago');
    expect(timeAgo(ago(359 * D), now)).toBe('11 months ago');
    expect(timeAgo(ago(360 * D), now)).toBe('1 year ago');
    expect(timeAgo(ago(800 * D), now)).toBe('2 years ago');
  });
  it('accepts ISO strings and timestamps; an invalid date gives an empty string', () => {
    expect(timeAgo('2026-03-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(timeAgo(now.getTime() - 3 * H, now.getTime())).toBe('3 hours ago');
    expect(timeAgo('not a date', now)).toBe('');
  });
  it('future times (a scheduled send) read in …', () => {
    expect(timeAgo(new Date(now.getTime() + 5 * S), now)).toBe('in a few seconds');
    expect(timeAgo(new Date(now.getTime() + 5 * M), now)).toBe('in 5 minutes');
    expect(timeAgo(new Date(now.getTime() + 30 * H), now)).toBe('Tomorrow');
    expect(timeAgo(new Date(now.getTime() + 3 * D), now)).toBe('in 3 days');
  });
});
