import { describe, it, expect } from 'vitest';
import { integrationExpiryNotice, emailIntegrationBanner, daysLeft, dedupeNotifications, NOTIFICATION_MESSAGES } from './notifications';

const now = new Date('2026-03-10T12:00:00Z');
const inDays = (d: number, extraMs = 0) => new Date(now.getTime() + d * 86_400_000 + extraMs);

describe('integration expiry notices (spec 000 §4)', () => {
  const notice = (expiresAt: Date | null) => integrationExpiryNotice({ integrationId: 'i-1', provider: 'Salesforce', expiresAt }, now);

  it('expired below 0 days: an error asking to renew, linking to the profile', () => {
    expect(notice(inDays(0, -1))).toEqual({
      level: 'error',
      message: 'Your Salesforce integration has expired. Please renew your subscription to regain access.',
      href: '/account/profile',
      uniqueKey: 'integration-expiry:i-1',
    });
    expect(notice(inDays(-30))?.level).toBe('error');
  });

  it('5 days or fewer: a warning — today, in 1 day, in N days', () => {
    expect(notice(inDays(0, 3_600_000))).toMatchObject({
      level: 'warning',
      message: 'Your Salesforce integration expires today.',
      href: '/account/profile',
    });
    expect(notice(inDays(1, 60_000))?.message).toBe('Your Salesforce integration will expire in 1 day.');
    expect(notice(inDays(3))?.message).toBe('Your Salesforce integration will expire in 3 days.');
    expect(notice(inDays(5, 86_399_000))?.message).toBe('Your Salesforce integration will expire in 5 days.');
  });

  it('more than 5 days left, or no expiry: no notice', () => {
    expect(notice(inDays(6))).toBeNull();
    expect(notice(null)).toBeNull();
  });

  it('days left are whole days, negative once passed', () => {
    expect(daysLeft(inDays(2, 5), now)).toBe(2);
    expect(daysLeft(inDays(0, -1), now)).toBe(-1);
  });
});

describe('email integration banner for drafts (spec 000 §4)', () => {
  it('error when not found or expired, warning under 7 days, nothing otherwise', () => {
    expect(emailIntegrationBanner(null, now)).toEqual({ level: 'error', message: 'Office 365 integration not found.' });
    expect(emailIntegrationBanner({ provider: 'Office 365', expiresAt: inDays(-1) }, now)?.level).toBe('error');
    expect(emailIntegrationBanner({ provider: 'Office 365', expiresAt: inDays(6) }, now)).toEqual({
      level: 'warning',
      message: 'Your Office 365 integration will expire in 6 days.',
    });
    expect(emailIntegrationBanner({ provider: 'Office 365', expiresAt: inDays(7) }, now)).toBeNull();
  });
});

describe('notification list', () => {
  it('is deduplicated by key; the empty state reads as the spec says', () => {
    const list = [
      { id: 1, uniqueKey: 'a' },
      { id: 2, uniqueKey: null },
      { id: 3, uniqueKey: 'a' },
      { id: 4, uniqueKey: null },
    ];
    expect(dedupeNotifications(list).map((n) => n.id)).toEqual([1, 2, 4]);
    expect(NOTIFICATION_MESSAGES.empty).toBe("You're all set. Nice work!");
  });
});
