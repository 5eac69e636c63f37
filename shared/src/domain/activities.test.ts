import { describe, it, expect } from 'vitest';
import {
  activitySaveProblem,
  missingActivityItems,
  isIsoDate,
  todayIn,
  earliestToday,
  activityGroup,
  groupActivities,
  activityPreview,
  activityFilterLabel,
  formatActivityDate,
  canEditActivity,
  ACTIVITY_TYPE_LABELS,
  ACTIVITY_FILTER_TYPES,
  activityCountLabel,
} from './activities';

const valid = { type: 'call', companyId: 'c1', contactId: 'p1', date: '2026-03-10', content: 'Called about the deal' };

describe('activity save (spec 000 §5)', () => {
  it('a complete activity dated today or later passes', () => {
    expect(activitySaveProblem(valid, '2026-03-10')).toBeNull();
    expect(activitySaveProblem({ ...valid, date: '2027-01-01' }, '2026-03-10')).toBeNull();
  });
  it("'Please provide valid …' lists the missing items among activity, company, contact, date, value", () => {
    expect(activitySaveProblem({}, '2026-03-10')).toBe('Please provide valid activity, company, contact, date, value');
    expect(activitySaveProblem({ ...valid, companyId: '', content: '   ' }, '2026-03-10')).toBe('Please provide valid company, value');
    expect(activitySaveProblem({ ...valid, type: 'email' }, '2026-03-10')).toBe('Please provide valid activity');
    expect(activitySaveProblem({ ...valid, date: '2026-02-30' }, '2026-03-10')).toBe('Please provide valid date');
    expect(missingActivityItems({ ...valid, contactId: null })).toEqual(['contact']);
  });
  it('a past date is refused with the scheduling message (unless the date rule is skipped)', () => {
    expect(activitySaveProblem({ ...valid, date: '2026-03-09' }, '2026-03-10')).toBe(
      'Please select today or a future date for scheduling.',
    );
    expect(activitySaveProblem({ ...valid, date: '2026-03-09' }, '2026-03-10', { checkDate: false })).toBeNull();
  });
  it('dates are real YYYY-MM-DD calendar dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(isIsoDate('2025-1-05')).toBe(false);
    expect(isIsoDate(20250105)).toBe(false);
  });
  it('today in a time zone; the earliest today anywhere is at UTC−12', () => {
    const now = new Date('2026-03-10T05:00:00Z');
    expect(todayIn('UTC', now)).toBe('2026-03-10');
    expect(todayIn('America/Los_Angeles', now)).toBe('2026-03-09');
    expect(todayIn('Pacific/Kiritimati', now)).toBe('2026-03-10');
    expect(todayIn('Not/AZone', now)).toBeNull();
    expect(earliestToday(now)).toBe('2026-03-09');
  });
  it('only manual activities can be edited or deleted', () => {
    expect(canEditActivity({ source: 'manual' })).toBe(true);
    expect(canEditActivity({ source: 'email' })).toBe(false);
  });
});

describe('activities tab display (spec 000 §2)', () => {
  it('type labels and the seven filters', () => {
    expect(ACTIVITY_FILTER_TYPES.map((t) => ACTIVITY_TYPE_LABELS[t])).toEqual(['Email', 'F2F', 'Note', 'Phone', 'SMS', 'Video', 'Other']);
  });
  it("filter label: up to two names plus '+N more'", () => {
    expect(activityFilterLabel([])).toBe('');
    expect(activityFilterLabel(['email'])).toBe('Email');
    expect(activityFilterLabel(['email', 'f2f'])).toBe('Email, F2F');
    expect(activityFilterLabel(['email', 'f2f', 'call', 'video'])).toBe('Email, F2F +2 more');
  });
  it('preview cut at 70 characters with an ellipsis', () => {
    expect(activityPreview('short')).toBe('short');
    expect(activityPreview('x'.repeat(70))).toBe('x'.repeat(70));
    expect(activityPreview('y'.repeat(71))).toBe(`${'y'.repeat(70)}…`);
  });
  it("groups: 'Upcoming' first, then 'Recent', then the others; '{n} Activity'", () => {
    const today = '2026-03-10';
    expect(activityGroup({ date: '2026-03-11' }, today)).toBe('Upcoming');
    expect(activityGroup({ date: '2026-01-01', status: 'scheduled' }, today)).toBe('Upcoming');
    expect(activityGroup({ date: '2026-03-10' }, today)).toBe('Recent');
    expect(activityGroup({ date: '2026-02-08' }, today)).toBe('Recent');
    expect(activityGroup({ date: '2026-02-07' }, today)).toBe('February 2026');
    const groups = groupActivities(
      [{ date: '2025-12-01' }, { date: '2026-03-20' }, { date: '2026-03-09' }, { date: '2026-03-12' }, { date: '2026-01-15' }],
      today,
    );
    expect(groups.map((g) => [g.label, g.activities.map((a) => a.date)])).toEqual([
      ['Upcoming', ['2026-03-12', '2026-03-20']],
      ['Recent', ['2026-03-09']],
      ['January 2026', ['2026-01-15']],
      ['December 2025', ['2025-12-01']],
    ]);
    expect(activityCountLabel(3)).toBe('3 Activity');
  });
  it("row dates read like 'Tue, Jan 5 03:00 pm'", () => {
    expect(formatActivityDate(new Date(2021, 0, 5, 15, 0))).toBe('Tue, Jan 5 03:00 pm');
    expect(formatActivityDate(new Date(2026, 2, 10, 0, 7))).toBe('Tue, Mar 10 12:07 am');
    expect(formatActivityDate(new Date(2026, 2, 14, 12, 30))).toBe('Sat, Mar 14 12:30 pm');
  });
});
