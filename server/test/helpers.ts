// Test support: a fresh database per test file (cloned from the migrated template), the real app
// built on it, and an HTTP client over `app.inject` that keeps cookies and the CSRF token.
import { inject } from 'vitest';
import './provided';
import pg from 'pg';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { PgBoss } from 'pg-boss';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig, type Config } from '../src/config';
import { ormConfig } from '../src/orm-config';
import { buildApp } from '../src/app';
import { startBoss } from '../src/jobs/boss';
import { boundedTeardown } from './teardown';
import { createOrganizationWithAdmin } from '../src/modules/organization/bootstrap';
import { User, type IUser } from '../src/modules/users/user.entity';
import { hashPassword } from '../src/lib/password';
import { SystemMail } from '../src/modules/email/system/system-mail.entity';

export function dbUrl(db: string): string {
  const u = new URL(inject('pgAdminUrl'));
  u.pathname = `/${db}`;
  return u.toString();
}

/** A new database cloned from the migrated template. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  // Named after this run's template, so a run's teardown drops only its own databases.
  const name = `${inject('pgTemplate')}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  await admin.query(`create database "${name}" template "${inject('pgTemplate')}"`);
  await admin.end();
  return {
    url: dbUrl(name),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: inject('pgAdminUrl') });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

export interface TestContext {
  app: FastifyInstance;
  orm: MikroORM;
  boss: PgBoss | null;
  config: Config;
  dbUrl: string;
  em(): EntityManager;
  close(): Promise<void>;
}

export const TEST_PASSWORD = 'Secret123';

/** One argon2id hash of TEST_PASSWORD per test file: every fixture user shares it (hashing costs ~50 ms). */
let testPasswordHash: Promise<string> | null = null;
export function testPasswordHashOnce(): Promise<string> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  return testPasswordHash;
}

export async function createTestApp(
  opts: {
    env?: Record<string, string>;
    boss?: boolean;
    /** Extra routes registered on the app before it is ready (e.g. a route that throws). */
    routes?: (app: FastifyInstance) => void | Promise<void>;
    /** Receives the app's log lines (JSON), at level TEST_LOG_LEVEL or 'info'. */
    logStream?: { write(line: string): void };
  } = {},
): Promise<TestContext> {
  const db = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST: '/nonexistent',
    DATABASE_URL: db.url,
    ...opts.env,
  });
  const logger = opts.logStream
    ? pino({ level: process.env.TEST_LOG_LEVEL ?? 'info' }, opts.logStream)
    : pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const orm = await MikroORM.init(ormConfig(db.url, { logger: () => {}, pool: { min: 0, max: 5 } }));
  const boss = opts.boss ? await startBoss(db.url, logger, { supervise: false }) : null;
  const app = await buildApp({ config, orm, boss, logger });
  if (opts.routes) await opts.routes(app);
  await app.ready();
  return {
    app,
    orm,
    boss,
    config,
    dbUrl: db.url,
    em: () => orm.em.fork(),
    async close() {
      await boundedTeardown(app.close(), 'the app close');
      if (boss) await boundedTeardown(boss.stop({ graceful: false }), "the app's pg-boss stop");
      await boundedTeardown(orm.close(), "the app's ORM close");
      await db.drop();
    },
  };
}

let seq = 0;
export function uniqueEmail(prefix = 'user'): string {
  seq += 1;
  return `${prefix}${seq}-${randomUUID().slice(0, 8)}@example.com`;
}

/** An organization with an admin (password TEST_PASSWORD). */
export async function createOrg(ctx: TestContext, opts: { name?: string; maxUser?: number; adminEmail?: string } = {}) {
  const em = ctx.em();
  const { organization, user } = await createOrganizationWithAdmin(em, {
    organizationName: opts.name ?? 'Acme Capital',
    email: opts.adminEmail ?? uniqueEmail('admin'),
    firstName: 'Ada',
    lastName: 'Admin',
    maxUser: opts.maxUser ?? 10,
    passwordHash: await testPasswordHashOnce(),
  });
  return { organization, admin: user };
}

export async function createUser(
  ctx: TestContext,
  organizationId: string,
  opts: Partial<Pick<IUser, 'role' | 'status' | 'deleted' | 'firstName' | 'lastName'>> & { email?: string } = {},
) {
  const em = ctx.em();
  const user = em.create(User, {
    organization: organizationId,
    email: opts.email ?? uniqueEmail('member'),
    firstName: opts.firstName ?? 'Mel',
    lastName: opts.lastName ?? 'Member',
    role: opts.role ?? 'User',
    status: opts.status ?? 'active',
    deleted: opts.deleted ?? false,
    invitationAccepted: true,
    passwordHash: await testPasswordHashOnce(),
  });
  await em.flush();
  return user;
}

/** System mail sent to an address (the outbox table), newest first. */
export async function mailsTo(ctx: TestContext, to: string) {
  await ctx.app.background.drain();
  return ctx.em().find(SystemMail, { to }, { filters: false, orderBy: { createdAt: 'desc' } });
}

export function tokenFromMail(text: string, pathPrefix: string): string {
  const m = new RegExp(`${pathPrefix.replace(/[/?]/g, (c) => `\\${c}`)}([A-Za-z0-9_\\-%]+)`).exec(text);
  if (!m) throw new Error(`no ${pathPrefix} link in mail: ${text}`);
  return decodeURIComponent(m[1]);
}

/** An HTTP client over inject that keeps the session cookie and sends the CSRF header. */
export class TestClient {
  cookies: Record<string, string> = {};
  bearer: string | null = null;
  /** Echo the CSRF cookie in x-csrf-token on state-changing calls (switch off to test the refusal). */
  sendCsrf = true;
  constructor(
    private readonly app: FastifyInstance,
    public ip = '10.0.0.1',
  ) {}

  async request(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const h: Record<string, string> = { ...headers };
    if (this.bearer) h.authorization = `Bearer ${this.bearer}`;
    if (Object.keys(this.cookies).length)
      h.cookie = Object.entries(this.cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; ');
    if (method !== 'GET' && this.sendCsrf && this.cookies.ds_csrf && !('x-csrf-token' in h)) h['x-csrf-token'] = this.cookies.ds_csrf;
    const res = await this.app.inject({ method, url, payload: body as InjectOptions['payload'], headers: h, remoteAddress: this.ip });
    for (const c of res.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < Date.now())) delete this.cookies[c.name];
      else this.cookies[c.name] = c.value;
    }
    return res;
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', url, body ?? {}, headers);
  put = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('PUT', url, body ?? {}, headers);
  del = (url: string, headers?: Record<string, string>) => this.request('DELETE', url, undefined, headers);

  async login(email: string, password = TEST_PASSWORD): Promise<LightMyRequestResponse> {
    const res = await this.post('/api/v1/auth/login', { email, password });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res;
  }
}

export async function signedIn(ctx: TestContext, email: string, ip?: string): Promise<TestClient> {
  const c = new TestClient(ctx.app, ip);
  await c.login(email);
  return c;
}
