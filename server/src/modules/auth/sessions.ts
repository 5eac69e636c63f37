import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { Session } from './session.entity';
import type { IUser } from '../users/user.entity';
import { newToken, sha256 } from '../../lib/tokens';
import { SESSION_COOKIE, CSRF_COOKIE } from './auth.plugin';
import { scopedTo } from '../../db/sql';
import { forgetUser } from '../../lib/session-cache';

export interface NewSession {
  token: string;
  csrfToken: string | null;
  id: string;
  expiresAt: Date;
}

export async function createSession(
  em: EntityManager,
  user: IUser,
  kind: 'cookie' | 'bearer',
  req: FastifyRequest,
  config: Config,
  label?: string,
): Promise<NewSession> {
  const token = newToken();
  const csrfToken = kind === 'cookie' ? newToken() : null;
  const ttlMs = kind === 'cookie' ? config.SESSION_TTL_HOURS * 3_600_000 : config.TOKEN_TTL_DAYS * 86_400_000;
  const expiresAt = new Date(Date.now() + ttlMs);
  const session = em.create(Session, {
    organization: user.organization,
    user,
    kind,
    tokenHash: sha256(token),
    csrfToken,
    label: label ?? null,
    userAgent: (req.headers['user-agent'] ?? '').slice(0, 500) || null,
    ip: req.ip ?? null,
    expiresAt,
  });
  await em.flush();
  return { token, csrfToken, id: session.id, expiresAt };
}

export function setSessionCookies(reply: FastifyReply, config: Config, s: NewSession): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: config.cookieSecure, expires: s.expiresAt };
  reply.setCookie(SESSION_COOKIE, s.token, { ...common, httpOnly: true });
  // Readable by the page so it can echo it in the x-csrf-token header (double submit, bound to the session row).
  reply.setCookie(CSRF_COOKIE, s.csrfToken ?? '', { ...common, httpOnly: false });
}

export function clearSessionCookies(reply: FastifyReply, config: Config): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: config.cookieSecure };
  reply.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true });
  reply.clearCookie(CSRF_COOKIE, { ...common, httpOnly: false });
}

/** Ends every session of a user (disable, delete, password reset). */
export async function revokeUserSessions(em: EntityManager, organizationId: string, userId: string): Promise<number> {
  const n = await em.nativeUpdate(
    Session,
    { organization: organizationId, user: userId, revokedAt: null },
    { revokedAt: new Date() },
    scopedTo(organizationId),
  );
  forgetUser(userId);
  return n;
}
