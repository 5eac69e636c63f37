import { describe, it, expect } from 'vitest';
import { checkInvite, availableSeats, INVITE_MESSAGES } from './invite';

const base = { emails: ['new@example.com'], role: 'User', existing: new Set<string>(), seats: 5 };

describe('availableSeats: maxUser − non-deleted users − pending invitations', () => {
  it('subtracts users and pending invitations', () => {
    expect(availableSeats(10, 3, 2)).toBe(5);
    expect(availableSeats(10, 10, 0)).toBe(0);
    expect(availableSeats(1, 0, 0)).toBe(1);
  });

  it('never goes below 0', () => {
    expect(availableSeats(5, 5, 3)).toBe(0);
    expect(availableSeats(2, 7, 0)).toBe(0);
  });
});

describe('checkInvite (spec 000 §5 Invite)', () => {
  it('passes a valid request and lowercases and trims the emails', () => {
    expect(checkInvite({ ...base, emails: [' New@Example.COM ', 'Other@Example.com'] })).toEqual({
      message: null,
      messages: [],
      emails: ['new@example.com', 'other@example.com'],
    });
  });

  it("'Role must be selected' without a role", () => {
    expect(checkInvite({ ...base, role: null }).message).toBe('Role must be selected');
    expect(checkInvite({ ...base, role: undefined }).message).toBe('Role must be selected');
    expect(checkInvite({ ...base, role: '' }).message).toBe('Role must be selected');
  });

  it("'Email can not be empty' without an email (blank entries do not count)", () => {
    expect(checkInvite({ ...base, emails: [] }).message).toBe('Email can not be empty');
    expect(checkInvite({ ...base, emails: ['', '   '] }).message).toBe('Email can not be empty');
  });

  it("'Some email addresses are not valid: ...' lists every invalid address", () => {
    expect(checkInvite({ ...base, emails: ['ok@example.com', 'Nope', 'also@bad'] }).message).toBe(
      'Some email addresses are not valid: nope, also@bad',
    );
  });

  it("'Some email addresses are duplicated', also when they differ only in case", () => {
    expect(checkInvite({ ...base, emails: ['a@example.com', 'A@Example.com'] }).message).toBe('Some email addresses are duplicated');
  });

  it("'The following email addresses are already invited or members of your organization: ...'", () => {
    const existing = new Set(['member@example.com', 'pending@example.com']);
    expect(checkInvite({ ...base, existing, emails: ['Member@example.com', 'fresh@example.com', 'pending@example.com'] }).message).toBe(
      'The following email addresses are already invited or members of your organization: member@example.com, pending@example.com',
    );
  });

  it('refuses at 0 seats and above the seats left', () => {
    expect(checkInvite({ ...base, seats: 0 }).message).toBe(INVITE_MESSAGES.noSeats);
    expect(checkInvite({ ...base, seats: -1 }).message).toBe(INVITE_MESSAGES.noSeats);
    expect(checkInvite({ ...base, seats: 1, emails: ['a@example.com', 'b@example.com'] }).message).toBe('Only 1 seat(s) available.');
    expect(checkInvite({ ...base, seats: 2, emails: ['a@example.com', 'b@example.com'] }).message).toBeNull();
  });

  it('checks in the order role, empty, invalid, duplicated, members, seats', () => {
    const existing = new Set(['dup@example.com']);
    expect(checkInvite({ emails: [], role: null, existing, seats: 0 }).message).toBe(INVITE_MESSAGES.roleRequired);
    expect(checkInvite({ emails: [], role: 'User', existing, seats: 0 }).message).toBe(INVITE_MESSAGES.emailEmpty);
    expect(checkInvite({ emails: ['bad', 'dup@example.com', 'dup@example.com'], role: 'User', existing, seats: 0 }).message).toBe(
      `${INVITE_MESSAGES.invalid}bad`,
    );
    expect(checkInvite({ emails: ['dup@example.com', 'dup@example.com'], role: 'User', existing, seats: 0 }).message).toBe(
      INVITE_MESSAGES.duplicated,
    );
    expect(checkInvite({ emails: ['dup@example.com'], role: 'User', existing, seats: 0 }).message).toBe(
      `${INVITE_MESSAGES.alreadyMembers}dup@example.com`,
    );
  });

  it('carries the spec texts', () => {
    expect(INVITE_MESSAGES.roleRequired).toBe('Role must be selected');
    expect(INVITE_MESSAGES.emailEmpty).toBe('Email can not be empty');
    expect(INVITE_MESSAGES.invalid).toBe('Some email addresses are not valid: ');
    expect(INVITE_MESSAGES.duplicated).toBe('Some email addresses are duplicated');
    expect(INVITE_MESSAGES.alreadyMembers).toBe('The following email addresses are already invited or members of your organization: ');
    expect(INVITE_MESSAGES.failed).toBe('Failed to invite users. Please contact support.');
  });
});
