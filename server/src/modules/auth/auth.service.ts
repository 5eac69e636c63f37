// Signing in and resetting a password: the use cases behind /v1/auth. Accounts are looked up across
// organizations by email (the only way in before a session exists: `crossTenant('sign-in')`).
import type { EntityManager } from '@mikro-orm/postgresql';
import { AUTH_MESSAGES, RESET_MESSAGES } from '@dealscout/shared/contracts';
import { normalizeEmail } from '@dealscout/shared/domain';
import { User, type IUser } from '../users/user.entity';
import { PasswordReset, Session } from './session.entity';
import { verifyPassword, hashPassword } from '../../lib/password';
import { newToken, sha256 } from '../../lib/tokens';
import { HttpError, badRequest, tooManyRequests } from '../../lib/errors';
import type { LoginThrottler } from './throttle';
import { revokeUserSessions } from './sessions';
import { crossTenant, scopedTo } from '../../db/sql';
import type { Mailer } from '../email/system/mailer';
import { forgetSession, forgetUser } from '../../lib/session-cache';
import type { Config } from '../../config';

export const DISABLED_MESSAGE = 'Your account is disabled. Please ask your organization Admin.';

/**
 * Checks credentials with the same answer and the same work (one argon2 verification) whether or
 * not the account exists; throttled per account and per address (reserve first, then verify).
 */
export async function authenticate(
  em: EntityManager,
  throttle: LoginThrottler,
  ip: string,
  rawEmail: string,
  password: string,
): Promise<IUser> {
  const email = normalizeEmail(rawEmail);
  // The attempt is counted as a failure before the password is checked (one atomic step with the
  // limit check), so parallel attempts cannot all pass the check; a success gives it back.
  // An address at its limit still lets a correct password through while the account's own
  // limit is not reached (throttle.ts); a wrong one gets the address's 429.
  const reservation = await throttle.reserve(em, email, ip);
  if (reservation.kind === 'refused') throw tooManyRequests(AUTH_MESSAGES.throttled, reservation.wait);
  const user = await em.findOne(User, { email, deleted: false }, crossTenant('sign-in'));
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!ok || !user) {
    if (reservation.kind === 'addressThrottled') throw tooManyRequests(AUTH_MESSAGES.throttled, reservation.wait);
    throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
  }
  await throttle.recordSuccess(em, email, ip, reservation);
  if (user.status !== 'active') throw new HttpError(403, DISABLED_MESSAGE);
  return user;
}

/** Ends one session (sign-out, a revoked bearer token). */
export async function revokeSession(em: EntityManager, sessionId: string): Promise<void> {
  await em.nativeUpdate(Session, { id: sessionId }, { revokedAt: new Date() });
  forgetSession(sessionId);
}

/**
 * Emails a single-use reset link to an active account with this address; nothing (and no sign of
 * it) for any other address. Run after the answer so that its time does not tell either.
 */
export async function sendPasswordReset(em: EntityManager, mailer: Mailer, config: Config, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  const user = await em.findOne(User, { email, deleted: false, status: 'active' }, crossTenant('sign-in'));
  if (!user) return;
  const token = newToken();
  em.create(PasswordReset, {
    organization: user.organization,
    user,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + config.RESET_TOKEN_TTL_MINUTES * 60_000),
  });
  await em.flush();
  const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await mailer.send(em, {
    organizationId: user.organization.id,
    to: user.email,
    subject: 'Reset your Dealscout password',
    kind: 'password-reset',
    secrets: [link],
    text:
      `Hello ${user.firstName || user.email},\n\nSomeone (hopefully you) asked to reset your Dealscout password. ` +
      `Open this link within ${config.RESET_TOKEN_TTL_MINUTES} minutes to choose a new one:\n\n${link}\n\nThe link ` +
      `works once. If you did not ask for this, ignore this email.`,
  });
}

/** Sets a new password with a reset token: the token is used once, and every session of the account ends. */
export async function resetPassword(em: EntityManager, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  const userId = await em.transactional(async (tem) => {
    const reset = await tem.findOne(PasswordReset, { tokenHash: sha256(token) }, { ...crossTenant('sign-in'), populate: ['user'] });
    if (!reset || reset.usedAt || reset.expiresAt <= new Date() || reset.user.deleted || reset.user.status !== 'active')
      throw badRequest(RESET_MESSAGES.invalid);
    // Conditional update: of two concurrent uses of one token only one changes a row.
    const used = await tem.nativeUpdate(
      PasswordReset,
      { id: reset.id, usedAt: null },
      { usedAt: new Date() },
      scopedTo(reset.organization.id),
    );
    if (used !== 1) throw badRequest(RESET_MESSAGES.invalid);
    await tem.nativeUpdate(User, { id: reset.user.id }, { passwordHash }, scopedTo(reset.organization.id));
    await revokeUserSessions(tem, reset.organization.id, reset.user.id);
    return reset.user.id;
  });
  // Again after the commit: a lookup between the revocation and the commit saw the old row.
  forgetUser(userId);
}
