import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { Config } from '../config';
import type { IUser } from '../modules/users/user.entity';
import type { ISession } from '../modules/auth/session.entity';
import type { Mailer } from '../modules/email/system/mailer';
import type { BackgroundTasks } from '../lib/background';
import type { LlmService } from '../providers/llm';

export type RouteAuth = 'public' | 'user' | 'admin';

/**
 * Who may call a route (default-deny): its declared `config.auth`, else a signed-in user under /api/
 * (the API document at /api/docs excepted) and anyone elsewhere (/health, the web app's files).
 */
export function routeAuth(url: string, declared: RouteAuth | undefined): RouteAuth {
  return declared ?? (url.startsWith('/api/') && !url.startsWith('/api/docs') ? 'user' : 'public');
}

export interface AuthContext {
  user: IUser;
  session: ISession;
  organizationId: string;
  isAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    orm: MikroORM;
    boss: PgBoss | null;
    mailer: Mailer;
    background: BackgroundTasks;
    /** The LLM port (server/src/providers/llm): per-organization provider, credits and limits. */
    llm: LlmService;
  }
  interface FastifyRequest {
    em: EntityManager;
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route; every /api route is 'user' unless it says otherwise. */
    auth?: RouteAuth;
    /** Cookie sessions need the CSRF header on state-changing calls unless this is false. */
    csrf?: boolean;
  }
}

/** The signed-in caller of a route whose auth is 'user' or 'admin' (set by the auth plugin). */
export function authOf(req: { auth: AuthContext | null }): AuthContext {
  if (!req.auth) throw new Error('route reached without authentication');
  return req.auth;
}
