import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, createUser, signedIn, TestClient, TEST_PASSWORD, type TestContext } from '../../../test/helpers';
import { defaultUserConfig } from '@dealscout/shared/domain';

const UNAUTHORIZED = { success: false, message: 'Unauthorized: please sign in' };

describe('the signed-in user: GET /api/v1/user, PUT /api/v1/user/settings, PUT /api/v1/user/profile', () => {
  let ctx: TestContext;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    orgId = (await createOrg(ctx)).organization.id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  describe('GET /api/v1/user', () => {
    it('answers the user with the default config (version 4) and calendar', async () => {
      const user = await createUser(ctx, orgId, { firstName: 'Uma', lastName: 'User' });
      const c = await signedIn(ctx, user.email);
      const res = await c.get('/api/v1/user');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        user: {
          id: user.id,
          organizationId: orgId,
          email: user.email,
          firstName: 'Uma',
          lastName: 'User',
          role: 'User',
          isAdmin: false,
          status: 'active',
          settings: defaultUserConfig(),
          calendar: { meetingLength: 30 },
        },
      });
    });

    it('401 without a session', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/user' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    });
  });

  describe('PUT /api/v1/user/settings', () => {
    let c: TestClient;
    beforeAll(async () => {
      c = await signedIn(ctx, (await createUser(ctx, orgId)).email);
    });

    it('merges the keys it names into the stored config, keeps version 4, and persists', async () => {
      const a = await c.put('/api/v1/user/settings', { navigationExpanded: false });
      expect(a.statusCode).toBe(200);
      expect(a.json().settings).toEqual({ ...defaultUserConfig(), navigationExpanded: false });

      const b = await c.put('/api/v1/user/settings', {
        drawer: { visibility: 'Visible', company: { details: { showGroups: { contacts: false } } } },
      });
      expect(b.statusCode).toBe(200);
      const expected = defaultUserConfig();
      expected.navigationExpanded = false; // kept from the first call
      expected.drawer.visibility = 'Visible';
      expected.drawer.company.details.showGroups.contacts = false; // deep merge keeps the sibling groups
      expect(b.json().settings).toEqual(expected);
      expect(b.json().settings.version).toBe(4);

      const me = await c.get('/api/v1/user');
      expect(me.json().user.settings).toEqual(expected);
      // A new session sees the same config.
      const again = await signedIn(ctx, me.json().user.email, '10.5.0.2');
      expect((await again.get('/api/v1/user')).json().user.settings).toEqual(expected);
    });

    it('accepts version 4 and refuses another version', async () => {
      expect((await c.put('/api/v1/user/settings', { version: 4, navigationExpanded: true })).statusCode).toBe(200);
      const res = await c.put('/api/v1/user/settings', { version: 3 });
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    });

    it('refuses unknown keys with 400, at the top and inside the drawer, and stores nothing', async () => {
      const before = (await c.get('/api/v1/user')).json().user.settings;
      for (const payload of [
        { navigationExpanded: true, evil: 1 },
        { drawer: { visibility: 'Visible', other: true } },
        { drawer: { company: { details: { showGroups: { unknownGroup: true } } } } },
        { drawer: { contact: { details: { showGroups: {} }, extra: 1 } } },
        { drawer: { idea: { details: { showGroups: {}, extra: 1 } } } },
      ]) {
        const res = await c.put('/api/v1/user/settings', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().success).toBe(false);
        expect(res.json().issues.length).toBeGreaterThan(0);
      }
      expect((await c.get('/api/v1/user')).json().user.settings).toEqual(before);
    });

    it('refuses values of the wrong type', async () => {
      expect((await c.put('/api/v1/user/settings', { navigationExpanded: 'yes' })).statusCode).toBe(400);
      expect((await c.put('/api/v1/user/settings', { drawer: { visibility: 'Hidden' } })).statusCode).toBe(400);
      expect((await c.put('/api/v1/user/settings', { drawer: { tab: 'Emails' } })).statusCode).toBe(400);
    });

    it("keeps the column widths of a list's ideas table per list, merged column by column", async () => {
      const L1 = '11111111-1111-4111-8111-111111111111';
      const L2 = '22222222-2222-4222-8222-222222222222';
      await c.put('/api/v1/user/settings', { listColumnWidths: { [L1]: { name: 240 } } });
      await c.put('/api/v1/user/settings', { listColumnWidths: { [L1]: { 'data.Employees': 130 }, [L2]: { website: 300 } } });
      const settings = (await c.get('/api/v1/user')).json().user.settings;
      expect(settings.listColumnWidths).toEqual({ [L1]: { name: 240, 'data.Employees': 130 }, [L2]: { website: 300 } });
      expect(settings.version).toBe(4);
      expect((await c.put('/api/v1/user/settings', { listColumnWidths: { 'not-a-list': { name: 240 } } })).statusCode).toBe(400);
      expect((await c.put('/api/v1/user/settings', { listColumnWidths: { [L1]: { name: 10 } } })).statusCode).toBe(400);
      expect((await c.put('/api/v1/user/settings', { listColumnWidths: { [L1]: { name: 'wide' } } })).statusCode).toBe(400);
    });

    it('replaces an older stored version by the defaults before merging', async () => {
      const user = await createUser(ctx, orgId);
      await ctx
        .em()
        .getConnection()
        .execute(`update app_user set settings = ?::jsonb where id = ?`, [
          JSON.stringify({ version: 3, navigationExpanded: false, drawer: { visibility: 'Bogus' } }),
          user.id,
        ]);
      const u = await signedIn(ctx, user.email, '10.5.0.3');
      expect((await u.get('/api/v1/user')).json().user.settings).toEqual({ ...defaultUserConfig(), navigationExpanded: false });
      const res = await u.put('/api/v1/user/settings', { drawer: { tab: 'Activities' } });
      const expected = { ...defaultUserConfig(), navigationExpanded: false };
      expected.drawer.tab = 'Activities';
      expect(res.json().settings).toEqual(expected);
    });

    it('changes only the caller’s config', async () => {
      const other = await createUser(ctx, orgId);
      const o = await signedIn(ctx, other.email, '10.5.0.4');
      await c.put('/api/v1/user/settings', { navigationExpanded: false });
      expect((await o.get('/api/v1/user')).json().user.settings).toEqual(defaultUserConfig());
    });

    it('401 without a session', async () => {
      const res = await ctx.app.inject({ method: 'PUT', url: '/api/v1/user/settings', payload: { navigationExpanded: false } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    });
  });

  describe('PUT /api/v1/user/profile', () => {
    it('changes the name (trimmed)', async () => {
      const user = await createUser(ctx, orgId);
      const c = await signedIn(ctx, user.email);
      const res = await c.put('/api/v1/user/profile', { firstName: '  Nia ', lastName: 'New ' });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ firstName: 'Nia', lastName: 'New', email: user.email });
      expect((await c.get('/api/v1/user')).json().user).toMatchObject({ firstName: 'Nia', lastName: 'New' });
    });

    it.each([
      [{ firstName: '', lastName: 'X' }, 'First name is required'],
      [{ firstName: 'X', lastName: '  ' }, 'Last name is required'],
      [{ lastName: 'X' }, undefined],
    ])('refuses %j', async (payload, message) => {
      const c = await signedIn(ctx, (await createUser(ctx, orgId)).email);
      const res = await c.put('/api/v1/user/profile', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
      if (message) expect(res.json().message).toBe(message);
    });

    it('401 without a session', async () => {
      const res = await ctx.app.inject({ method: 'PUT', url: '/api/v1/user/profile', payload: { firstName: 'A', lastName: 'B' } });
      expect(res.statusCode).toBe(401);
    });
  });

  it('a bearer token reads and writes the same user', async () => {
    const user = await createUser(ctx, orgId);
    const t = new TestClient(ctx.app, '10.5.1.1');
    t.bearer = (await t.post('/api/v1/auth/token', { email: user.email, password: TEST_PASSWORD })).json().token;
    expect((await t.put('/api/v1/user/settings', { navigationExpanded: false })).statusCode).toBe(200);
    const web = await signedIn(ctx, user.email, '10.5.1.2');
    expect((await web.get('/api/v1/user')).json().user.settings.navigationExpanded).toBe(false);
  });
});
