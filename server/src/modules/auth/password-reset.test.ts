import { describe, it, expect, beforeAll, afterAll } from 'vitest';
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
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/helpers';
import { sha256 } from '../../lib/tokens';

const CONFIRMATION = { success: true, message: 'If an account exists for that email, we have sent a link to reset the password.' };
const INVALID_LINK = { success: false, message: 'This reset link is invalid or has expired. Please request a new one.' };
const DONE = { success: true, message: 'Your password has been changed. Please sign in.' };

describe('password reset: POST /api/v1/auth/forgotpassword and /resetpassword', () => {
  let ctx: TestContext;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    orgId = (await createOrg(ctx)).organization.id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const anon = () => new TestClient(ctx.app, '10.3.0.1');

  async function requestReset(email: string): Promise<string> {
    const res = await anon().post('/api/v1/auth/forgotpassword', { email });
    expect(res.json()).toEqual(CONFIRMATION);
    const [mail] = await mailsTo(ctx, email.trim().toLowerCase());
    expect(mail).toBeDefined();
    return tokenFromMail(mail.text, '/reset-password?token=');
  }

  it('answers the same confirmation for an existing and an unknown email, and mails only the existing one', async () => {
    const user = await createUser(ctx, orgId);
    const ghost = uniqueEmail('ghost');
    const a = await anon().post('/api/v1/auth/forgotpassword', { email: user.email });
    const b = await anon().post('/api/v1/auth/forgotpassword', { email: ghost });
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    expect(a.json()).toEqual(CONFIRMATION);
    expect(await mailsTo(ctx, ghost)).toHaveLength(0);
    const mails = await mailsTo(ctx, user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'password-reset', status: 'stored', subject: 'Reset your Dealscout password' });
    expect(mails[0].organization.id).toBe(orgId);
    expect(mails[0].text).toContain('http://localhost:3000/reset-password?token=');
  });

  it('sends no mail to a disabled or deleted user (same answer)', async () => {
    const disabled = await createUser(ctx, orgId, { status: 'disabled' });
    const deleted = await createUser(ctx, orgId, { deleted: true });
    for (const u of [disabled, deleted]) {
      expect((await anon().post('/api/v1/auth/forgotpassword', { email: u.email })).json()).toEqual(CONFIRMATION);
      expect(await mailsTo(ctx, u.email)).toHaveLength(0);
    }
  });

  it("validates the email: required and of email type ('Please type a valid email')", async () => {
    const empty = await anon().post('/api/v1/auth/forgotpassword', { email: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ success: false, message: 'Email is required' });
    const missing = await anon().post('/api/v1/auth/forgotpassword', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Email is required');
    const bad = await anon().post('/api/v1/auth/forgotpassword', { email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please type a valid email');
  });

  it('the token is random (≥128 bits), expires within an hour, and only its hash is stored', async () => {
    const user = await createUser(ctx, orgId);
    const t1 = await requestReset(user.email);
    const t2 = await requestReset(user.email);
    expect(t1).not.toBe(t2);
    for (const t of [t1, t2]) expect(Buffer.from(t, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await ctx
      .em()
      .getConnection()
      .execute<Record<string, unknown>[]>('select * from password_reset where user_id = ?', [user.id]);
    expect(rows).toHaveLength(2);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(t1);
    expect(dump).not.toContain(t2);
    expect(rows.map((r) => r.token_hash).sort()).toEqual([sha256(t1), sha256(t2)].sort());
    for (const r of rows) {
      const ttl = new Date(r.expires_at as string).getTime() - new Date(r.created_at as string).getTime();
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60 * 60_000);
    }
  });

  it('sets the new password, which then signs in (the old one no longer does)', async () => {
    const user = await createUser(ctx, orgId);
    const token = await requestReset(user.email);
    const res = await anon().post('/api/v1/auth/resetpassword', { token, password: 'NewSecret9' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DONE);
    expect(
      (await new TestClient(ctx.app, '10.3.1.1').post('/api/v1/auth/login', { email: user.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(401);
    expect(
      (await new TestClient(ctx.app, '10.3.1.2').post('/api/v1/auth/login', { email: user.email, password: 'NewSecret9' })).statusCode,
    ).toBe(200);
  });

  it('a token works once', async () => {
    const user = await createUser(ctx, orgId);
    const token = await requestReset(user.email);
    expect((await anon().post('/api/v1/auth/resetpassword', { token, password: 'FirstNew1' })).statusCode).toBe(200);
    const again = await anon().post('/api/v1/auth/resetpassword', { token, password: 'SecondNew2' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID_LINK);
    expect(
      (await new TestClient(ctx.app, '10.3.2.1').post('/api/v1/auth/login', { email: user.email, password: 'FirstNew1' })).statusCode,
    ).toBe(200);
  });

  it('of two concurrent uses of one token only one succeeds', async () => {
    const user = await createUser(ctx, orgId);
    const token = await requestReset(user.email);
    // Another transaction holds the reset row, so both uses have read it as unused before either writes.
    const blocker = new pg.Client({ connectionString: ctx.dbUrl });
    await blocker.connect();
    let results: Awaited<ReturnType<TestClient['post']>>[];
    try {
      await blocker.query('begin');
      await blocker.query('select id from password_reset where token_hash = $1 for update', [sha256(token)]);
      let settled = 0;
      const pending = ['RaceOne1', 'RaceTwo2'].map((password) =>
        anon()
          .post('/api/v1/auth/resetpassword', { token, password })
          .finally(() => {
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
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const winner = results[0].statusCode === 200 ? 'RaceOne1' : 'RaceTwo2';
    expect((await new TestClient(ctx.app, '10.3.2.9').post('/api/v1/auth/login', { email: user.email, password: winner })).statusCode).toBe(
      200,
    );
  });

  it('an expired token is refused', async () => {
    const user = await createUser(ctx, orgId);
    const token = await requestReset(user.email);
    await ctx
      .em()
      .getConnection()
      .execute(`update password_reset set expires_at = now() - interval '1 second' where token_hash = ?`, [sha256(token)]);
    const res = await anon().post('/api/v1/auth/resetpassword', { token, password: 'Expired123' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(INVALID_LINK);
    expect(
      (await new TestClient(ctx.app, '10.3.3.1').post('/api/v1/auth/login', { email: user.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('an unknown token is refused', async () => {
    const res = await anon().post('/api/v1/auth/resetpassword', { token: 'x'.repeat(43), password: 'Whatever1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(INVALID_LINK);
  });

  it('a token of a user disabled since is refused', async () => {
    const user = await createUser(ctx, orgId);
    const token = await requestReset(user.email);
    await ctx.em().getConnection().execute(`update app_user set status = 'disabled' where id = ?`, [user.id]);
    const res = await anon().post('/api/v1/auth/resetpassword', { token, password: 'Disabled1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(INVALID_LINK);
  });

  it('ends every existing session of the user, cookie and bearer', async () => {
    const user = await createUser(ctx, orgId);
    const web = await signedIn(ctx, user.email, '10.3.4.1');
    const addin = new TestClient(ctx.app, '10.3.4.2');
    addin.bearer = (await addin.post('/api/v1/auth/token', { email: user.email, password: TEST_PASSWORD })).json().token;
    expect((await web.get('/api/v1/user')).statusCode).toBe(200);
    expect((await addin.get('/api/v1/user')).statusCode).toBe(200);
    const token = await requestReset(user.email);
    expect((await anon().post('/api/v1/auth/resetpassword', { token, password: 'Fresh1234' })).statusCode).toBe(200);
    expect((await web.get('/api/v1/user')).statusCode).toBe(401);
    expect((await addin.get('/api/v1/user')).statusCode).toBe(401);
  });

  it.each([
    ['Ab1', 'Password must be at least 5 characters'],
    ['Abc 1234', 'Password may not contain spaces'],
    ['abc12345', 'Password needs an upper-case letter'],
    ['ABC12345', 'Password needs a lower-case letter'],
    ['Abcdefgh', 'Password needs a digit'],
  ])('the new password %j follows the spec 002 rules: %s', async (password, message) => {
    const user = await createUser(ctx, orgId);
    const token = await requestReset(user.email);
    const res = await anon().post('/api/v1/auth/resetpassword', { token, password });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
    // The refused attempt does not use up the token.
    expect((await anon().post('/api/v1/auth/resetpassword', { token, password: 'Valid1234' })).statusCode).toBe(200);
  });
});
