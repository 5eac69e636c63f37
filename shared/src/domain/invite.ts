// Invitation rules of spec 000 §5 'Invite', shared by the invite modal and the server.
import { isValidEmail, normalizeEmail } from './validation';

export const INVITE_MESSAGES = {
  roleRequired: 'Role must be selected',
  emailEmpty: 'Email can not be empty',
  invalid: 'Some email addresses are not valid: ',
  duplicated: 'Some email addresses are duplicated',
  alreadyMembers: 'The following email addresses are already invited or members of your organization: ',
  failed: 'Failed to invite users. Please contact support.',
  noSeats: 'No seats available. Remove a user or ask support to raise your seat limit.',
  tooMany: (seats: number) => `Only ${seats} seat(s) available.`,
} as const;

/** Seats = maxUser − non-deleted users − pending invitations (never below 0). */
export function availableSeats(maxUser: number, activeUsers: number, pendingInvites: number): number {
  return Math.max(0, maxUser - activeUsers - pendingInvites);
}

export interface InviteCheckInput {
  emails: readonly string[];
  role: string | null | undefined;
  /** Lowercased emails of non-deleted users and pending invitations of the organization. */
  existing: ReadonlySet<string>;
  seats: number;
}

/** Returns the first problem (message) with the invite request, or null plus the normalized emails. */
export function checkInvite(input: InviteCheckInput): { message: string | null; emails: string[] } {
  const emails = input.emails.map(normalizeEmail).filter((e) => e.length > 0);
  if (!input.role) return { message: INVITE_MESSAGES.roleRequired, emails };
  if (emails.length === 0) return { message: INVITE_MESSAGES.emailEmpty, emails };
  const invalid = emails.filter((e) => !isValidEmail(e));
  if (invalid.length > 0) return { message: INVITE_MESSAGES.invalid + invalid.join(', '), emails };
  if (new Set(emails).size !== emails.length) return { message: INVITE_MESSAGES.duplicated, emails };
  const members = emails.filter((e) => input.existing.has(e));
  if (members.length > 0) return { message: INVITE_MESSAGES.alreadyMembers + members.join(', '), emails };
  if (input.seats <= 0) return { message: INVITE_MESSAGES.noSeats, emails };
  if (emails.length > input.seats) return { message: INVITE_MESSAGES.tooMany(input.seats), emails };
  return { message: null, emails };
}
