import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  createTestApp,
  createOrg,
  createUser,
  signedIn,
  uniqueEmail,
  TestClient,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/helpers';
import { Session } from './session.entity';

const UNAUTHORIZED = { success: false, message: 'Unauthorized: please sign in' };
const EXPIRED = { success: false, message: 'Session expired: please sign in again' };
const CSRF = { success: false, message: 'Invalid or missing CSRF token' };

describe('sign-in, sessions, bearer tokens and CSRF', () => {
  let ctx: TestContext;
  let orgId: string;
  let adminEmail: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const { organization, admin } = await createOrg(ctx);
    orgId = organization.id;
    adminEmail = admin.email;
  });
  afterAll(async () => {
    await ctx.close();
  });

  describe('POST /api/v1/auth/login', () => {
    it('signs in: the user, an httpOnly SameSite session cookie and a CSRF cookie matching the answer', async () => {
      const c = new TestClient(ctx.app, '10.1.0.1');
      const res = await c.post('/api/v1/auth/login', { email: adminEmail, password: TEST_PASSWORD });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.user).toMatchObject({ email: adminEmail, organizationId: orgId, role: 'Admin', isAdmin: true, status: 'active' });
      expect(body.user).not.toHaveProperty('passwordHash');
      const session = res.cookies.find((k) => k.name === 'ds_session')!;
      const csrf = res.cookies.find((k) => k.name === 'ds_csrf')!;
      expect(session.httpOnly).toBe(true);
      expect(session.sameSite).toBe('Lax');
      expect(session.path).toBe('/');
      expect(session.value.length).toBeGreaterThanOrEqual(40);
      expect(csrf.httpOnly).toBeFalsy();
      expect(csrf.value).toBe(body.csrfToken);
      expect(csrf.value).not.toBe(session.value);
      const me = await c.get('/api/v1/user');
      expect(me.statusCode).toBe(200);
      expect(me.json().user.email).toBe(adminEmail);
    });

    it('keeps only the hash of the session token', async () => {
      const c = await signedIn(ctx, adminEmail, '10.1.0.2');
      const rows = await ctx.em().getConnection().execute(`select * from session where organization_id = ?`, [orgId]);
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows)).not.toContain(c.cookies.ds_session);
    });

    it('accepts the email in any case and with surrounding spaces', async () => {
      const c = new TestClient(ctx.app, '10.1.0.3');
      const res = await c.post('/api/v1/auth/login', { email: `  ${adminEmail.toUpperCase()} `, password: TEST_PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.email).toBe(adminEmail);
    });

    it.each([
      [{ email: 'not-an-email', password: TEST_PASSWORD }, 'Please type a valid email'],
      [{ email: '', password: TEST_PASSWORD }, 'Please type a valid email'],
      [{ password: TEST_PASSWORD }, 'Please type a valid email'],
      [{ email: 'a@example.com', password: 'abcd' }, 'Please type a valid password'],
      [{ email: 'a@example.com' }, 'Please type a valid password'],
    ])('refuses %j with the spec message', async (body, message) => {
      const res = await new TestClient(ctx.app, '10.1.0.4').post('/api/v1/auth/login', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message });
    });

    it('answers a wrong password and an unknown account identically', async () => {
      const wrong = await new TestClient(ctx.app, '10.1.0.5').post('/api/v1/auth/login', { email: adminEmail, password: 'Wrong1234' });
      const unknown = await new TestClient(ctx.app, '10.1.0.6').post('/api/v1/auth/login', {
        email: uniqueEmail('ghost'),
        password: 'Wrong1234',
      });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.body).toBe(unknown.body);
      expect(wrong.json()).toEqual({ success: false, message: 'Invalid email or password' });
      expect(wrong.cookies).toEqual([]);
      expect(unknown.cookies).toEqual([]);
    });

    it('refuses a disabled user with a clear message, and a deleted user like an unknown account', async () => {
      const disabled = await createUser(ctx, orgId, { status: 'disabled' });
      const res = await new TestClient(ctx.app, '10.1.0.7').post('/api/v1/auth/login', { email: disabled.email, password: TEST_PASSWORD });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'Your account is disabled. Please ask your organization Admin.' });
      expect(res.cookies).toEqual([]);
      const deleted = await createUser(ctx, orgId, { deleted: true });
      const res2 = await new TestClient(ctx.app, '10.1.0.7').post('/api/v1/auth/login', { email: deleted.email, password: TEST_PASSWORD });
      expect(res2.statusCode).toBe(401);
      expect(res2.json()).toEqual({ success: false, message: 'Invalid email or password' });
    });
  });

  describe('GET /api/v1/user without a valid session', () => {
    it('401 without a session', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/user' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    });

    it('401 with a made-up cookie or bearer token', async () => {
      const a = await ctx.app.inject({ method: 'GET', url: '/api/v1/user', headers: { cookie: 'ds_session=made-up-token' } });
      expect(a.statusCode).toBe(401);
      const b = await ctx.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: 'Bearer made-up-token' } });
      expect(b.statusCode).toBe(401);
      expect(b.json()).toEqual(UNAUTHORIZED);
    });

    it('401 once the session has expired', async () => {
      const c = await signedIn(ctx, adminEmail, '10.1.0.8');
      const em = ctx.em();
      const expiredId = (await em.getConnection().execute<{ id: string }[]>(`select id from session order by created_at desc limit 1`))[0]
        .id;
      await em.nativeUpdate(Session, { id: expiredId }, { expiresAt: new Date(Date.now() - 1000) }, { filters: false });
      const res = await c.get('/api/v1/user');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(EXPIRED);
    });
  });

  describe('the session cache (SESSION_CACHE_MS, 5 s)', () => {
    it('a session revoked on another process is refused here within a second, though this process had it cached', async () => {
      const c = await signedIn(ctx, adminEmail, '10.1.0.30');
      expect((await c.get('/api/v1/user')).statusCode).toBe(200);
      expect((await c.get('/api/v1/user')).statusCode).toBe(200);
      // Another process's sign-out: the row changes in the database, not through this app.
      const em = ctx.em();
      const [{ id }] = await em.getConnection().execute<{ id: string }[]>(`select id from session order by created_at desc limit 1`);
      await em.nativeUpdate(Session, { id }, { revokedAt: new Date() }, { filters: false });
      const t0 = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - t0 < 1000) {
        status = (await c.get('/api/v1/user')).statusCode;
        if (status === 200) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(401);
    });

    it('a role changed on another process is seen here within a second, though this process had the user cached', async () => {
      const c = await signedIn(ctx, adminEmail, '10.1.0.31');
      const me = await c.get('/api/v1/user');
      expect(me.statusCode).toBe(200);
      const userId = (me.json() as { user?: { id: string }; id?: string }).user?.id ?? (me.json() as { id: string }).id;
      const roleOf = async () => {
        const body = (await c.get('/api/v1/user')).json() as { user?: { role: string }; role?: string };
        return body.user?.role ?? body.role;
      };
      const before = await roleOf();
      expect(before).toBe('Admin');
      const em = ctx.em();
      try {
        // Another process's change: the row changes in the database, not through this app.
        await em.getConnection().execute(`update app_user set role = 'User' where id = ?`, [userId]);
        const t0 = Date.now();
        let role = before;
        while (role === before && Date.now() - t0 < 1000) {
          role = await roleOf();
          if (role === before) await new Promise((r) => setTimeout(r, 20));
        }
        expect(role).toBe('User');
      } finally {
        await em.getConnection().execute(`update app_user set role = 'Admin' where id = ?`, [userId]);
      }
    });
  });

  describe('POST /api/account/logout', () => {
    it('ends the session on the server and clears the cookies', async () => {
      const c = await signedIn(ctx, adminEmail, '10.1.0.9');
      const cookie = c.cookies.ds_session;
      const res = await c.post('/api/account/logout');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Logged out' });
      const cleared = res.cookies.filter((k) => k.name === 'ds_session' || k.name === 'ds_csrf');
      expect(cleared).toHaveLength(2);
      for (const k of cleared) expect(k.value).toBe('');
      expect(c.cookies.ds_session).toBeUndefined();
      // The old cookie no longer works, even when replayed.
      const replay = await ctx.app.inject({ method: 'GET', url: '/api/v1/user', headers: { cookie: `ds_session=${cookie}` } });
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toEqual(EXPIRED);
      const row = await ctx
        .em()
        .findOneOrFail(Session, { organization: orgId, revokedAt: { $ne: null } }, { filters: false, orderBy: { revokedAt: 'desc' } });
      expect(row.revokedAt).toBeInstanceOf(Date);
    });

    it('answers the same without a session (nothing to end)', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/account/logout' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Logged out' });
    });

    it('ends only the session it was called with', async () => {
      const a = await signedIn(ctx, adminEmail, '10.1.0.10');
      const b = await signedIn(ctx, adminEmail, '10.1.0.11');
      await a.post('/api/account/logout');
      expect((await a.get('/api/v1/user')).statusCode).toBe(401);
      expect((await b.get('/api/v1/user')).statusCode).toBe(200);
    });
  });

  describe('CSRF on cookie sessions', () => {
    let c: TestClient;
    beforeAll(async () => {
      c = await signedIn(ctx, adminEmail, '10.1.0.12');
    });

    it('refuses a state-changing call without the x-csrf-token header', async () => {
      c.sendCsrf = false;
      try {
        const res = await c.put('/api/v1/user/settings', { navigationExpanded: false });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual(CSRF);
      } finally {
        c.sendCsrf = true;
      }
    });

    it('refuses a wrong x-csrf-token, and the token of another session', async () => {
      const wrong = await c.put('/api/v1/user/settings', { navigationExpanded: false }, { 'x-csrf-token': 'x'.repeat(43) });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual(CSRF);
      const other = await signedIn(ctx, adminEmail, '10.1.0.13');
      const crossed = await c.put('/api/v1/user/settings', { navigationExpanded: false }, { 'x-csrf-token': other.cookies.ds_csrf });
      expect(crossed.statusCode).toBe(403);
      expect(crossed.json()).toEqual(CSRF);
      // The refused calls changed nothing.
      expect((await c.get('/api/v1/user')).json().user.settings.navigationExpanded).toBe(true);
    });

    it('refuses on admin routes too (DELETE, PUT)', async () => {
      const member = await createUser(ctx, orgId);
      c.sendCsrf = false;
      try {
        expect((await c.del(`/api/v1/organization/users/${member.id}`)).statusCode).toBe(403);
        expect((await c.put(`/api/v1/organization/users/${member.id}/role`, { role: 'Admin' })).json()).toEqual(CSRF);
      } finally {
        c.sendCsrf = true;
      }
    });

    it('accepts the call with the session’s token; safe methods need none', async () => {
      c.sendCsrf = false;
      try {
        expect((await c.get('/api/v1/user')).statusCode).toBe(200);
      } finally {
        c.sendCsrf = true;
      }
      const res = await c.put('/api/v1/user/settings', { navigationExpanded: true });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('bearer tokens: POST and DELETE /api/v1/auth/token', () => {
    it('exchanges credentials for a token that works without CSRF and can be revoked', async () => {
      const c = new TestClient(ctx.app, '10.1.0.20');
      const res = await c.post('/api/v1/auth/token', { email: adminEmail, password: TEST_PASSWORD, label: 'Outlook add-in' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ success: true, user: { email: adminEmail, role: 'Admin' } });
      expect(typeof body.token).toBe('string');
      expect(Buffer.from(body.token, 'base64url').length).toBeGreaterThanOrEqual(16);
      expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 30 * 86_400_000);
      expect(res.cookies).toEqual([]); // no cookie for token clients

      const row = await ctx.em().findOneOrFail(Session, { id: body.tokenId }, { filters: false });
      expect(row.kind).toBe('bearer');
      expect(row.label).toBe('Outlook add-in');
      expect(row.tokenHash).not.toBe(body.token);

      c.bearer = body.token;
      expect((await c.get('/api/v1/user')).json().user.email).toBe(adminEmail);
      // State-changing calls need no CSRF header with a bearer token.
      const put = await c.put('/api/v1/user/settings', { drawer: { tab: 'Activities' } });
      expect(put.statusCode).toBe(200);

      const del = await c.del('/api/v1/auth/token');
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({ success: true, message: 'Token revoked' });
      const after = await c.get('/api/v1/user');
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual(EXPIRED);
    });

    it('revoking one token leaves the others', async () => {
      const a = new TestClient(ctx.app, '10.1.0.21');
      const b = new TestClient(ctx.app, '10.1.0.21');
      a.bearer = (await a.post('/api/v1/auth/token', { email: adminEmail, password: TEST_PASSWORD })).json().token;
      b.bearer = (await b.post('/api/v1/auth/token', { email: adminEmail, password: TEST_PASSWORD })).json().token;
      await a.del('/api/v1/auth/token');
      expect((await a.get('/api/v1/user')).statusCode).toBe(401);
      expect((await b.get('/api/v1/user')).statusCode).toBe(200);
    });

    it('DELETE needs a session: 401 without one', async () => {
      const res = await ctx.app.inject({ method: 'DELETE', url: '/api/v1/auth/token' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    });

    it('validates like sign-in and answers wrong credentials with 401', async () => {
      const c = new TestClient(ctx.app, '10.1.0.22');
      const bad = await c.post('/api/v1/auth/token', { email: 'nope', password: TEST_PASSWORD });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Please type a valid email');
      const short = await c.post('/api/v1/auth/token', { email: adminEmail, password: 'abc' });
      expect(short.json().message).toBe('Please type a valid password');
      const wrong = await c.post('/api/v1/auth/token', { email: adminEmail, password: 'Wrong1234' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ success: false, message: 'Invalid email or password' });
    });

    it('a bearer token is not accepted as a cookie, nor a cookie token as a bearer token', async () => {
      const t = await new TestClient(ctx.app, '10.1.0.23').post('/api/v1/auth/token', { email: adminEmail, password: TEST_PASSWORD });
      const asCookie = await ctx.app.inject({ method: 'GET', url: '/api/v1/user', headers: { cookie: `ds_session=${t.json().token}` } });
      expect(asCookie.statusCode).toBe(401);
      const web = await signedIn(ctx, adminEmail, '10.1.0.23');
      const asBearer = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/user',
        headers: { authorization: `Bearer ${web.cookies.ds_session}` },
      });
      expect(asBearer.statusCode).toBe(401);
    });

    it('an expired token is refused', async () => {
      const t = (
        await new TestClient(ctx.app, '10.1.0.24').post('/api/v1/auth/token', { email: adminEmail, password: TEST_PASSWORD })
      ).json();
      await ctx.em().nativeUpdate(Session, { id: t.tokenId }, { expiresAt: new Date(Date.now() - 1000) }, { filters: false });
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${t.token}` } });
      expect(res.statusCode).toBe(401);
    });
  });
});
