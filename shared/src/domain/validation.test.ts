import { describe, it, expect } from 'vitest';
import {
  isValidEmail,
  normalizeEmail,
  isValidLoginPassword,
  passwordProblem,
  LOGIN_MESSAGES,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
} from './validation';

describe('email rules (spec 000 §5 Login, Invite)', () => {
  it.each(['a@b.co', 'first.last+tag@example.com', 'X@Sub.Domain.ORG', '  padded@example.com  '])('accepts %s', (v) => {
    expect(isValidEmail(v)).toBe(true);
  });

  it.each(['', 'plain', 'a@b', 'a@b.c', '@b.co', 'a@.co', 'a b@c.co', 'a@b@c.co', 'a@b .co'])('rejects %j', (v) => {
    expect(isValidEmail(v)).toBe(false);
  });

  it('normalizes by trimming and lowercasing', () => {
    expect(normalizeEmail('  Mixed.Case@Example.COM ')).toBe('mixed.case@example.com');
  });

  it('carries the spec texts', () => {
    expect(LOGIN_MESSAGES).toEqual({
      invalidEmail: 'Please type a valid email',
      invalidPassword: 'Please type a valid password',
      failed: 'Login failed',
      verify: 'Please verify your login credentials',
    });
  });
});

describe('login password rule: longer than 4 characters', () => {
  it('refuses 4 characters and accepts 5', () => {
    expect(isValidLoginPassword('')).toBe(false);
    expect(isValidLoginPassword('abcd')).toBe(false);
    expect(isValidLoginPassword('abcde')).toBe(true);
  });
});

describe('new password rule (spec 002 §5 Other patterns)', () => {
  it('needs at least 5 characters', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(5);
    expect(passwordProblem('Ab1')).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem('Ab1c')).toBe('Password must be at least 5 characters');
    expect(passwordProblem('Ab1cd')).toBeNull();
  });

  it('refuses spaces anywhere', () => {
    expect(passwordProblem('Abc 123')).toBe(PASSWORD_MESSAGES.spaces);
    expect(passwordProblem(' Abc123')).toBe(PASSWORD_MESSAGES.spaces);
    expect(passwordProblem('Abc123\t')).toBe(PASSWORD_MESSAGES.spaces);
  });

  it('needs an upper-case letter, a lower-case letter and a digit', () => {
    expect(passwordProblem('abc123')).toBe(PASSWORD_MESSAGES.upper);
    expect(passwordProblem('ABC123')).toBe(PASSWORD_MESSAGES.lower);
    expect(passwordProblem('Abcdef')).toBe(PASSWORD_MESSAGES.digit);
    expect(passwordProblem('Secret123')).toBeNull();
  });

  it('reports the first failed rule in order: length, spaces, upper, lower, digit', () => {
    expect(passwordProblem('a b')).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem('a bcdef')).toBe(PASSWORD_MESSAGES.spaces);
    expect(passwordProblem('abcdef')).toBe(PASSWORD_MESSAGES.upper);
  });
});
