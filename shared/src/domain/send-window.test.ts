import { describe, it, expect } from 'vitest';
import { nextSendTime, zonedTimeToUtc, ianaZone, insideWorkingHours, workingHoursFromGraph, type WorkingHours } from './send-window';

const weekdays9to5 = (timeZone: string): WorkingHours => ({ daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], startTime: '09:00:00.0000000', endTime: '17:00:00.0000000', timeZone });

describe('send windows', () => {
  it('maps Graph zone names (Windows and IANA) and falls back to UTC', () => {
    expect(ianaZone('Pacific Standard Time')).toBe('America/Los_Angeles');
    expect(ianaZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(ianaZone('Nowhere/Else')).toBe('UTC');
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
    const h = workingHoursFromGraph({ daysOfWeek: ['Monday', 'Friday'], startTime: '08:00:00.0000000', endTime: '16:30:00.0000000', timeZone: { name: 'Tokyo Standard Time' } });
    expect(h).toEqual({ daysOfWeek: ['monday', 'friday'], startTime: '08:00:00.0000000', endTime: '16:30:00.0000000', timeZone: 'Tokyo Standard Time' });
    // Wednesday → Friday 08:00 Tokyo = Thursday 23:00Z.
    expect(nextSendTime(new Date('2026-11-25T03:00:00Z'), h!).toISOString()).toBe('2026-11-26T23:00:00.000Z');
    expect(workingHoursFromGraph(null)).toBeNull();
    const at = new Date('2026-11-29T03:00:00Z');
    expect(nextSendTime(at, { daysOfWeek: [], startTime: '09:00', endTime: '17:00', timeZone: 'UTC' }).getTime()).toBe(at.getTime());
  });
});
