import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, createUser, signedIn, TestClient, TEST_PASSWORD, type TestContext } from '../../../test/helpers';
import { User } from '../users/user.entity';
import { Session } from '../auth/session.entity';

const UNAUTHORIZED = { success: false, message: 'Unauthorized: please sign in' };
const FORBIDDEN = { success: false, message: 'Forbidden: you do not have permission to do this' };
const NOT_FOUND = { success: false, message: 'Not found' };
const NOT_SELF = { success: false, message: 'You cannot change your own role, status or account here' };

describe('organization and admin functions', () => {
  let ctx: TestContext;
  let orgA: string;
  let orgB: string;
  let adminA: TestClient;
  let adminAId: string;
  let userA: TestClient;
  let adminB: TestClient;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await createOrg(ctx, { name: 'Alpha Partners', maxUser: 50 });
    const b = await createOrg(ctx, { name: 'Beta Holdings' });
    orgA = a.organization.id;
    orgB = b.organization.id;
    adminAId = a.admin.id;
    adminA = await signedIn(ctx, a.admin.email, '10.6.0.1');
    adminB = await signedIn(ctx, b.admin.email, '10.6.0.2');
    userA = await signedIn(ctx, (await createUser(ctx, orgA)).email, '10.6.0.3');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const member = (org = orgA, opts: Parameters<typeof createUser>[2] = {}) => createUser(ctx, org, opts);
  const row = (id: string) => ctx.em().findOneOrFail(User, { id }, { filters: false });

  describe('GET /api/v1/organization', () => {
    it('answers the caller’s organization with membership and seats', async () => {
      const res = await adminA.get('/api/v1/organization');
      expect(res.statusCode).toBe(200);
      const { organization } = res.json();
      expect(organization).toMatchObject({
        id: orgA,
        name: 'Alpha Partners',
        website: null,
        status: 'active',
        aiSummary: null,
        type: null,
        membership: { type: 'standard', maxUser: 50, endsAt: null },
      });
      expect(new Date(organization.membership.startedAt).getTime()).toBeLessThanOrEqual(Date.now());
      const [{ users }] = await ctx
        .em()
        .getConnection()
        .execute<{ users: string }[]>('select count(*) as users from app_user where organization_id = ? and not deleted', [orgA]);
      expect(organization.seats).toEqual({ maxUser: 50, users: Number(users), pendingInvites: 0, available: 50 - Number(users) });
    });

    it('is readable by a User too, and never shows another organization', async () => {
      const res = await userA.get('/api/v1/organization');
      expect(res.statusCode).toBe(200);
      expect(res.json().organization.id).toBe(orgA);
      expect((await adminB.get('/api/v1/organization')).json().organization).toMatchObject({ id: orgB, name: 'Beta Holdings' });
    });

    it('counts deleted users out of the seats', async () => {
      const before = (await adminA.get('/api/v1/organization')).json().organization.seats;
      await member(orgA, { deleted: true });
      expect((await adminA.get('/api/v1/organization')).json().organization.seats).toEqual(before);
      await member(orgA, { status: 'disabled' }); // a disabled user still holds a seat
      const after = (await adminA.get('/api/v1/organization')).json().organization.seats;
      expect(after.users).toBe(before.users + 1);
      expect(after.available).toBe(before.available - 1);
    });

    it('401 without a session', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/organization' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    });
  });

  describe('GET /api/v1/organization/system-roles', () => {
    it('lists User and Admin, for every signed-in user', async () => {
      for (const c of [adminA, userA]) {
        const res = await c.get('/api/v1/organization/system-roles');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          success: true,
          roles: [
            { id: 'User', name: 'User' },
            { id: 'Admin', name: 'Admin' },
          ],
        });
      }
    });

    it('401 without a session', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/organization/system-roles' })).statusCode).toBe(401);
    });
  });

  describe('GET /api/v1/organization/users (admin)', () => {
    it('lists the organization’s members (not deleted) and nobody else’s', async () => {
      const visible = await member(orgA, { firstName: 'Vic' });
      const deleted = await member(orgA, { deleted: true });
      const foreign = await member(orgB);
      const res = await adminA.get('/api/v1/organization/users');
      expect(res.statusCode).toBe(200);
      const { users, invitations } = res.json();
      const ids = users.map((u: { id: string }) => u.id);
      expect(ids).toContain(visible.id);
      expect(ids).toContain(adminAId);
      expect(ids).not.toContain(deleted.id);
      expect(ids).not.toContain(foreign.id);
      expect(users.find((u: { id: string }) => u.id === visible.id)).toEqual({
        id: visible.id,
        email: visible.email,
        firstName: 'Vic',
        lastName: 'Member',
        role: 'User',
        status: 'active',
        invitationAccepted: true,
        createdAt: expect.any(String),
      });
      expect(users[0]).not.toHaveProperty('passwordHash');
      expect(invitations).toEqual([]);
    });

    it('403 for a User, 401 without a session', async () => {
      const res = await userA.get('/api/v1/organization/users');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/organization/users' })).statusCode).toBe(401);
    });
  });

  describe('PUT /api/v1/organization/users/{id}/role (admin)', () => {
    it('sets a user’s role; the new role takes effect on the next call', async () => {
      const u = await member();
      const client = await signedIn(ctx, u.email, '10.6.1.1');
      expect((await client.get('/api/v1/organization/users')).statusCode).toBe(403);
      const res = await adminA.put(`/api/v1/organization/users/${u.id}/role`, { role: 'Admin' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, message: 'Role updated', user: { id: u.id, role: 'Admin', status: 'active' } });
      expect((await row(u.id)).role).toBe('Admin');
      expect((await client.get('/api/v1/organization/users')).statusCode).toBe(200);
      expect((await client.get('/api/v1/user')).json().user).toMatchObject({ role: 'Admin', isAdmin: true });
      // And back.
      expect((await adminA.put(`/api/v1/organization/users/${u.id}/role`, { role: 'User' })).json().user.role).toBe('User');
      expect((await client.get('/api/v1/organization/users')).statusCode).toBe(403);
    });

    it("refuses a missing or unknown role with 'Role must be selected'", async () => {
      const u = await member();
      for (const payload of [{}, { role: 'Owner' }, { role: '' }, { role: null }]) {
        const res = await adminA.put(`/api/v1/organization/users/${u.id}/role`, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ success: false, message: 'Role must be selected' });
      }
      expect((await row(u.id)).role).toBe('User');
    });

    it('an admin cannot change their own role', async () => {
      const res = await adminA.put(`/api/v1/organization/users/${adminAId}/role`, { role: 'User' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(NOT_SELF);
      expect((await row(adminAId)).role).toBe('Admin');
    });

    it('404 for a user of another organization, a deleted user, or an unknown id; 400 for a malformed id', async () => {
      const foreign = await member(orgB);
      const gone = await member(orgA, { deleted: true });
      for (const id of [foreign.id, gone.id, randomUUID()]) {
        const res = await adminA.put(`/api/v1/organization/users/${id}/role`, { role: 'Admin' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(NOT_FOUND);
      }
      expect((await row(foreign.id)).role).toBe('User');
      const bad = await adminA.put('/api/v1/organization/users/not-a-uuid/role', { role: 'Admin' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ success: false, message: 'Invalid id' });
    });

    it('403 for a User, 401 without a session', async () => {
      const u = await member();
      const res = await userA.put(`/api/v1/organization/users/${u.id}/role`, { role: 'Admin' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
      expect((await row(u.id)).role).toBe('User');
      expect(
        (await ctx.app.inject({ method: 'PUT', url: `/api/v1/organization/users/${u.id}/role`, payload: { role: 'Admin' } })).statusCode,
      ).toBe(401);
    });
  });

  describe('PUT /api/v1/organization/users/{id}/status (admin)', () => {
    it('disabling ends all of the user’s sessions (cookie and bearer) and blocks sign-in; re-enabling allows sign-in again', async () => {
      const u = await member();
      const web = await signedIn(ctx, u.email, '10.6.2.1');
      const addin = new TestClient(ctx.app, '10.6.2.2');
      addin.bearer = (await addin.post('/api/v1/auth/token', { email: u.email, password: TEST_PASSWORD })).json().token;

      const res = await adminA.put(`/api/v1/organization/users/${u.id}/status`, { status: 'disabled' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, message: 'Status updated', user: { id: u.id, status: 'disabled' } });
      expect((await web.get('/api/v1/user')).statusCode).toBe(401);
      expect((await addin.get('/api/v1/user')).statusCode).toBe(401);
      const sessions = await ctx.em().find(Session, { user: u.id }, { filters: false });
      expect(sessions).toHaveLength(2);
      for (const s of sessions) expect(s.revokedAt).toBeInstanceOf(Date);
      const login = await new TestClient(ctx.app, '10.6.2.3').post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD });
      expect(login.statusCode).toBe(403);
      expect(login.json()).toEqual({ success: false, message: 'Your account is disabled. Please ask your organization Admin.' });

      const back = await adminA.put(`/api/v1/organization/users/${u.id}/status`, { status: 'active' });
      expect(back.json().user.status).toBe('active');
      // The ended sessions stay ended; a new sign-in works.
      expect((await web.get('/api/v1/user')).statusCode).toBe(401);
      expect((await addin.get('/api/v1/user')).statusCode).toBe(401);
      expect(
        (await new TestClient(ctx.app, '10.6.2.4').post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD })).statusCode,
      ).toBe(200);
    });

    it('refuses an unknown status', async () => {
      const u = await member();
      for (const payload of [{}, { status: 'deleted' }, { status: 'Active' }]) {
        const res = await adminA.put(`/api/v1/organization/users/${u.id}/status`, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().success).toBe(false);
      }
      expect((await row(u.id)).status).toBe('active');
    });

    it('an admin cannot disable themselves', async () => {
      const res = await adminA.put(`/api/v1/organization/users/${adminAId}/status`, { status: 'disabled' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(NOT_SELF);
      expect((await adminA.get('/api/v1/user')).statusCode).toBe(200);
    });

    it('404 for a user of another organization (whose sessions stay)', async () => {
      const foreign = await member(orgB);
      const fc = await signedIn(ctx, foreign.email, '10.6.2.5');
      const res = await adminA.put(`/api/v1/organization/users/${foreign.id}/status`, { status: 'disabled' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
      expect((await row(foreign.id)).status).toBe('active');
      expect((await fc.get('/api/v1/user')).statusCode).toBe(200);
    });

    it('403 for a User', async () => {
      const u = await member();
      const res = await userA.put(`/api/v1/organization/users/${u.id}/status`, { status: 'disabled' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
      expect((await row(u.id)).status).toBe('active');
    });
  });

  describe('DELETE /api/v1/organization/users/{id} (admin)', () => {
    it('soft-deletes: flagged deleted, hidden from the list, all sessions ended, cannot sign in', async () => {
      const u = await member();
      const web = await signedIn(ctx, u.email, '10.6.3.1');
      const addin = new TestClient(ctx.app, '10.6.3.2');
      addin.bearer = (await addin.post('/api/v1/auth/token', { email: u.email, password: TEST_PASSWORD })).json().token;

      const res = await adminA.del(`/api/v1/organization/users/${u.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'User deleted' });
      const r = await row(u.id); // still there, flagged
      expect(r.deleted).toBe(true);
      expect(r.status).toBe('disabled');
      const list = (await adminA.get('/api/v1/organization/users')).json().users.map((x: { id: string }) => x.id);
      expect(list).not.toContain(u.id);
      expect((await web.get('/api/v1/user')).statusCode).toBe(401);
      expect((await addin.get('/api/v1/user')).statusCode).toBe(401);
      for (const s of await ctx.em().find(Session, { user: u.id }, { filters: false })) expect(s.revokedAt).toBeInstanceOf(Date);
      const login = await new TestClient(ctx.app, '10.6.3.3').post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD });
      expect(login.statusCode).toBe(401);
      // Deleting again: the user is gone.
      expect((await adminA.del(`/api/v1/organization/users/${u.id}`)).statusCode).toBe(404);
    });

    it('frees a seat', async () => {
      const u = await member();
      const before = (await adminA.get('/api/v1/organization')).json().organization.seats.available;
      await adminA.del(`/api/v1/organization/users/${u.id}`);
      expect((await adminA.get('/api/v1/organization')).json().organization.seats.available).toBe(before + 1);
    });

    it('an admin cannot delete themselves', async () => {
      const res = await adminA.del(`/api/v1/organization/users/${adminAId}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(NOT_SELF);
      expect((await row(adminAId)).deleted).toBe(false);
    });

    it('404 for a user of another organization', async () => {
      const foreign = await member(orgB);
      const res = await adminA.del(`/api/v1/organization/users/${foreign.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
      expect((await row(foreign.id)).deleted).toBe(false);
    });

    it('403 for a User, 401 without a session', async () => {
      const u = await member();
      const res = await userA.del(`/api/v1/organization/users/${u.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
      expect((await row(u.id)).deleted).toBe(false);
      expect((await ctx.app.inject({ method: 'DELETE', url: `/api/v1/organization/users/${u.id}` })).statusCode).toBe(401);
    });
  });
});
