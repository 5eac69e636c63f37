// Notifications (spec 000 §2 'Notification list', §3 Notification) and integration expiry notices
// (spec 000 §4 'Integration expiry notices', §9; spec 001 §4; spec 002 §8 'Integration messages').

export const NOTIFICATION_LEVELS = ['warning', 'error', 'info'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

export const NOTIFICATION_MESSAGES = {
  empty: "You're all set. Nice work!",
  allRead: 'All notifications marked as read',
} as const;

/** Where integration notices send the user. */
export const INTEGRATION_SETTINGS_HREF = '/account/profile';
/** A warning is raised when this many days or fewer remain; below 0 days it is expired. */
export const INTEGRATION_EXPIRY_WARNING_DAYS = 5;
/** Email-service drafts show a warning when fewer than this many days remain (spec 000 §4, §9). */
export const EMAIL_INTEGRATION_WARNING_DAYS = 7;

const DAY_MS = 86_400_000;

/** Whole days left before `expiresAt` (negative once it has passed): floor((expiresAt − now) / 1 day). */
export function daysLeft(expiresAt: Date | string | number, now: Date | number = Date.now()): number {
  const n = typeof now === 'number' ? now : now.getTime();
  return Math.floor((new Date(expiresAt).getTime() - n) / DAY_MS);
}

export const INTEGRATION_MESSAGES = {
  expired: (provider: string) => `Your ${provider} integration has expired. Please renew your subscription to regain access.`,
  expiresToday: (provider: string) => `Your ${provider} integration expires today.`,
  willExpire: (provider: string, days: number) => `Your ${provider} integration will expire in ${days} ${days === 1 ? 'day' : 'days'}.`,
  office365NotFound: 'Office 365 integration not found.',
} as const;

export interface IntegrationExpiryInput {
  /** Identifies the integration (for the notice's uniqueKey). */
  integrationId: string;
  /** The provider's display name, e.g. 'Office 365', 'Salesforce'. */
  provider: string;
  expiresAt: Date | string | number | null;
}

export interface NoticeInput {
  level: NotificationLevel;
  message: string;
  href: string | null;
  uniqueKey: string | null;
}

/** The uniqueKey of an integration's expiry notice: one notice per integration, updated as days pass. */
export function integrationNoticeKey(integrationId: string): string {
  return `integration-expiry:${integrationId}`;
}

/**
 * The notice an integration calls for now, or null: below 0 days left it has expired (error); with
 * 5 days or fewer it expires today / in 1 day / in N days (warning). Both link to /account/profile.
 */
export function integrationExpiryNotice(input: IntegrationExpiryInput, now: Date | number = Date.now()): NoticeInput | null {
  if (input.expiresAt == null) return null;
  const days = daysLeft(input.expiresAt, now);
  if (Number.isNaN(days) || days > INTEGRATION_EXPIRY_WARNING_DAYS) return null;
  const base = { href: INTEGRATION_SETTINGS_HREF, uniqueKey: integrationNoticeKey(input.integrationId) };
  if (days < 0) return { ...base, level: 'error', message: INTEGRATION_MESSAGES.expired(input.provider) };
  return {
    ...base,
    level: 'warning',
    message: days === 0 ? INTEGRATION_MESSAGES.expiresToday(input.provider) : INTEGRATION_MESSAGES.willExpire(input.provider, days),
  };
}

/**
 * The state of the email-service integration pushed into drafts (spec 000 §4): error when it is
 * missing or expired, warning when fewer than 7 days remain, otherwise nothing.
 */
export function emailIntegrationBanner(
  integration: { provider: string; expiresAt: Date | string | number | null } | null,
  now: Date | number = Date.now(),
): { level: 'warning' | 'error'; message: string } | null {
  if (!integration) return { level: 'error', message: INTEGRATION_MESSAGES.office365NotFound };
  if (integration.expiresAt == null) return null;
  const days = daysLeft(integration.expiresAt, now);
  if (days < 0) return { level: 'error', message: INTEGRATION_MESSAGES.expired(integration.provider) };
  if (days < EMAIL_INTEGRATION_WARNING_DAYS) {
    return {
      level: 'warning',
      message:
        days === 0 ? INTEGRATION_MESSAGES.expiresToday(integration.provider) : INTEGRATION_MESSAGES.willExpire(integration.provider, days),
    };
  }
  return null;
}

/** Keeps the first notification of each uniqueKey (the list is newest first); keyless ones all stay. */
export function dedupeNotifications<T extends { uniqueKey: string | null }>(list: readonly T[]): T[] {
  const seen = new Set<string>();
  return list.filter((n) => {
    if (!n.uniqueKey) return true;
    if (seen.has(n.uniqueKey)) return false;
    seen.add(n.uniqueKey);
    return true;
  });
}
