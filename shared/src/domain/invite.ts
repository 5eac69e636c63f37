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

/**
 * Every problem with the invite request, in the spec's order (role, then the addresses, then the
 * seats), so that a form shows them all at once; `message` is the first (what the server answers).
 */
export function checkInvite(input: InviteCheckInput): { message: string | null; messages: string[]; emails: string[] } {
  const emails = input.emails.map(normalizeEmail).filter((e) => e.length > 0);
  const messages: string[] = [];
  if (!input.role) messages.push(INVITE_MESSAGES.roleRequired);
  if (emails.length === 0) messages.push(INVITE_MESSAGES.emailEmpty);
  const invalid = emails.filter((e) => !isValidEmail(e));
  if (invalid.length > 0) messages.push(INVITE_MESSAGES.invalid + invalid.join(', '));
  if (new Set(emails).size !== emails.length) messages.push(INVITE_MESSAGES.duplicated);
  const members = [...new Set(emails.filter((e) => input.existing.has(e)))];
  if (members.length > 0) messages.push(INVITE_MESSAGES.alreadyMembers + members.join(', '));
  const addressesOk = messages.length === (input.role ? 0 : 1);
  if (addressesOk && input.seats <= 0) messages.push(INVITE_MESSAGES.noSeats);
  else if (addressesOk && emails.length > input.seats) messages.push(INVITE_MESSAGES.tooMany(input.seats));
  return { message: messages[0] ?? null, messages, emails };
}
