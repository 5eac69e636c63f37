import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AUTH_MESSAGES } from '@dealscout/shared/contracts';
import { Session } from './session.entity';
import { User } from '../users/user.entity';
import { SessionCache, type AuthRow } from '../../lib/session-cache';
import { sha256, safeEqual } from '../../lib/tokens';
import { HttpError } from '../../lib/errors';
import { routeAuth, type RouteAuth } from '../../plugins/types';
import { scopedTo, unscopedSql } from '../../db/sql';

export const SESSION_COOKIE = 'ds_session';
export const CSRF_COOKIE = 'ds_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TOUCH_EVERY_MS = 60_000;

function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

const AUTH_ROW_SQL = `select s.id, s.organization_id, s.user_id, s.kind, s.token_hash, s.csrf_token, s.label, s.user_agent, s.ip,
       s.created_at, s.last_seen_at, s.expires_at, s.revoked_at, u.email, u.first_name, u.last_name, u.role, u.status,
       u.deleted, u.invitation_accepted, u.settings, u.calendar, u.email_signature, u.created_at as u_created_at,
       u.updated_at as u_updated_at
  from session s join app_user u on u.organization_id = s.organization_id and u.id = s.user_id
 where s.token_hash = $1`;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const json = (v: unknown): Record<string, unknown> => (typeof v === 'string' ? JSON.parse(v) : (v as Record<string, unknown>));

/** The session of a token's hash and its user: one prepared statement (planned once per connection), no ORM. */
async function lookUp(em: EntityManager, tokenHash: string): Promise<AuthRow | null> {
  const [r] = await unscopedSql(em, 'sign-in').prepared<Record<string, unknown>>(AUTH_ROW_SQL, [tokenHash]);
  if (!r) return null;
  const organization = String(r.organization_id);
  return {
    session: {
      id: String(r.id),
      organization,
      user: String(r.user_id),
      kind: String(r.kind),
      tokenHash: String(r.token_hash),
      csrfToken: (r.csrf_token as string | null) ?? null,
      label: (r.label as string | null) ?? null,
      userAgent: (r.user_agent as string | null) ?? null,
      ip: (r.ip as string | null) ?? null,
      createdAt: date(r.created_at),
      lastSeenAt: date(r.last_seen_at),
      expiresAt: date(r.expires_at),
      revokedAt: r.revoked_at == null ? null : date(r.revoked_at),
    },
    user: {
      id: String(r.user_id),
      organization,
      email: String(r.email),
      firstName: String(r.first_name),
      lastName: String(r.last_name),
      role: String(r.role),
      status: String(r.status),
      deleted: r.deleted === true,
      invitationAccepted: r.invitation_accepted === true,
      settings: json(r.settings),
      calendar: json(r.calendar),
      emailSignature: (r.email_signature as string | null) ?? null,
      createdAt: date(r.u_created_at),
      updatedAt: date(r.u_updated_at),
    },
  };
}

/**
 * Resolves the caller from the session cookie (web) or a bearer token (add-in, extension), switches
 * the tenant filter on for the request's EntityManager and enforces the route's `auth` level and
 * CSRF. Default-deny: an /api route without `config.auth` needs a signed-in user. The session and
 * its user come from the process's session cache (session-cache.ts) or one statement; the request's
 * EntityManager gets them as managed entities (a route may change and flush the user).
 */
export function registerAuth(app: FastifyInstance, cache: SessionCache): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (req) => {
    const level: RouteAuth = routeAuth(req.url, req.routeOptions.config.auth);
    const bearer = bearerToken(req);
    const token = bearer ?? req.cookies[SESSION_COOKIE] ?? null;
    let expired = false;
    if (token) {
      const hash = sha256(token);
      let row = cache.get(hash);
      if (!row) {
        const mark = cache.mark();
        row = await lookUp(req.em, hash);
        if (row) cache.set(hash, row, mark);
      }
      const valid =
        row &&
        !row.session.revokedAt &&
        row.session.expiresAt > new Date() &&
        row.user.status === 'active' &&
        !row.user.deleted &&
        row.session.kind === (bearer ? 'bearer' : 'cookie');
      if (row && valid) {
        const user = req.em.merge(User, {
          ...row.user,
          settings: structuredClone(row.user.settings),
          calendar: structuredClone(row.user.calendar),
        });
        const session = req.em.merge(Session, { ...row.session });
        req.auth = { user, session, organizationId: row.session.organization, isAdmin: user.role === 'Admin' };
        req.em.setFilterParams('tenant', { organizationId: row.session.organization });
        if (Date.now() - row.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
          const now = new Date();
          await req.em.nativeUpdate(Session, { id: session.id }, { lastSeenAt: now }, scopedTo(row.session.organization));
          cache.touched(hash, now);
        }
      } else if (row) {
        expired = true;
      }
    }
    if (level === 'public') return;
    if (!req.auth) throw new HttpError(401, expired ? AUTH_MESSAGES.sessionExpired : AUTH_MESSAGES.unauthorized);
    if (level === 'admin' && !req.auth.isAdmin) throw new HttpError(403, AUTH_MESSAGES.forbidden);
    if (req.routeOptions.config.csrf !== false) assertCsrf(req);
  });
}

/** A cookie session's state-changing request must carry its CSRF token (bearer calls need none). */
export function assertCsrf(req: FastifyRequest): void {
  if (!req.auth || req.auth.session.kind !== 'cookie' || SAFE_METHODS.has(req.method)) return;
  const sent = req.headers[CSRF_HEADER];
  const expected = req.auth.session.csrfToken;
  if (typeof sent !== 'string' || !expected || !safeEqual(sent, expected)) throw new HttpError(403, AUTH_MESSAGES.csrf);
}
