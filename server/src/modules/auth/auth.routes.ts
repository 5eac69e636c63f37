import type { FastifyInstance } from 'fastify';
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
import { LoginThrottler } from './throttle';
import { createSession, setSessionCookies, clearSessionCookies } from './sessions';
import { toUserDto } from '../users/user.presenter';
import { authOf } from '../../plugins/types';
import { assertCsrf } from './auth.plugin';
import { authenticate, resetPassword, revokeSession, sendPasswordReset } from './auth.service';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new LoginThrottler(app.config);

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
      const user = await authenticate(req.em, throttle, req.ip, req.body.email, req.body.password);
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
      const user = await authenticate(req.em, throttle, req.ip, req.body.email, req.body.password);
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
      await revokeSession(req.em, session.id);
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
      if (req.auth) await revokeSession(req.em, req.auth.session.id);
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
      // The work (token, mail) runs after the answer so that its time does not tell whether the account exists.
      const email = req.body.email;
      app.background.run('password-reset', () => sendPasswordReset(app.orm.em.fork(), app.mailer, app.config, email));
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
      await resetPassword(req.em, req.body.token, req.body.password);
      return { success: true as const, message: RESET_MESSAGES.done };
    },
  );
}
