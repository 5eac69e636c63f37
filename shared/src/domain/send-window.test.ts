import { describe, it, expect } from 'vitest';
import {
  nextSendTime,
  zonedTimeToUtc,
  ianaZone,
  insideWorkingHours,
  workingHoursFromGraph,
  knowsZone,
  dateInHours,
  type WorkingHours,
} from './send-window';
import { WINDOWS_ZONES } from './windows-zones';

const weekdays9to5 = (timeZone: string): WorkingHours => ({
  daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
  startTime: '09:00:00.0000000',
  endTime: '17:00:00.0000000',
  timeZone,
});

describe('send windows', () => {
  it('maps Graph zone names (Windows, any case, and IANA as they are) and fixed offsets; an unknown name is null, never UTC', () => {
    expect(ianaZone('Pacific Standard Time')).toBe('America/Los_Angeles');
    expect(ianaZone('pakistan standard time')).toBe('Asia/Karachi');
    expect(ianaZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(ianaZone('UTC')).toBe('Etc/UTC');
    expect(ianaZone('Coordinated Universal Time')).toBe('UTC');
    expect(ianaZone('UTC+05:30')).toBe('+05:30');
    expect(ianaZone('-04:00')).toBe('-04:00');
    for (const unknown of ['Nowhere/Else', 'Customized Time Zone', 'UTC+25:00', '', null])
      expect(ianaZone(unknown), String(unknown)).toBeNull();
  });

  // Graph answers the Windows names of its supported time zones: CLDR's windowsZones, all of which
  // windows-zones.ts holds (its test checks it against the cldr-core package).
  it.each(Object.entries(WINDOWS_ZONES))("every Windows zone Graph answers: '%s' opens a 09:00 window at 09:00 in %s", (windows, iana) => {
    expect(ianaZone(windows)).toBe(iana);
    const hours = { ...weekdays9to5(windows), daysOfWeek: ['monday' as const] };
    // From Saturday 2026-07-04 12:00Z (and in January, the other side of daylight time): Monday 09:00 in that zone.
    for (const from of ['2026-07-04T12:00:00Z', '2027-01-02T12:00:00Z']) {
      const open = nextSendTime(new Date(from), hours);
      const wall = new Intl.DateTimeFormat('en-US', {
        timeZone: iana,
        weekday: 'long',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(open);
      expect(wall, `${windows} from ${from}`).toBe('Monday 09:00');
      expect(open.getTime() - new Date(from).getTime()).toBeLessThan(4 * 86_400_000);
    }
  });

  it('reps in Pakistan, Egypt, Western Australia, Taipei, Venezuela and Iran get their own 09:00', () => {
    // Wednesday 2026-11-25 00:00Z: the same day's 09:00 local (Thursday's where 09:00 has passed).
    const cases: [string, string][] = [
      ['Pakistan Standard Time', '2026-11-25T04:00:00.000Z'], // UTC+5
      ['Egypt Standard Time', '2026-11-25T07:00:00.000Z'], // UTC+2 in November
      ['W. Australia Standard Time', '2026-11-25T01:00:00.000Z'], // UTC+8
      ['Taipei Standard Time', '2026-11-25T01:00:00.000Z'], // UTC+8
      ['Venezuela Standard Time', '2026-11-25T13:00:00.000Z'], // UTC−4
      ['Iran Standard Time', '2026-11-25T05:30:00.000Z'], // UTC+3:30
    ];
    for (const [zone, expected] of cases)
      expect(nextSendTime(new Date('2026-11-25T00:00:00Z'), weekdays9to5(zone)).toISOString(), zone).toBe(expected);
  });

  it("a mailbox whose zone has no known name follows its own offset and daylight rules (Graph's customTimeZone)", () => {
    // UTC+05:00 without daylight time: Windows-style bias −300 (what Exchange answers).
    const fixed = workingHoursFromGraph(
      {
        daysOfWeek: ['Wednesday'],
        startTime: '09:00:00.0000000',
        endTime: '17:00:00.0000000',
        timeZone: {
          name: 'Customized Time Zone',
          bias: -300,
          standardOffset: { time: '00:00:00', dayOccurrence: 0, dayOfWeek: 'sunday', month: 0, year: 0 },
          daylightOffset: { time: '00:00:00', dayOccurrence: 0, dayOfWeek: 'sunday', month: 0, year: 0, daylightBias: 0 },
        },
      },
      'Customized Time Zone',
    )!;
    expect(fixed.timeZone).toBe('UTC+05:00');
    expect(knowsZone(fixed)).toBe(true);
    expect(nextSendTime(new Date('2026-11-25T00:00:00Z'), fixed).toISOString()).toBe('2026-11-25T04:00:00.000Z');
    // US-like rules at UTC−08:00 (bias 480, daylight −60 from the second Sunday of March to the first of November).
    const rules = {
      name: 'Customized Time Zone',
      bias: 480,
      standardOffset: { time: '02:00:00.0000000', dayOccurrence: 1, dayOfWeek: 'sunday', month: 11, year: 0 },
      daylightOffset: { time: '02:00:00.0000000', dayOccurrence: 2, dayOfWeek: 'sunday', month: 3, year: 0, daylightBias: -60 },
    };
    const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
    const pacific = workingHoursFromGraph({ daysOfWeek: weekdays, startTime: '09:00:00', endTime: '17:00:00', timeZone: rules })!;
    expect(pacific.timeZone).toBe('UTC-08:00');
    expect(nextSendTime(new Date('2026-03-06T05:00:00Z'), pacific).toISOString()).toBe('2026-03-06T17:00:00.000Z'); // PST
    expect(nextSendTime(new Date('2026-03-07T05:00:00Z'), pacific).toISOString()).toBe('2026-03-09T16:00:00.000Z'); // PDT from 8 March
    expect(nextSendTime(new Date('2026-10-31T05:00:00Z'), pacific).toISOString()).toBe('2026-11-02T17:00:00.000Z'); // PST from 1 November
    expect(dateInHours(new Date('2026-07-01T06:00:00Z'), pacific)).toBe('2026-06-30');
    // Southern rules (daylight across the new year): UTC+10:00, +11:00 from the first Sunday of October to the first of April.
    const south = workingHoursFromGraph({
      daysOfWeek: ['Monday'],
      startTime: '09:00',
      endTime: '17:00',
      timeZone: {
        bias: -600,
        standardOffset: { time: '03:00:00', dayOccurrence: 1, dayOfWeek: 'sunday', month: 4, year: 0 },
        daylightOffset: { time: '02:00:00', dayOccurrence: 1, dayOfWeek: 'sunday', month: 10, year: 0, daylightBias: -60 },
      },
    })!;
    expect(nextSendTime(new Date('2027-01-02T00:00:00Z'), south).toISOString()).toBe('2027-01-03T22:00:00.000Z'); // Monday 4 Jan 09:00 +11
    expect(nextSendTime(new Date('2026-07-04T00:00:00Z'), south).toISOString()).toBe('2026-07-05T23:00:00.000Z'); // Monday 6 Jul 09:00 +10
  });

  it("an unknown name without an offset takes the mailbox's zone, else stays unknown (knowsZone false) for the caller to replace", () => {
    const ws = { daysOfWeek: ['Monday'], startTime: '09:00', endTime: '17:00', timeZone: { name: 'Mars Standard Time' } };
    expect(workingHoursFromGraph(ws, 'Pakistan Standard Time')!.timeZone).toBe('Pakistan Standard Time');
    const unknown = workingHoursFromGraph(ws, 'Mars Standard Time')!;
    expect([unknown.timeZone, knowsZone(unknown)]).toEqual(['Mars Standard Time', false]);
  });

  it('keeps a time inside the window and moves one outside it to the next opening', () => {
    const h = weekdays9to5('Europe/Berlin');
    // Wednesday 2026-11-25 10:00 Berlin (UTC+1) = 09:00Z: inside.
    expect(nextSendTime(new Date('2026-11-25T09:00:00Z'), h).toISOString()).toBe('2026-11-25T09:00:00.000Z');
    // 18:00 Berlin → Thursday 09:00 Berlin = 08:00Z.
    expect(nextSendTime(new Date('2026-11-25T17:00:00Z'), h).toISOString()).toBe('2026-11-26T08:00:00.000Z');
    // Friday evening → Monday 09:00.
    expect(nextSendTime(new Date('2026-11-27T18:00:00Z'), h).toISOString()).toBe('2026-11-30T08:00:00.000Z');
    // 07:00 Berlin on a weekday → 09:00 the same day.
    expect(nextSendTime(new Date('2026-11-25T06:00:00Z'), h).toISOString()).toBe('2026-11-25T08:00:00.000Z');
    expect(insideWorkingHours(new Date('2026-11-25T15:59:00Z'), h)).toBe(true);
    expect(insideWorkingHours(new Date('2026-11-25T16:00:00Z'), h)).toBe(false);
  });

  it('follows daylight-saving changes: the opening is 09:00 local on both sides of the change', () => {
    const ny = weekdays9to5('Eastern Standard Time');
    // Friday 2026-03-06 after hours → Monday 2026-03-09, after the spring-forward (EDT, UTC−4): 13:00Z.
    expect(nextSendTime(new Date('2026-03-06T23:00:00Z'), ny).toISOString()).toBe('2026-03-09T13:00:00.000Z');
    // The Friday before it opened at 14:00Z (EST, UTC−5).
    expect(nextSendTime(new Date('2026-03-06T05:00:00Z'), ny).toISOString()).toBe('2026-03-06T14:00:00.000Z');
    // Fall back in Europe (2026-10-25): Monday 26th 09:00 Berlin is 08:00Z (CET), the Friday before 07:00Z (CEST).
    const be = weekdays9to5('W. Europe Standard Time');
    expect(nextSendTime(new Date('2026-10-23T20:00:00Z'), be).toISOString()).toBe('2026-10-26T08:00:00.000Z');
    expect(nextSendTime(new Date('2026-10-23T05:00:00Z'), be).toISOString()).toBe('2026-10-23T07:00:00.000Z');
  });

  it('a wall time skipped by spring-forward moves forward by the gap; a repeated one takes its first occurrence', () => {
    expect(new Date(zonedTimeToUtc(2026, 3, 8, 2, 30, 'America/New_York')).toISOString()).toBe('2026-03-08T07:30:00.000Z'); // = 03:30 EDT
    expect(new Date(zonedTimeToUtc(2026, 11, 1, 1, 30, 'America/New_York')).toISOString()).toBe('2026-11-01T05:30:00.000Z'); // first 01:30 (EDT)
    expect(new Date(zonedTimeToUtc(2026, 7, 1, 12, 0, 'Asia/Kolkata')).toISOString()).toBe('2026-07-01T06:30:00.000Z');
  });

  it("reads Graph's workingHours; a window of no days or no length sends at once", () => {
    const h = workingHoursFromGraph({
      daysOfWeek: ['Monday', 'Friday'],
      startTime: '08:00:00.0000000',
      endTime: '16:30:00.0000000',
      timeZone: { name: 'Tokyo Standard Time' },
    });
    expect(h).toEqual({
      daysOfWeek: ['monday', 'friday'],
      startTime: '08:00:00.0000000',
      endTime: '16:30:00.0000000',
      timeZone: 'Tokyo Standard Time',
    });
    // Wednesday → Friday 08:00 Tokyo = Thursday 23:00Z.
    expect(nextSendTime(new Date('2026-11-25T03:00:00Z'), h!).toISOString()).toBe('2026-11-26T23:00:00.000Z');
    expect(workingHoursFromGraph(null)).toBeNull();
    const at = new Date('2026-11-29T03:00:00Z');
    expect(nextSendTime(at, { daysOfWeek: [], startTime: '09:00', endTime: '17:00', timeZone: 'UTC' }).getTime()).toBe(at.getTime());
  });
});
