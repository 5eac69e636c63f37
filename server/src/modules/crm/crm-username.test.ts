// CRM username (001 §5): checked against the active CRM (the fakes of Salesforce and Affinity),
// USER_AVAILABLE / USER_UNAVAILABLE / USER_INVALID with the spec's messages; linked once, never changed.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CRM_USERNAME_MESSAGES } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { FakeSalesforce } from '../../../test/fakes/salesforce-server';
import { FakeAffinity } from '../../../test/fakes/affinity-server';

const AFF_KEY = 'affinity-key-0123456789abcdef';

describe('CRM username', () => {
  let ctx: TestContext;
  let sf: FakeSalesforce;
  let aff: FakeAffinity;
  let admin: TestClient;
  let rep: TestClient;
  let rep2: TestClient;
  let rep3: TestClient;
  let affAdmin: TestClient;
  let noCrm: TestClient;

  beforeAll(async () => {
    sf = await FakeSalesforce.start({ clientId: 'sf-client' });
    aff = await FakeAffinity.start({ apiKeys: [AFF_KEY] });
    ctx = await createTestApp({
      env: {
        SALESFORCE_CLIENT_ID: 'sf-client',
        SALESFORCE_LOGIN_URL: sf.url,
        AFFINITY_BASE_URL: aff.url,
        OUTBOUND_ALLOWED_PRIVATE_HOSTS: [sf.url, aff.url].map((u) => new URL(u).host).join(','),
      },
    });
    const a = await createOrg(ctx, { name: 'Alpha' });
    admin = await signedIn(ctx, a.admin.email);
    rep = await signedIn(ctx, (await createUser(ctx, a.organization.id, { role: 'User' })).email);
    rep2 = await signedIn(ctx, (await createUser(ctx, a.organization.id, { role: 'User' })).email);
    rep3 = await signedIn(ctx, (await createUser(ctx, a.organization.id, { role: 'User' })).email);
    // Alpha connects Salesforce through the consent page.
    const start = await admin.post('/api/v1/organization/integration', { provider: 'salesforce' });
    const url = new URL(start.json().authorizationUrl as string);
    const res = await fetch(`${sf.url}/services/oauth2/authorize`, {
      method: 'POST',
      body: new URLSearchParams({ ...Object.fromEntries(url.searchParams), decision: 'allow' }),
      redirect: 'manual',
    });
    const back = new URL(res.headers.get('location')!);
    expect(new URL((await admin.get(`${back.pathname}${back.search}`)).headers.location as string).searchParams.get('crm')).toBe(
      'salesforce',
    );
    sf.addUser('rep@acme.example.com', 'Rita Rep');
    sf.addUser('gone@acme.example.com', 'Gone Rep', undefined, false);
    sf.addUser('race@acme.example.com', 'Race Rep');
    const c = await createOrg(ctx, { name: 'Gamma' });
    affAdmin = await signedIn(ctx, c.admin.email);
    expect((await affAdmin.post('/api/v1/organization/integration', { provider: 'affinity', apiKey: AFF_KEY })).statusCode).toBe(201);
    aff.addPerson('Ext', 'Ernal', 'ext@else.example.com');
    noCrm = await signedIn(ctx, (await createOrg(ctx, { name: 'Beta' })).admin.email);
  });
  afterAll(async () => {
    await ctx?.close();
    await sf?.close();
    await aff?.close();
  });

  const check = async (c: TestClient, username: string) => {
    const res = await c.post('/api/v1/crm/username/check', { username });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { status: string; message: string | null };
  };

  it('without an active CRM: the spec message; the settings say which CRM (none)', async () => {
    const res = await noCrm.post('/api/v1/crm/username/check', { username: 'a@b.co' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(CRM_USERNAME_MESSAGES.notEnabled);
    expect((await noCrm.get('/api/v1/crm/user-settings')).json().settings).toEqual({
      provider: null,
      crmName: null,
      crmUserId: null,
      crmUsername: null,
      linkedAt: null,
    });
  });

  it('Salesforce: not an email, unknown and inactive users are USER_INVALID; an active free user is USER_AVAILABLE', async () => {
    expect(await check(rep, 'not-an-email')).toEqual({ success: true, status: 'USER_INVALID', message: CRM_USERNAME_MESSAGES.invalid });
    expect((await check(rep, 'nobody@acme.example.com')).status).toBe('USER_INVALID');
    expect((await check(rep, 'gone@acme.example.com')).status).toBe('USER_INVALID');
    expect(await check(rep, 'REP@acme.example.com')).toEqual({ success: true, status: 'USER_AVAILABLE', message: null });
    expect((await rep.post('/api/v1/crm/username/check', { username: '' })).json().message).toBe('Username is required');
  });

  it('links once (201); never changed afterwards (409); the CRM user is then USER_UNAVAILABLE for everyone else', async () => {
    const linked = await rep.post('/api/v1/crm/user-settings', { username: 'rep@acme.example.com' });
    expect(linked.statusCode).toBe(201);
    expect(linked.json().settings).toMatchObject({
      provider: 'salesforce',
      crmName: 'Salesforce',
      crmUsername: 'rep@acme.example.com',
      crmUserId: expect.stringMatching(/^005/),
    });
    const again = await rep.post('/api/v1/crm/user-settings', { username: sf.username });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CRM_USERNAME_MESSAGES.alreadyLinked);
    expect((await rep.get('/api/v1/crm/user-settings')).json().settings.crmUsername).toBe('rep@acme.example.com');
    expect(await check(admin, 'rep@acme.example.com')).toEqual({
      success: true,
      status: 'USER_UNAVAILABLE',
      message: CRM_USERNAME_MESSAGES.unavailable,
    });
    expect((await check(rep, 'rep@acme.example.com')).status).toBe('USER_AVAILABLE');
    const taken = await admin.post('/api/v1/crm/user-settings', { username: 'rep@acme.example.com' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().message).toBe(CRM_USERNAME_MESSAGES.unavailable);
    expect((await admin.get('/api/v1/crm/user-settings')).json().settings.crmUsername).toBeNull();
  });

  it('two users linking the same CRM user at once: exactly one wins', async () => {
    const [x, y] = await Promise.all([rep2, rep3].map((c) => c.post('/api/v1/crm/user-settings', { username: 'race@acme.example.com' })));
    expect([x.statusCode, y.statusCode].sort()).toEqual([201, 400]);
    expect([x, y].find((r) => r.statusCode === 400)!.json().message).toBe(CRM_USERNAME_MESSAGES.unavailable);
  });

  it('Affinity: a user of the instance is USER_AVAILABLE, an external person USER_INVALID; another organization sees none of it', async () => {
    expect((await check(affAdmin, 'alex@acmecapital.example.com')).status).toBe('USER_AVAILABLE');
    expect((await check(affAdmin, 'ext@else.example.com')).status).toBe('USER_INVALID');
    const res = await affAdmin.post('/api/v1/crm/user-settings', { username: 'alex@acmecapital.example.com' });
    expect(res.statusCode).toBe(201);
    expect(res.json().settings).toMatchObject({ provider: 'affinity', crmUserId: '77' });
    // Alpha's link of the same kind of id is its own.
    expect((await check(admin, 'rep@acme.example.com')).status).toBe('USER_UNAVAILABLE');
    expect((await noCrm.get('/api/v1/crm/user-settings')).json().settings.crmUsername).toBeNull();
  });
});
