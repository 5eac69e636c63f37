import { z } from 'zod';
import { LOGIN_MESSAGES, isValidEmail, isValidLoginPassword, passwordProblem } from '../domain/validation';
import { UserDto } from './user';

const email = z.string({ message: LOGIN_MESSAGES.invalidEmail }).trim().refine(isValidEmail, LOGIN_MESSAGES.invalidEmail);
const loginPassword = z.string({ message: LOGIN_MESSAGES.invalidPassword }).refine(isValidLoginPassword, LOGIN_MESSAGES.invalidPassword);
/** A new password: spec 002 §5 'Other patterns'. */
export const NewPassword = z.string({ message: 'Password is required' }).superRefine((v, ctx) => {
  const problem = passwordProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

// POST /api/v1/auth/login
export const LoginBody = z.object({ email, password: loginPassword });
export type LoginBody = z.infer<typeof LoginBody>;
export const LoginResponse = z.object({ success: z.literal(true), user: UserDto, csrfToken: z.string() });
export type LoginResponse = z.infer<typeof LoginResponse>;

// POST /api/v1/auth/token — bearer tokens for the add-in and the extension.
export const TokenBody = LoginBody.extend({ label: z.string().trim().max(200).optional() });
export type TokenBody = z.infer<typeof TokenBody>;
export const TokenResponse = z.object({
  success: z.literal(true),
  token: z.string(),
  tokenId: z.string(),
  expiresAt: z.string(),
  user: UserDto,
});
export type TokenResponse = z.infer<typeof TokenResponse>;

// POST /api/v1/auth/forgotpassword
export const ForgotPasswordBody = z.object({
  email: z.string({ message: 'Email is required' }).trim().min(1, 'Email is required').refine(isValidEmail, LOGIN_MESSAGES.invalidEmail),
});
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;
export const FORGOT_PASSWORD_CONFIRMATION = 'If an account exists for that email, we have sent a link to reset the password.';

// POST /api/v1/auth/resetpassword
export const ResetPasswordBody = z.object({ token: z.string().min(16, 'Invalid or expired reset link'), password: NewPassword });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;
export const RESET_MESSAGES = {
  invalid: 'This reset link is invalid or has expired. Please request a new one.',
  done: 'Your password has been changed. Please sign in.',
} as const;

// GET /api/v1/setup and POST /api/v1/setup — first run, when the database has no user.
export const SetupStatusResponse = z.object({ needsSetup: z.boolean() });
export type SetupStatusResponse = z.infer<typeof SetupStatusResponse>;
export const SetupBody = z.object({
  organizationName: z.string().trim().min(1, 'Organization name is required').max(200, 'Organization name is too long'),
  firstName: z.string().trim().min(1, 'First name is required').max(100),
  lastName: z.string().trim().min(1, 'Last name is required').max(100),
  email,
  password: NewPassword,
});
export type SetupBody = z.infer<typeof SetupBody>;
export const SETUP_MESSAGES = { alreadyDone: 'Setup has already been completed. Please sign in.' } as const;

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  throttled: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  unauthorized: 'Unauthorized: please sign in',
  sessionExpired: 'Session expired: please sign in again',
  forbidden: 'Forbidden: you do not have permission to do this',
  csrf: 'Invalid or missing CSRF token',
  loggedOut: 'Logged out',
  notFound: 'Not found',
} as const;
