// Time-ago wording (spec 002 §9): under 10 seconds 'Just now'; then seconds, minutes, hours;
// then 'Yesterday'; days under 7, weeks under 4, months under 12, then years.
// Times in the future (a scheduled send: 'Sending {relative time}', spec 000 §2) read 'in …'.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function unit(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The amount of elapsed time in words, without 'ago' / 'in' (null below 10 seconds and for 1 day). */
function span(ms: number): string | null {
  if (ms < 10 * SECOND) return null;
  if (ms < MINUTE) return unit(Math.floor(ms / SECOND), 'second');
  if (ms < HOUR) return unit(Math.floor(ms / MINUTE), 'minute');
  if (ms < DAY) return unit(Math.floor(ms / HOUR), 'hour');
  const days = Math.floor(ms / DAY);
  if (days < 2) return null;
  if (days < 7) return unit(days, 'day');
  const weeks = Math.floor(days / 7);
  if (weeks < 4) return unit(weeks, 'week');
  const months = Math.max(1, Math.floor(days / 30));
  if (months < 12) return unit(months, 'month');
  return unit(Math.max(1, Math.floor(days / 365)), 'year');
}

/**
 * 'Just now', '42 seconds ago', '1 minute ago', '3 hours ago', 'Yesterday', '5 days ago',
 * '2 weeks ago', '4 months ago', '1 year ago'; for a future time 'in 5 minutes', 'Tomorrow'.
 */
export function timeAgo(date: Date | string | number, now: Date | number = Date.now()): string {
  const t = new Date(date).getTime();
  const n = typeof now === 'number' ? now : now.getTime();
  if (Number.isNaN(t)) return '';
  const diff = n - t;
  const ms = Math.abs(diff);
  if (diff >= 0) {
    if (ms < 10 * SECOND) return 'Just now';
    if (ms >= DAY && ms < 2 * DAY) return 'Yesterday';
    return `${span(ms)} ago`;
  }
  if (ms < 10 * SECOND) return 'in a few seconds';
  if (ms >= DAY && ms < 2 * DAY) return 'Tomorrow';
  return `in ${span(ms)}`;
}
