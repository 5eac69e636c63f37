import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, TestClient, type TestContext } from '../../../test/helpers';
import { FIRST_ADMIN_LOCK } from './bootstrap';

const ALREADY_DONE = { success: false, message: 'Setup has already been completed. Please sign in.' };
const body = (over: Record<string, unknown> = {}) => ({
  organizationName: 'First Capital',
  firstName: 'Fay',
  lastName: 'First',
  email: 'Founder@Example.com',
  password: 'Founder123',
  ...over,
});

describe('first-run setup: GET and POST /api/v1/setup', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it.each([
    [{ organizationName: '' }, 'Organization name is required'],
    [{ organizationName: '   ' }, 'Organization name is required'],
    [{ organizationName: 'x'.repeat(201) }, 'Organization name is too long'],
    [{ firstName: '' }, 'First name is required'],
    [{ lastName: ' ' }, 'Last name is required'],
    [{ email: 'nope' }, 'Please type a valid email'],
    [{ password: 'Ab1' }, 'Password must be at least 5 characters'],
    [{ password: 'Has Space1' }, 'Password may not contain spaces'],
    [{ password: 'lowercase1' }, 'Password needs an upper-case letter'],
    [{ password: 'UPPERCASE1' }, 'Password needs a lower-case letter'],
    [{ password: 'NoDigitsHere' }, 'Password needs a digit'],
  ])('refuses %j: %s (and nothing is created)', async (over, message) => {
    const res = await new TestClient(ctx.app).post('/api/v1/setup', body(over));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({ needsSetup: true });
  });

  it('needs setup on an empty database (no session needed)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/setup' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ needsSetup: true });
  });

  it('creates the organization and its first admin and signs them in', async () => {
    const c = new TestClient(ctx.app);
    const res = await c.post('/api/v1/setup', body());
    expect(res.statusCode).toBe(201);
    const out = res.json();
    expect(out.success).toBe(true);
    expect(out.user).toMatchObject({
      email: 'founder@example.com',
      firstName: 'Fay',
      lastName: 'First',
      role: 'Admin',
      isAdmin: true,
      status: 'active',
    });
    expect(out.csrfToken).toBe(c.cookies.ds_csrf);
    expect(c.cookies.ds_session).toBeTruthy();

    const me = await c.get('/api/v1/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().user.id).toBe(out.user.id);
    const org = await c.get('/api/v1/organization');
    expect(org.json().organization).toMatchObject({ id: out.user.organizationId, name: 'First Capital' });
    expect(org.json().organization.seats).toMatchObject({ maxUser: ctx.config.DEFAULT_MAX_USERS, users: 1, pendingInvites: 0 });
    // The admin can use the admin routes with the CSRF token of the new session.
    expect((await c.put('/api/v1/user/settings', { navigationExpanded: false })).statusCode).toBe(200);
    expect((await c.get('/api/v1/organization/users')).statusCode).toBe(200);

    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({ needsSetup: false });
    // The password was stored hashed (argon2id) and signs in.
    const [row] = await ctx.em().getConnection().execute<{ password_hash: string }[]>('select password_hash from app_user');
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(
      (await new TestClient(ctx.app, '10.4.0.2').post('/api/v1/auth/login', { email: 'founder@example.com', password: 'Founder123' }))
        .statusCode,
    ).toBe(200);
  });

  it('a second setup is refused with 409 and creates nothing', async () => {
    const res = await new TestClient(ctx.app).post('/api/v1/setup', body({ email: 'intruder@example.com', organizationName: 'Intruder' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(ALREADY_DONE);
    expect(res.cookies).toEqual([]);
    const [{ orgs, users }] = await ctx
      .em()
      .getConnection()
      .execute<{ orgs: string; users: string }[]>(
        'select (select count(*) from organization) as orgs, (select count(*) from app_user) as users',
      );
    expect(Number(orgs)).toBe(1);
    expect(Number(users)).toBe(1);
  });
});

describe('first-run setup under concurrency', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('of concurrent setups exactly one wins, the others get 409', async () => {
    // Hold the setup lock so that all four are in flight before any of them looks for users.
    const blocker = new pg.Client({ connectionString: ctx.dbUrl });
    await blocker.connect();
    let results: Awaited<ReturnType<TestClient['post']>>[];
    try {
      await blocker.query('select pg_advisory_lock($1)', [FIRST_ADMIN_LOCK]);
      let settled = 0;
      const pending = [0, 1, 2, 3].map((i) =>
        new TestClient(ctx.app, `10.4.1.${i}`)
          .post('/api/v1/setup', body({ email: `racer${i}@example.com`, organizationName: `Racer ${i}` }))
          .finally(() => {
            settled += 1;
          }),
      );
      await new Promise((r) => setTimeout(r, 400));
      expect(settled).toBe(0); // every setup waits for the lock
      await blocker.query('select pg_advisory_unlock($1)', [FIRST_ADMIN_LOCK]);
      results = await Promise.all(pending);
    } finally {
      await blocker.end();
    }
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json()).toEqual(ALREADY_DONE);
    const [{ orgs, users }] = await ctx
      .em()
      .getConnection()
      .execute<{ orgs: string; users: string }[]>(
        'select (select count(*) from organization) as orgs, (select count(*) from app_user) as users',
      );
    expect(Number(orgs)).toBe(1);
    expect(Number(users)).toBe(1);
  });
});
