// Sign-in, password and email rules of spec 000 §5 and spec 002 §5 'Other patterns'.

/** Pragmatic email pattern: local@domain.tld, no spaces, one @. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export const LOGIN_MESSAGES = {
  invalidEmail: 'Please type a valid email',
  invalidPassword: 'Please type a valid password',
  failed: 'Login failed',
  verify: 'Please verify your login credentials',
} as const;

export const PASSWORD_MIN_LENGTH = 5;

export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  spaces: 'Password may not contain spaces',
  upper: 'Password needs an upper-case letter',
  lower: 'Password needs a lower-case letter',
  digit: 'Password needs a digit',
} as const;

export function isValidEmail(value: string): boolean {
  return EMAIL_RE.test(value.trim());
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Login accepts any password longer than 4 characters (spec 000 §5 'Login'). */
export function isValidLoginPassword(value: string): boolean {
  return value.length > 4;
}

/**
 * A new password needs an upper-case letter, a lower-case letter and a digit, no spaces,
 * at least 5 characters (spec 002 §5). Returns the first failed rule's message, or null.
 */
export function passwordProblem(value: string): string | null {
  if (value.length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (/\s/.test(value)) return PASSWORD_MESSAGES.spaces;
  if (!/[A-Z]/.test(value)) return PASSWORD_MESSAGES.upper;
  if (!/[a-z]/.test(value)) return PASSWORD_MESSAGES.lower;
  if (!/[0-9]/.test(value)) return PASSWORD_MESSAGES.digit;
  return null;
}
