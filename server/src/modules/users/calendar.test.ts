// PUT /user/calendar: time zone, meeting length (30 by default) and weekly hours (001 §3 User).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CALENDAR_MESSAGES, defaultWeeklyHours } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';

describe('PUT /user/calendar', () => {
  let ctx: TestContext;
  let me: TestClient;
  beforeAll(async () => {
    ctx = await createTestApp();
    me = await signedIn(ctx, (await createOrg(ctx)).admin.email);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('a new user has a 30-minute meeting length; the calendar is saved and answered with the user', async () => {
    expect((await me.get('/api/v1/user')).json().user.calendar).toEqual({ meetingLength: 30 });
    const weeklyHours = {
      ...defaultWeeklyHours(),
      friday: [
        { start: '09:00', end: '12:00' },
        { start: '13:00', end: '15:30' },
      ],
    };
    const res = await me.put('/api/v1/user/calendar', { timezone: 'Europe/Berlin', meetingLength: 45, weeklyHours });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.calendar).toEqual({ timezone: 'Europe/Berlin', meetingLength: 45, weeklyHours });
    expect((await me.get('/api/v1/user')).json().user.calendar.meetingLength).toBe(45);
  });

  it('refuses a bad time zone, length, time, order or overlap with the message, changing nothing', async () => {
    const before = (await me.get('/api/v1/user')).json().user.calendar;
    const ok = { timezone: 'UTC', meetingLength: 30, weeklyHours: defaultWeeklyHours() };
    const cases: Array<[unknown, string]> = [
      [{ ...ok, timezone: 'Mars/Olympus' }, CALENDAR_MESSAGES.timezone],
      [{ ...ok, meetingLength: 31 }, CALENDAR_MESSAGES.meetingLength],
      [{ ...ok, weeklyHours: { ...ok.weeklyHours, monday: [{ start: '9:00', end: '17:00' }] } }, CALENDAR_MESSAGES.time],
      [{ ...ok, weeklyHours: { ...ok.weeklyHours, monday: [{ start: '17:00', end: '09:00' }] } }, CALENDAR_MESSAGES.order],
      [
        {
          ...ok,
          weeklyHours: {
            ...ok.weeklyHours,
            monday: [
              { start: '09:00', end: '12:00' },
              { start: '11:00', end: '13:00' },
            ],
          },
        },
        CALENDAR_MESSAGES.overlap,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await me.put('/api/v1/user/calendar', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await me.get('/api/v1/user')).json().user.calendar).toEqual(before);
  });
});
