import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  createTestApp,
  createOrg,
  createUser,
  signedIn,
  uniqueEmail,
  mailsTo,
  tokenFromMail,
  TestClient,
  type TestContext,
} from '../../../test/helpers';
import { Invitation } from './invitation.entity';
import { User } from '../users/user.entity';
import { sha256 } from '../../lib/tokens';

const FORBIDDEN = { success: false, message: 'Forbidden: you do not have permission to do this' };
const LINK_INVALID = { success: false, message: 'This invitation is invalid or has expired. Ask your admin for a new one.' };
const NO_SEATS = 'No seats available. Remove a user or ask support to raise your seat limit.';

describe('invitations', () => {
  let ctx: TestContext;
  let orgA: string;
  let orgB: string;
  let adminA: TestClient;
  let adminB: TestClient;
  let userA: TestClient;
  let adminAEmail: string;
  let memberAEmail: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await createOrg(ctx, { name: 'Alpha Partners', maxUser: 100 });
    const b = await createOrg(ctx, { name: 'Beta Holdings', maxUser: 100 });
    orgA = a.organization.id;
    orgB = b.organization.id;
    adminAEmail = a.admin.email;
    adminA = await signedIn(ctx, a.admin.email, '10.7.0.1');
    adminB = await signedIn(ctx, b.admin.email, '10.7.0.2');
    const m = await createUser(ctx, orgA);
    memberAEmail = m.email;
    userA = await signedIn(ctx, m.email, '10.7.0.3');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const invite = (c: TestClient, emails: string[], role: unknown = 'User') => c.post('/api/v1/organization/invite', { emails, role });
  async function inviteLink(email: string): Promise<string> {
    const [mail] = await mailsTo(ctx, email);
    expect(mail).toBeDefined();
    return tokenFromMail(mail.text, '/invite/');
  }
  const accept = (token: string, over: Record<string, unknown> = {}, ip = '10.7.9.9') =>
    new TestClient(ctx.app, ip).post('/api/v1/invite/accept', {
      token,
      firstName: 'Ivy',
      lastName: 'Invitee',
      password: 'Joined123',
      ...over,
    });

  describe('POST /api/v1/organization/invite (admin)', () => {
    it('creates lowercased pending invitations and mails each an /invite/{token} link', async () => {
      const e1 = uniqueEmail('new');
      const e2 = uniqueEmail('new');
      const res = await invite(adminA, [e1.toUpperCase(), ` ${e2} `], 'Admin');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Invitation sent to 2 user(s).', invitedUsers: [e1, e2] });

      const rows = await ctx.em().find(Invitation, { email: { $in: [e1, e2] } }, { filters: false });
      expect(rows).toHaveLength(2);
      for (const r of rows) {
        expect(r).toMatchObject({ status: 'pending', role: 'Admin' });
        expect(r.organization.id).toBe(orgA);
        expect(r.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
      }
      for (const e of [e1, e2]) {
        const mails = await mailsTo(ctx, e);
        expect(mails).toHaveLength(1);
        expect(mails[0]).toMatchObject({ kind: 'invitation', status: 'stored' });
        expect(mails[0].subject).toContain('Alpha Partners');
        expect(mails[0].text).toContain('http://localhost:3000/invite/');
        const token = tokenFromMail(mails[0].text, '/invite/');
        expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
        // Only the hash is stored.
        const stored = await ctx.em().getConnection().execute('select * from invitation where email = ?', [e]);
        expect(JSON.stringify(stored)).not.toContain(token);
        expect(stored[0].token_hash).toBe(sha256(token));
      }
      // Listed as pending for the admin.
      const list = (await adminA.get('/api/v1/organization/users')).json().invitations.map((i: { email: string }) => i.email);
      expect(list).toEqual(expect.arrayContaining([e1, e2]));
      expect((await adminB.get('/api/v1/organization/users')).json().invitations.map((i: { email: string }) => i.email)).not.toContain(e1);
    });

    it.each([
      ['no role', undefined],
      ['a null role', null],
      ['an empty role', ''],
      ['an unknown role', 'Owner'],
    ])("refuses %s with 'Role must be selected'", async (_name, role) => {
      const e = uniqueEmail('role');
      const res = await adminA.post('/api/v1/organization/invite', role === undefined ? { emails: [e] } : { emails: [e], role });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'Role must be selected' });
      expect(await mailsTo(ctx, e)).toHaveLength(0);
    });

    it("refuses no email with 'Email can not be empty'", async () => {
      for (const emails of [[], [''], ['  ']]) {
        const res = await invite(adminA, emails);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ success: false, message: 'Email can not be empty' });
      }
    });

    it("lists invalid addresses: 'Some email addresses are not valid: ...'", async () => {
      const ok = uniqueEmail('ok');
      const res = await invite(adminA, [ok, 'Not-An-Email', 'x@y']);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'Some email addresses are not valid: not-an-email, x@y' });
      expect(await ctx.em().count(Invitation, { email: ok }, { filters: false })).toBe(0);
    });

    it("refuses duplicates, also differing in case: 'Some email addresses are duplicated'", async () => {
      const e = uniqueEmail('dup');
      const res = await invite(adminA, [e, e.toUpperCase()]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'Some email addresses are duplicated' });
    });

    it("lists members and pending invitees: 'The following email addresses are already invited or members of your organization: ...'", async () => {
      const pending = uniqueEmail('pending');
      expect((await invite(adminA, [pending])).statusCode).toBe(200);
      const fresh = uniqueEmail('fresh');
      const res = await invite(adminA, [fresh, memberAEmail.toUpperCase(), pending, adminAEmail]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: `The following email addresses are already invited or members of your organization: ${memberAEmail}, ${pending}, ${adminAEmail}`,
      });
      expect(await ctx.em().count(Invitation, { email: fresh }, { filters: false })).toBe(0);
    });

    it('a deleted user’s address can be invited again', async () => {
      const gone = await createUser(ctx, orgA, { deleted: true });
      const res = await invite(adminA, [gone.email]);
      expect(res.statusCode).toBe(200);
      expect(res.json().invitedUsers).toEqual([gone.email]);
    });

    it("does not reveal another organization's members: the answer is the same as for a new address, and no invitation mail reaches that account", async () => {
      const other = await createUser(ctx, orgB);
      const fresh = uniqueEmail('fresh');
      const res = await invite(adminA, [other.email]);
      const control = await invite(adminA, [fresh]);
      expect(res.statusCode).toBe(control.statusCode);
      expect(res.statusCode).toBe(200);
      expect(res.json().invitedUsers).toEqual([other.email]);
      expect(res.body.replace(other.email, 'X')).toBe(control.body.replace(fresh, 'X'));
      expect(res.body).not.toContain('another organization');
      // Not deliverable: that account gets no invitation link; the new address does.
      expect(await mailsTo(ctx, other.email)).toHaveLength(0);
      expect(await mailsTo(ctx, fresh)).toHaveLength(1);
    });

    it('refuses more than 500 addresses in one call', async () => {
      const res = await invite(
        adminA,
        Array.from({ length: 501 }, (_, i) => `bulk${i}@example.com`),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    });

    it('403 for a User (nothing invited), 401 without a session', async () => {
      const e = uniqueEmail('blocked');
      const res = await invite(userA, [e]);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
      expect(await ctx.em().count(Invitation, { email: e }, { filters: false })).toBe(0);
      const anon = await ctx.app.inject({ method: 'POST', url: '/api/v1/organization/invite', payload: { emails: [e], role: 'User' } });
      expect(anon.statusCode).toBe(401);
    });
  });

  describe('seat cap: maxUser − non-deleted users − pending invitations', () => {
    let small: TestClient;
    let smallOrg: string;
    beforeAll(async () => {
      // 4 seats: the admin holds one, 3 are free.
      const s = await createOrg(ctx, { name: 'Small Co', maxUser: 4 });
      smallOrg = s.organization.id;
      small = await signedIn(ctx, s.admin.email, '10.7.1.1');
    });
    const seats = async () => (await small.get('/api/v1/organization')).json().organization.seats;

    it('refuses more addresses than seats, then fills the seats, then refuses at 0 seats', async () => {
      expect(await seats()).toEqual({ maxUser: 4, users: 1, pendingInvites: 0, available: 3 });
      const tooMany = await invite(small, [uniqueEmail('s'), uniqueEmail('s'), uniqueEmail('s'), uniqueEmail('s')]);
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toMatchObject({ success: false, message: 'Only 3 seat(s) available.' });
      expect((await seats()).pendingInvites).toBe(0);

      await createUser(ctx, smallOrg); // a member takes one seat
      expect((await invite(small, [uniqueEmail('s'), uniqueEmail('s')])).statusCode).toBe(200);
      expect(await seats()).toEqual({ maxUser: 4, users: 2, pendingInvites: 2, available: 0 });

      const full = await invite(small, [uniqueEmail('s')]);
      expect(full.statusCode).toBe(400);
      expect(full.json()).toMatchObject({ success: false, message: NO_SEATS });
    });

    it('a deleted user frees a seat; a revoked or expired invitation frees its seat', async () => {
      const users = (await small.get('/api/v1/organization/users')).json();
      const memberRow = users.users.find((u: { role: string }) => u.role === 'User');
      expect((await small.del(`/api/v1/organization/users/${memberRow.id}`)).statusCode).toBe(200);
      expect((await seats()).available).toBe(1);
      const e = uniqueEmail('s');
      expect((await invite(small, [e])).statusCode).toBe(200);
      expect((await seats()).available).toBe(0);

      const inv = (await small.get('/api/v1/organization/users')).json().invitations.find((i: { email: string }) => i.email === e);
      expect((await small.del(`/api/v1/organization/invites/${inv.id}`)).statusCode).toBe(200);
      expect((await seats()).available).toBe(1);

      const e2 = uniqueEmail('s');
      expect((await invite(small, [e2])).statusCode).toBe(200);
      expect((await seats()).available).toBe(0);
      await ctx.em().getConnection().execute(`update invitation set expires_at = now() - interval '1 second' where email = ?`, [e2]);
      expect((await seats()).available).toBe(1);
    });

    it('admins inviting at once cannot together exceed the seats (the organization row is locked)', async () => {
      const s = await createOrg(ctx, { name: 'Race Co', maxUser: 5 });
      const admins = [await signedIn(ctx, s.admin.email, '10.7.1.2')];
      for (let i = 0; i < 3; i++)
        admins.push(await signedIn(ctx, (await createUser(ctx, s.organization.id, { role: 'Admin' })).email, `10.7.1.${3 + i}`));
      // 4 admins hold 4 of the 5 seats: one seat left, four invitations at once. Another
      // transaction holds the organization row first, so all four are in flight together.
      const blocker = new pg.Client({ connectionString: ctx.dbUrl });
      await blocker.connect();
      let results: Awaited<ReturnType<typeof invite>>[];
      try {
        await blocker.query('begin');
        await blocker.query('select id from organization where id = $1 for update', [s.organization.id]);
        let settled = 0;
        const pending = admins.map((a) =>
          invite(a, [uniqueEmail('r')]).finally(() => {
            settled += 1;
          }),
        );
        await new Promise((r) => setTimeout(r, 300));
        expect(settled).toBe(0); // every invite waits for the organization row
        await blocker.query('commit');
        results = await Promise.all(pending);
      } finally {
        await blocker.end();
      }
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
      for (const r of results.filter((x) => x.statusCode === 400)) expect(r.json().message).toBe(NO_SEATS);
      expect(await ctx.em().count(Invitation, { organization: s.organization.id, status: 'pending' }, { filters: false })).toBe(1);
    });
  });

  describe('DELETE /api/v1/organization/invites/{id} (admin)', () => {
    async function pendingId(c: TestClient, email: string): Promise<string> {
      expect((await invite(c, [email])).statusCode).toBe(200);
      return (await c.get('/api/v1/organization/users')).json().invitations.find((i: { email: string }) => i.email === email).id;
    }

    it('revokes a pending invitation; its link stops working; revoking again is 404', async () => {
      const e = uniqueEmail('rev');
      const id = await pendingId(adminA, e);
      const token = await inviteLink(e);
      const res = await adminA.del(`/api/v1/organization/invites/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Invitation revoked' });
      expect((await ctx.em().findOneOrFail(Invitation, { id }, { filters: false })).status).toBe('revoked');
      expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/invite/${token}` })).statusCode).toBe(404);
      const acc = await accept(token);
      expect(acc.statusCode).toBe(404);
      expect(acc.json()).toEqual(LINK_INVALID);
      expect((await adminA.del(`/api/v1/organization/invites/${id}`)).statusCode).toBe(404);
    });

    it('404 for another organization’s invitation (which stays pending) and for an unknown id', async () => {
      const e = uniqueEmail('foreign');
      const idB = await pendingId(adminB, e);
      const res = await adminA.del(`/api/v1/organization/invites/${idB}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Not found' });
      expect((await ctx.em().findOneOrFail(Invitation, { id: idB }, { filters: false })).status).toBe('pending');
      expect((await adminA.del(`/api/v1/organization/invites/${randomUUID()}`)).statusCode).toBe(404);
    });

    it('403 for a User', async () => {
      const e = uniqueEmail('keep');
      const id = await pendingId(adminA, e);
      const res = await userA.del(`/api/v1/organization/invites/${id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
      expect((await ctx.em().findOneOrFail(Invitation, { id }, { filters: false })).status).toBe('pending');
    });
  });

  describe('the invitation link: GET /api/v1/invite/{token} and POST /api/v1/invite/accept', () => {
    it('shows what the link is for, without a session', async () => {
      const e = uniqueEmail('info');
      await invite(adminA, [e], 'Admin');
      const token = await inviteLink(e);
      const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/invite/${encodeURIComponent(token)}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, email: e, role: 'Admin', organizationName: 'Alpha Partners' });
    });

    it('404 for an unknown token', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/invite/not-a-real-token-at-all' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(LINK_INVALID);
    });

    it('accepting creates the user with that role in that organization and signs them in; the invited User gets 403 on admin routes', async () => {
      const e = uniqueEmail('joiner');
      await invite(adminA, [e], 'User');
      const token = await inviteLink(e);
      const c = new TestClient(ctx.app, '10.7.2.1');
      const res = await c.post('/api/v1/invite/accept', { token, firstName: ' Jo ', lastName: 'Joiner', password: 'Joined123' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        success: true,
        user: { email: e, firstName: 'Jo', lastName: 'Joiner', role: 'User', isAdmin: false, organizationId: orgA },
      });
      expect(res.json().csrfToken).toBe(c.cookies.ds_csrf);
      expect((await c.get('/api/v1/user')).json().user.email).toBe(e);
      expect((await c.get('/api/v1/organization')).json().organization.id).toBe(orgA);

      const inv = await ctx.em().findOneOrFail(Invitation, { tokenHash: sha256(token) }, { filters: false });
      expect(inv.status).toBe('accepted');
      expect(inv.acceptedAt).toBeInstanceOf(Date);
      const created = await ctx.em().findOneOrFail(User, { email: e, deleted: false }, { filters: false });
      expect(created.organization.id).toBe(orgA);
      expect(created.invitationAccepted).toBe(true);

      // A User: 403 on every admin route.
      const someone = await createUser(ctx, orgA);
      for (const [method, url, body] of [
        ['GET', '/api/v1/organization/users', undefined],
        ['POST', '/api/v1/organization/invite', { emails: [uniqueEmail('x')], role: 'User' }],
        ['PUT', `/api/v1/organization/users/${someone.id}/role`, { role: 'Admin' }],
        ['PUT', `/api/v1/organization/users/${someone.id}/status`, { status: 'disabled' }],
        ['DELETE', `/api/v1/organization/users/${someone.id}`, undefined],
        ['DELETE', `/api/v1/organization/invites/${randomUUID()}`, undefined],
      ] as const) {
        const r = await c.request(method, url, body);
        expect(r.statusCode, `${method} ${url}`).toBe(403);
        expect(r.json()).toEqual(FORBIDDEN);
      }
      // Member rows are counted as users, the invitation no longer as pending.
      const list = (await adminA.get('/api/v1/organization/users')).json();
      expect(list.users.map((u: { email: string }) => u.email)).toContain(e);
      expect(list.invitations.map((i: { email: string }) => i.email)).not.toContain(e);
    });

    it('an invited Admin gets admin rights', async () => {
      const e = uniqueEmail('newadmin');
      await invite(adminA, [e], 'Admin');
      const c = new TestClient(ctx.app, '10.7.2.2');
      expect(
        (await c.post('/api/v1/invite/accept', { token: await inviteLink(e), firstName: 'A', lastName: 'B', password: 'Admin1234' }))
          .statusCode,
      ).toBe(201);
      expect((await c.get('/api/v1/organization/users')).statusCode).toBe(200);
    });

    it('the same link cannot be used twice', async () => {
      const e = uniqueEmail('twice');
      await invite(adminA, [e]);
      const token = await inviteLink(e);
      expect((await accept(token)).statusCode).toBe(201);
      const again = await accept(token, { password: 'Other1234' });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(LINK_INVALID);
      expect(await ctx.em().count(User, { email: e }, { filters: false })).toBe(1);
      expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/invite/${token}` })).statusCode).toBe(404);
    });

    it('of two concurrent accepts of one link only one wins', async () => {
      const e = uniqueEmail('race');
      await invite(adminA, [e]);
      const token = await inviteLink(e);
      // Another transaction holds the invitation row, so both accepts have read it as pending before either writes.
      const blocker = new pg.Client({ connectionString: ctx.dbUrl });
      await blocker.connect();
      let results: Awaited<ReturnType<typeof accept>>[];
      try {
        await blocker.query('begin');
        await blocker.query('select id from invitation where token_hash = $1 for update', [sha256(token)]);
        let settled = 0;
        const pending = [accept(token, {}, '10.7.3.1'), accept(token, {}, '10.7.3.2')].map((p) =>
          p.finally(() => {
            settled += 1;
          }),
        );
        await new Promise((r) => setTimeout(r, 400));
        expect(settled).toBe(0);
        await blocker.query('commit');
        results = await Promise.all(pending);
      } finally {
        await blocker.end();
      }
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 404]);
      expect(await ctx.em().count(User, { email: e }, { filters: false })).toBe(1);
    });

    it('an expired link is refused', async () => {
      const e = uniqueEmail('late');
      await invite(adminA, [e]);
      const token = await inviteLink(e);
      await ctx
        .em()
        .getConnection()
        .execute(`update invitation set expires_at = now() - interval '1 second' where token_hash = ?`, [sha256(token)]);
      expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/invite/${token}` })).json()).toEqual(LINK_INVALID);
      const res = await accept(token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(LINK_INVALID);
      expect(await ctx.em().count(User, { email: e }, { filters: false })).toBe(0);
    });

    it('refuses when the address got an account meanwhile (and the link stays usable)', async () => {
      const e = uniqueEmail('meanwhile');
      await invite(adminA, [e]);
      const token = await inviteLink(e);
      const existing = await createUser(ctx, orgB, { email: e });
      const res = await accept(token);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ success: false, message: 'An account with this email address already exists. Please sign in.' });
      expect((await ctx.em().findOneOrFail(Invitation, { tokenHash: sha256(token) }, { filters: false })).status).toBe('pending');
      await ctx.em().nativeUpdate(User, { id: existing.id }, { deleted: true }, { filters: false });
      expect((await accept(token)).statusCode).toBe(201);
    });

    it.each([
      [{ firstName: '' }, 'First name is required'],
      [{ lastName: ' ' }, 'Last name is required'],
      [{ password: 'Ab1' }, 'Password must be at least 5 characters'],
      [{ password: 'With Space1' }, 'Password may not contain spaces'],
      [{ password: 'lower1234' }, 'Password needs an upper-case letter'],
      [{ password: 'UPPER1234' }, 'Password needs a lower-case letter'],
      [{ password: 'NoDigitsAtAll' }, 'Password needs a digit'],
    ])('validates %j: %s (and the link stays usable)', async (over, message) => {
      const e = uniqueEmail('val');
      await invite(adminA, [e]);
      const token = await inviteLink(e);
      const res = await accept(token, over);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message });
      expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/invite/${token}` })).statusCode).toBe(200);
    });
  });
});
