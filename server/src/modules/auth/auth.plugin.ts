import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '@dealscout/shared/contracts';
import { Session } from './session.entity';
import { sha256, safeEqual } from '../../lib/tokens';
import { HttpError } from '../../lib/errors';
import { routeAuth, type RouteAuth } from '../../plugins/types';
import { crossTenant, scopedTo } from '../../db/sql';

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

/**
 * Resolves the caller from the session cookie (web) or a bearer token (add-in, extension), switches
 * the tenant filter on for the request's EntityManager and enforces the route's `auth` level and
 * CSRF. Default-deny: an /api route without `config.auth` needs a signed-in user.
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (req) => {
    const level: RouteAuth = routeAuth(req.url, req.routeOptions.config.auth);
    const bearer = bearerToken(req);
    const token = bearer ?? req.cookies[SESSION_COOKIE] ?? null;
    let expired = false;
    if (token) {
      const session = await req.em.findOne(Session, { tokenHash: sha256(token) }, { populate: ['user'], ...crossTenant('sign-in') });
      const user = session?.user;
      const valid =
        session &&
        user &&
        !session.revokedAt &&
        session.expiresAt > new Date() &&
        user.status === 'active' &&
        !user.deleted &&
        session.kind === (bearer ? 'bearer' : 'cookie');
      if (valid) {
        req.auth = { user, session, organizationId: session.organization.id, isAdmin: user.role === 'Admin' };
        req.em.setFilterParams('tenant', { organizationId: session.organization.id });
        if (Date.now() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
          await req.em.nativeUpdate(Session, { id: session.id }, { lastSeenAt: new Date() }, scopedTo(session.organization.id));
        }
      } else if (session) {
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
