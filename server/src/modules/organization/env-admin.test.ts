import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import pino from 'pino';
import { createTestApp, createOrg, TestClient, type TestContext } from '../../../test/helpers';
import { loadConfig } from '../../config';
import { ensureAdminFromEnv } from './env-admin';

const logger = pino({ level: 'silent' });

describe('first admin from DEALSCOUT_ADMIN_* on start', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const config = (env: Record<string, string>) => loadConfig({ DATABASE_URL: ctx.dbUrl, DEFAULT_MAX_USERS: '7', ...env });
  const counts = async () => {
    const [r] = await ctx
      .em()
      .getConnection()
      .execute<{ orgs: string; users: string }[]>(
        'select (select count(*) from organization) as orgs, (select count(*) from app_user) as users',
      );
    return { orgs: Number(r.orgs), users: Number(r.users) };
  };

  it('creates the organization and its admin on an empty database; the admin signs in', async () => {
    await ensureAdminFromEnv(
      ctx.orm,
      config({ DEALSCOUT_ADMIN_EMAIL: 'Boot@Example.com', DEALSCOUT_ADMIN_PASSWORD: 'Boot12345', DEALSCOUT_ORG_NAME: 'Boot Org' }),
      logger,
    );
    expect(await counts()).toEqual({ orgs: 1, users: 1 });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({ needsSetup: false });
    const c = new TestClient(ctx.app);
    const res = await c.post('/api/v1/auth/login', { email: 'boot@example.com', password: 'Boot12345' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: 'boot@example.com', role: 'Admin' });
    expect((await c.get('/api/v1/organization')).json().organization).toMatchObject({ name: 'Boot Org', membership: { maxUser: 7 } });
    // A second start changes nothing.
    await ensureAdminFromEnv(
      ctx.orm,
      config({ DEALSCOUT_ADMIN_EMAIL: 'other@example.com', DEALSCOUT_ADMIN_PASSWORD: 'Other1234' }),
      logger,
    );
    expect(await counts()).toEqual({ orgs: 1, users: 1 });
  });

  it('does nothing when users exist', async () => {
    await createOrg(ctx);
    await ensureAdminFromEnv(ctx.orm, config({ DEALSCOUT_ADMIN_EMAIL: 'late@example.com', DEALSCOUT_ADMIN_PASSWORD: 'Late12345' }), logger);
    expect(await counts()).toEqual({ orgs: 1, users: 1 });
  });

  it('does nothing without the variables', async () => {
    await ensureAdminFromEnv(ctx.orm, config({}), logger);
    expect(await counts()).toEqual({ orgs: 0, users: 0 });
  });

  it.each([
    [{ DEALSCOUT_ADMIN_EMAIL: 'only@example.com' }, 'must be set together'],
    [{ DEALSCOUT_ADMIN_PASSWORD: 'Only12345' }, 'must be set together'],
    [{ DEALSCOUT_ADMIN_EMAIL: 'not-an-email', DEALSCOUT_ADMIN_PASSWORD: 'Valid1234' }, 'must be set together'],
    [
      { DEALSCOUT_ADMIN_EMAIL: 'weak@example.com', DEALSCOUT_ADMIN_PASSWORD: 'weakpass' },
      'DEALSCOUT_ADMIN_PASSWORD: Password needs an upper-case letter',
    ],
  ])('refuses %j and creates nothing', async (env, message) => {
    await expect(ensureAdminFromEnv(ctx.orm, config(env), logger)).rejects.toThrow(message);
    expect(await counts()).toEqual({ orgs: 0, users: 0 });
  });
});
