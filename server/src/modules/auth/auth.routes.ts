import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  LoginBody,
  LoginResponse,
  TokenBody,
  TokenResponse,
  ForgotPasswordBody,
  ResetPasswordBody,
  SuccessResponse,
  ErrorResponse,
  AUTH_MESSAGES,
  FORGOT_PASSWORD_CONFIRMATION,
  RESET_MESSAGES,
} from '@dealscout/shared/contracts';
import { normalizeEmail } from '@dealscout/shared/domain';
import { User, type IUser } from '../users/user.entity';
import { PasswordReset, Session } from './session.entity';
import { verifyPassword, hashPassword } from '../../lib/password';
import { newToken, sha256 } from '../../lib/tokens';
import { HttpError, badRequest, tooManyRequests } from '../../lib/errors';
import { LoginThrottler } from './throttle';
import { createSession, setSessionCookies, clearSessionCookies, revokeUserSessions } from './sessions';
import { toUserDto } from '../users/user.presenter';
import { authOf } from '../../plugins/types';
import { assertCsrf } from './auth.plugin';
import { crossTenant, scopedTo } from '../../db/sql';

const DISABLED_MESSAGE = 'Your account is disabled. Please ask your organization Admin.';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new LoginThrottler(app.config);

  /**
   * Checks credentials with the same answer and the same work (one argon2 verification) whether or
   * not the account exists; throttled per account and per address (reserve first, then verify).
   */
  async function authenticate(req: FastifyRequest, em: EntityManager, rawEmail: string, password: string): Promise<IUser> {
    const email = normalizeEmail(rawEmail);
    // The attempt is counted as a failure before the password is checked (one atomic step with the
    // limit check), so parallel attempts cannot all pass the check; a success gives it back.
    // An address at its limit still lets a correct password through while the account's own
    // limit is not reached (throttle.ts); a wrong one gets the address's 429.
    const reservation = await throttle.reserve(em, email, req.ip);
    if (reservation.kind === 'refused') throw tooManyRequests(AUTH_MESSAGES.throttled, reservation.wait);
    const user = await em.findOne(User, { email, deleted: false }, crossTenant('sign-in'));
    const ok = await verifyPassword(user?.passwordHash, password);
    if (!ok || !user) {
      if (reservation.kind === 'addressThrottled') throw tooManyRequests(AUTH_MESSAGES.throttled, reservation.wait);
      throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
    }
    await throttle.recordSuccess(em, email, req.ip, reservation);
    if (user.status !== 'active') throw new HttpError(403, DISABLED_MESSAGE);
    return user;
  }

  r.post(
    '/v1/auth/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in (web): sets the httpOnly session cookie and the CSRF cookie',
        body: LoginBody,
        response: { 200: LoginResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      const user = await authenticate(req, req.em, req.body.email, req.body.password);
      const session = await createSession(req.em, user, 'cookie', req, app.config);
      setSessionCookies(reply, app.config, session);
      return { success: true as const, user: toUserDto(user), csrfToken: session.csrfToken! };
    },
  );

  r.post(
    '/v1/auth/token',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Exchange credentials for a bearer token (Outlook add-in, Chrome extension)',
        body: TokenBody,
        response: { 200: TokenResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (req) => {
      const user = await authenticate(req, req.em, req.body.email, req.body.password);
      const session = await createSession(req.em, user, 'bearer', req, app.config, req.body.label);
      return {
        success: true as const,
        token: session.token,
        tokenId: session.id,
        expiresAt: session.expiresAt.toISOString(),
        user: toUserDto(user),
      };
    },
  );

  r.delete(
    '/v1/auth/token',
    {
      schema: { tags: ['auth'], summary: 'Revoke the bearer token used for this call', response: { 200: SuccessResponse } },
    },
    async (req) => {
      const { session } = authOf(req);
      await req.em.nativeUpdate(Session, { id: session.id }, { revokedAt: new Date() });
      return { success: true as const, message: 'Token revoked' };
    },
  );

  r.post(
    '/account/logout',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'End the current session on the server and clear the cookies',
        response: { 200: SuccessResponse },
      },
    },
    async (req, reply) => {
      // Public (an expired session may still clear its cookies), but a live cookie session must send
      // the CSRF proof like every other state change: a cross-site page cannot sign the user out.
      if (req.auth) assertCsrf(req);
      if (req.auth) await req.em.nativeUpdate(Session, { id: req.auth.session.id }, { revokedAt: new Date() });
      clearSessionCookies(reply, app.config);
      return { success: true as const, message: AUTH_MESSAGES.loggedOut };
    },
  );

  r.post(
    '/v1/auth/forgotpassword',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Request a password-reset email; always the same answer',
        body: ForgotPasswordBody,
        response: { 200: SuccessResponse },
      },
    },
    async (req) => {
      const email = normalizeEmail(req.body.email);
      // The work (token, mail) runs after the answer so that its time does not tell whether the account exists.
      app.background.run('password-reset', async () => {
        const em = app.orm.em.fork();
        const user = await em.findOne(User, { email, deleted: false, status: 'active' }, crossTenant('sign-in'));
        if (!user) return;
        const token = newToken();
        em.create(PasswordReset, {
          organization: user.organization,
          user,
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + app.config.RESET_TOKEN_TTL_MINUTES * 60_000),
        });
        await em.flush();
        const link = `${app.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await app.mailer.send(em, {
          organizationId: user.organization.id,
          to: user.email,
          subject: 'Reset your Dealscout password',
          kind: 'password-reset',
          secrets: [link],
          text: `Hello ${user.firstName || user.email},\n\nSomeone (hopefully you) asked to reset your Dealscout password. Open this link within ${app.config.RESET_TOKEN_TTL_MINUTES} minutes to choose a new one:\n\n${link}\n\nThe link works once. If you did not ask for this, ignore this email.`,
        });
      });
      return { success: true as const, message: FORGOT_PASSWORD_CONFIRMATION };
    },
  );

  r.post(
    '/v1/auth/resetpassword',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a single-use reset token',
        body: ResetPasswordBody,
        response: { 200: SuccessResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const passwordHash = await hashPassword(req.body.password);
      await req.em.transactional(async (em) => {
        const reset = await em.findOne(
          PasswordReset,
          { tokenHash: sha256(req.body.token) },
          { ...crossTenant('sign-in'), populate: ['user'] },
        );
        if (!reset || reset.usedAt || reset.expiresAt <= new Date() || reset.user.deleted || reset.user.status !== 'active')
          throw badRequest(RESET_MESSAGES.invalid);
        // Conditional update: of two concurrent uses of one token only one changes a row.
        const used = await em.nativeUpdate(
          PasswordReset,
          { id: reset.id, usedAt: null },
          { usedAt: new Date() },
          scopedTo(reset.organization.id),
        );
        if (used !== 1) throw badRequest(RESET_MESSAGES.invalid);
        await em.nativeUpdate(User, { id: reset.user.id }, { passwordHash }, scopedTo(reset.organization.id));
        await revokeUserSessions(em, reset.organization.id, reset.user.id);
      });
      return { success: true as const, message: RESET_MESSAGES.done };
    },
  );
}
