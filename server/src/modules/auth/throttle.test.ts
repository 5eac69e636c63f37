import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, createUser, uniqueEmail, TestClient, TEST_PASSWORD, type TestContext } from '../../../test/helpers';

const THROTTLED = 'Too many sign-in attempts. Please wait a few minutes and try again.';
const INVALID = { success: false, message: 'Invalid email or password' };

describe('login throttling (per account and per address)', () => {
  let ctx: TestContext;
  let orgId: string;
  const PER_ACCOUNT = 3;
  const PER_ADDRESS = 6;
  const WINDOW_MINUTES = 15;

  beforeAll(async () => {
    ctx = await createTestApp({
      env: {
        LOGIN_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
        LOGIN_MAX_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
        LOGIN_WINDOW_MINUTES: String(WINDOW_MINUTES),
      },
    });
    orgId = (await createOrg(ctx)).organization.id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const attempt = (email: string, password: string, ip: string, url = '/api/v1/auth/login') =>
    new TestClient(ctx.app, ip).post(url, { email, password });

  function expectThrottled(res: Awaited<ReturnType<typeof attempt>>) {
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ success: false, message: THROTTLED });
    const retry = Number(res.headers['retry-after']);
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(WINDOW_MINUTES * 60);
  }

  it('locks an account after LOGIN_MAX_FAILURES_PER_ACCOUNT failures, from any address, even with the right password', async () => {
    const user = await createUser(ctx, orgId);
    for (let i = 0; i < PER_ACCOUNT; i++) {
      const res = await attempt(user.email, 'Wrong1234', `10.2.0.${i + 1}`);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(INVALID);
    }
    expectThrottled(await attempt(user.email, 'Wrong1234', '10.2.0.50'));
    expectThrottled(await attempt(user.email, TEST_PASSWORD, '10.2.0.51'));
    // The bearer-token exchange counts the same attempts.
    expectThrottled(await attempt(user.email, TEST_PASSWORD, '10.2.0.52', '/api/v1/auth/token'));
    // Other accounts are not affected.
    const other = await createUser(ctx, orgId);
    expect((await attempt(other.email, TEST_PASSWORD, '10.2.0.53')).statusCode).toBe(200);
  });

  it('counts the account by its normalized email', async () => {
    const user = await createUser(ctx, orgId);
    for (let i = 0; i < PER_ACCOUNT; i++)
      await attempt(i % 2 ? user.email.toUpperCase() : ` ${user.email}`, 'Wrong1234', `10.2.1.${i + 1}`);
    expectThrottled(await attempt(user.email, TEST_PASSWORD, '10.2.1.50'));
  });

  it('answers a non-existent account exactly the same way, 429 included', async () => {
    const ghost = uniqueEmail('ghost');
    const real = await createUser(ctx, orgId);
    const answers: { ghost: string[]; real: string[] } = { ghost: [], real: [] };
    for (let i = 0; i <= PER_ACCOUNT; i++) {
      const g = await attempt(ghost, 'Wrong1234', `10.2.2.${i + 1}`);
      const r = await attempt(real.email, 'Wrong1234', `10.2.3.${i + 1}`);
      answers.ghost.push(`${g.statusCode} ${g.body}`);
      answers.real.push(`${r.statusCode} ${r.body}`);
    }
    expect(answers.ghost).toEqual(answers.real);
    expect(answers.ghost.at(-1)).toBe(`429 ${JSON.stringify({ success: false, message: THROTTLED })}`);
  });

  it('a success before the limit clears the account count', async () => {
    const user = await createUser(ctx, orgId);
    for (let i = 0; i < PER_ACCOUNT - 1; i++) await attempt(user.email, 'Wrong1234', '10.2.4.1');
    expect((await attempt(user.email, TEST_PASSWORD, '10.2.4.2')).statusCode).toBe(200);
    for (let i = 0; i < PER_ACCOUNT - 1; i++) expect((await attempt(user.email, 'Wrong1234', '10.2.4.3')).statusCode).toBe(401);
    expect((await attempt(user.email, TEST_PASSWORD, '10.2.4.4')).statusCode).toBe(200);
  });

  it('the lock ends with the window', async () => {
    const user = await createUser(ctx, orgId);
    for (let i = 0; i < PER_ACCOUNT; i++) await attempt(user.email, 'Wrong1234', '10.2.5.1');
    expectThrottled(await attempt(user.email, TEST_PASSWORD, '10.2.5.2'));
    await ctx
      .em()
      .getConnection()
      .execute(`update login_throttle set window_start = now() - interval '${WINDOW_MINUTES + 1} minutes' where key = ?`, [
        `acct:${user.email}`,
      ]);
    expect((await attempt(user.email, TEST_PASSWORD, '10.2.5.3')).statusCode).toBe(200);
  });

  it('locks an address after LOGIN_MAX_FAILURES_PER_ADDRESS failures across many accounts', async () => {
    const ip = '10.2.9.9';
    const victim = await createUser(ctx, orgId);
    for (let i = 0; i < PER_ADDRESS; i++) {
      // A different account each time, so no account reaches its own limit.
      const res = await attempt(uniqueEmail('spray'), 'Wrong1234', ip);
      expect(res.statusCode).toBe(401);
    }
    expectThrottled(await attempt(uniqueEmail('spray'), 'Wrong1234', ip));
    expectThrottled(await attempt(victim.email, 'Wrong1234', ip));
    // The same account from another address still signs in.
    expect((await attempt(victim.email, TEST_PASSWORD, '10.2.9.10')).statusCode).toBe(200);
  });

  it("a correct password signs in from a throttled address (users behind one proxy are not locked out by others' guesses)", async () => {
    const ip = '10.2.10.1';
    for (let i = 0; i < PER_ADDRESS; i++) expect((await attempt(uniqueEmail('spray'), 'Wrong1234', ip)).statusCode).toBe(401);
    expectThrottled(await attempt(uniqueEmail('spray'), 'Wrong1234', ip));
    const colleague = await createUser(ctx, orgId);
    const res = await attempt(colleague.email, TEST_PASSWORD, ip);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, user: { email: colleague.email } });
    // The bearer-token exchange too.
    expect((await attempt(colleague.email, TEST_PASSWORD, ip, '/api/v1/auth/token')).statusCode).toBe(200);
    // The address stays throttled for wrong passwords, and its count stays at the limit.
    expectThrottled(await attempt(uniqueEmail('spray'), 'Wrong1234', ip));
    const [row] = await ctx
      .em()
      .getConnection()
      .execute<{ failures: number }[]>('select failures from login_throttle where key = ?', [`addr:${ip}`]);
    expect(row.failures).toBe(PER_ADDRESS);
  });

  it('from a throttled address the account limit still holds: wrong passwords count against the account, then even the correct one is refused', async () => {
    const ip = '10.2.11.1';
    for (let i = 0; i < PER_ADDRESS; i++) await attempt(uniqueEmail('spray'), 'Wrong1234', ip);
    const victim = await createUser(ctx, orgId);
    for (let i = 0; i < PER_ACCOUNT; i++) expectThrottled(await attempt(victim.email, 'Wrong1234', ip));
    expectThrottled(await attempt(victim.email, TEST_PASSWORD, ip));
    // The account's lock holds from every address, like any account lock.
    expectThrottled(await attempt(victim.email, TEST_PASSWORD, '10.2.11.2'));
    const [row] = await ctx
      .em()
      .getConnection()
      .execute<{ failures: number }[]>('select failures from login_throttle where key = ?', [`acct:${victim.email}`]);
    expect(row.failures).toBe(PER_ACCOUNT);
  });

  it('keeps the counts in the database (shared by every API process), never a password', async () => {
    const rows = await ctx.em().getConnection().execute<{ key: string; failures: number }[]>('select key, failures from login_throttle');
    expect(rows.some((r) => r.key.startsWith('acct:'))).toBe(true);
    expect(rows.some((r) => r.key === 'addr:10.2.9.9' && r.failures >= PER_ADDRESS)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('Wrong1234');
  });
});

describe('login throttling under parallel attempts', () => {
  let ctx: TestContext;
  let orgId: string;
  const PER_ACCOUNT = 3;
  const PER_ADDRESS = 5;
  const PARALLEL = 30;

  beforeAll(async () => {
    ctx = await createTestApp({
      env: {
        LOGIN_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
        LOGIN_MAX_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
        LOGIN_WINDOW_MINUTES: '15',
      },
    });
    orgId = (await createOrg(ctx)).organization.id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const attempt = (email: string, password: string, ip: string) =>
    new TestClient(ctx.app, ip).post('/api/v1/auth/login', { email, password });

  it(`${PARALLEL} parallel attempts on one account (one with the right password) let at most LOGIN_MAX_FAILURES_PER_ACCOUNT through`, async () => {
    const user = await createUser(ctx, orgId);
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => attempt(user.email, i === PARALLEL - 1 ? TEST_PASSWORD : 'Wrong1234', `10.3.0.${i + 1}`)),
    );
    const through = results.filter((r) => r.statusCode !== 429);
    expect(through.length).toBeLessThanOrEqual(PER_ACCOUNT);
    expect(results.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(PARALLEL - PER_ACCOUNT);
    for (const r of results) expect([200, 401, 429]).toContain(r.statusCode);
    const [row] = await ctx
      .em()
      .getConnection()
      .execute<{ failures: number }[]>('select failures from login_throttle where key = ?', [`acct:${user.email}`]);
    expect(row?.failures ?? 0).toBeLessThanOrEqual(PER_ACCOUNT);
  });

  it(`${PARALLEL} parallel attempts from one address on different accounts let at most LOGIN_MAX_FAILURES_PER_ADDRESS through`, async () => {
    const ip = '10.3.1.1';
    const results = await Promise.all(Array.from({ length: PARALLEL }, () => attempt(uniqueEmail('spray'), 'Wrong1234', ip)));
    expect(results.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(PER_ADDRESS);
    expect(results.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(PARALLEL - PER_ADDRESS);
    const [row] = await ctx
      .em()
      .getConnection()
      .execute<{ failures: number }[]>('select failures from login_throttle where key = ?', [`addr:${ip}`]);
    expect(row.failures).toBeLessThanOrEqual(PER_ADDRESS);
  });

  it('a successful sign-in does not use up the address allowance', async () => {
    const ip = '10.3.2.1';
    const user = await createUser(ctx, orgId);
    for (let i = 0; i < PER_ADDRESS + 2; i++) expect((await attempt(user.email, TEST_PASSWORD, ip)).statusCode).toBe(200);
  });
});
