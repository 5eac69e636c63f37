// A user's calendar (spec 001 §3 User: calendar meetingLength default 30, timezone, weeklyHours; the
// inner shape of weeklyHours is ours: per weekday a list of periods "HH:MM"–"HH:MM", empty = not
// available that day). The rules as plain functions, which the contract (contracts/user.ts:
// WeeklyHours, UpdateCalendarBody) is built from and the profile page checks its form with.
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const DEFAULT_MEETING_LENGTH = 30;
export const MEETING_LENGTHS = [15, 30, 45, 60, 90, 120] as const;
export const CALENDAR_MESSAGES = {
  timezone: 'Time zone is not valid',
  meetingLength: 'Meeting length must be one of 15, 30, 45, 60, 90 or 120 minutes',
  time: 'Times must be written HH:MM',
  order: 'Each period must start before it ends',
  overlap: 'Periods of one day must not overlap',
  /** Not a weekly schedule at all (the contract's own wording for a wrong shape is zod's). */
  shape: 'Weekly hours are not valid',
  saved: 'Calendar settings saved',
} as const;
export const HHMM_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
/** The most periods a day holds. */
export const MAX_DAY_PERIODS = 6;

export interface CalendarPeriod {
  start: string;
  end: string;
}
export type CalendarWeek = Record<Weekday, CalendarPeriod[]>;
export interface UserCalendar {
  timezone: string;
  meetingLength: number;
  weeklyHours: CalendarWeek;
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.length > 0 && tz.length <= 64;
  } catch {
    return false;
  }
}

export const isMeetingLength = (n: number): boolean => (MEETING_LENGTHS as readonly number[]).includes(n);

/** Do two periods of one day overlap (touching ends do not)? */
export function periodsOverlap(periods: readonly CalendarPeriod[]): boolean {
  const sorted = [...periods].sort((a, b) => a.start.localeCompare(b.start));
  return sorted.some((p, i) => i > 0 && sorted[i - 1].end > p.start);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasOnly = (v: Record<string, unknown>, keys: readonly string[]) => Object.keys(v).every((k) => keys.includes(k));

/**
 * The first problem of weekly hours, in the contract's order (day by day, period by period: the
 * times' form, then their order; then the day's overlaps), or null when the contract takes them.
 */
export function weeklyHoursProblem(value: unknown): string | null {
  if (!isRecord(value) || !hasOnly(value, WEEKDAYS)) return CALENDAR_MESSAGES.shape;
  for (const day of WEEKDAYS) {
    const periods = value[day];
    if (!Array.isArray(periods) || periods.length > MAX_DAY_PERIODS) return CALENDAR_MESSAGES.shape;
    for (const p of periods as unknown[]) {
      if (!isRecord(p) || !hasOnly(p, ['start', 'end']) || typeof p.start !== 'string' || typeof p.end !== 'string')
        return CALENDAR_MESSAGES.shape;
      if (!HHMM_PATTERN.test(p.start) || !HHMM_PATTERN.test(p.end)) return CALENDAR_MESSAGES.time;
      if (!(p.start < p.end)) return CALENDAR_MESSAGES.order;
    }
    if (periodsOverlap(periods as CalendarPeriod[])) return CALENDAR_MESSAGES.overlap;
  }
  return null;
}

/** Working hours before the user sets any: Monday to Friday, 09:00–17:00. */
export function defaultWeeklyHours(): CalendarWeek {
  return Object.fromEntries(
    WEEKDAYS.map((d) => [d, d === 'saturday' || d === 'sunday' ? [] : [{ start: '09:00', end: '17:00' }]]),
  ) as CalendarWeek;
}

/** The calendar a user has, defaults filled in. */
export function calendarOf(raw: Record<string, unknown> | undefined, fallbackTimezone = 'UTC'): UserCalendar {
  const hours = raw?.weeklyHours;
  const tz = typeof raw?.timezone === 'string' && isTimeZone(raw.timezone) ? raw.timezone : fallbackTimezone;
  const len = typeof raw?.meetingLength === 'number' && isMeetingLength(raw.meetingLength) ? raw.meetingLength : DEFAULT_MEETING_LENGTH;
  return {
    timezone: tz,
    meetingLength: len,
    weeklyHours: weeklyHoursProblem(hours) === null ? structuredClone(hours as CalendarWeek) : defaultWeeklyHours(),
  };
}
