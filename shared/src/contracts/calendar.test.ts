// The calendar's rules (domain/calendar.ts) and its contract (user.ts) agree: weekly hours the
// contract takes are the ones weeklyHoursProblem finds nothing wrong with, its first message the
// contract's; calendarOf keeps them, else falls back on the defaults.
import { describe, expect, it } from 'vitest';
import { CALENDAR_MESSAGES, calendarOf, defaultWeeklyHours, weeklyHoursProblem } from '../domain';
import { UpdateCalendarBody, WeeklyHours } from './user';

const ok = defaultWeeklyHours();
const period = (start: string, end: string) => ({ start, end });
const CASES: [string, unknown][] = [
  ['the defaults', ok],
  ['two periods a day, touching', { ...ok, monday: [period('09:00', '12:00'), period('12:00', '17:00')] }],
  ['no day at all', {}],
  ['a day missing', { ...ok, sunday: undefined }],
  ['an extra key', { ...ok, funday: [] }],
  ['not an object', 'monday'],
  ['a day not a list', { ...ok, monday: 'all day' }],
  ['seven periods', { ...ok, monday: ['00', '02', '04', '06', '08', '10', '12'].map((h) => period(`${h}:00`, `${h}:30`)) }],
  ['an extra key in a period', { ...ok, monday: [{ ...period('09:00', '10:00'), note: 'x' }] }],
  ['a time not HH:MM', { ...ok, monday: [period('9:00', '17:00')] }],
  ['a time past midnight', { ...ok, tuesday: [period('09:00', '24:00')] }],
  ['a period ending before it starts', { ...ok, monday: [period('17:00', '09:00')] }],
  ['an empty period', { ...ok, friday: [period('10:00', '10:00')] }],
  ['overlapping periods', { ...ok, monday: [period('09:00', '12:00'), period('11:00', '17:00')] }],
  [
    'a time problem on one day, an order problem on a later one',
    { ...ok, monday: [period('9', '10:00')], tuesday: [period('11:00', '10:00')] },
  ],
];

describe('the calendar rules and the contract', () => {
  it.each(CASES)('agree on %s', (_, value) => {
    const problem = weeklyHoursProblem(value);
    const parsed = WeeklyHours.safeParse(value);
    expect(problem === null).toBe(parsed.success);
    const rule = [CALENDAR_MESSAGES.time, CALENDAR_MESSAGES.order, CALENDAR_MESSAGES.overlap] as string[];
    if (!parsed.success && rule.includes(parsed.error.issues[0].message)) expect(problem).toBe(parsed.error.issues[0].message);
    if (!parsed.success && !rule.includes(parsed.error.issues[0].message)) expect(problem).toBe(CALENDAR_MESSAGES.shape);
  });

  it('calendarOf keeps weekly hours the contract takes, and fills in the defaults', () => {
    const week = { ...ok, monday: [period('08:00', '12:00'), period('13:00', '18:00')] };
    const mine = calendarOf({ timezone: 'Europe/Paris', meetingLength: 45, weeklyHours: week });
    expect(mine).toEqual({ timezone: 'Europe/Paris', meetingLength: 45, weeklyHours: week });
    expect(mine.weeklyHours).not.toBe(week);
    expect(UpdateCalendarBody.safeParse(mine).success).toBe(true);
    expect(
      calendarOf({ timezone: 'Mars/Olympus', meetingLength: 31, weeklyHours: { ...ok, monday: [period('17:00', '09:00')] } }, 'UTC'),
    ).toEqual({
      timezone: 'UTC',
      meetingLength: 30,
      weeklyHours: defaultWeeklyHours(),
    });
    expect(calendarOf(undefined, 'Asia/Tokyo')).toEqual({ timezone: 'Asia/Tokyo', meetingLength: 30, weeklyHours: defaultWeeklyHours() });
  });
});
