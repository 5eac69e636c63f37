// Connecting a CRM through the real app and database against the loopback fakes: Salesforce's OAuth
// web-server flow with PKCE (production or sandbox login), Affinity's API key; one active CRM at a
// time; secrets encrypted; admin only; another organization's ids answer 404.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CRM_MESSAGES, type IntegrationDto } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../../test/helpers';
import { FakeSalesforce } from '../../../../test/fakes/salesforce-server';
import { FakeAffinity } from '../../../../test/fakes/affinity-server';
import { Integration } from '../../integrations/integration.entity';
import { decryptSecret } from '../../../lib/secrets';
import { salesforceClientFor } from './crm-connect';

const AFF_KEY = 'affinity-key-0123456789abcdef';

describe('CRM integrations: Salesforce (OAuth + PKCE) and Affinity (API key)', () => {
  let ctx: TestContext;
  let prod: FakeSalesforce;
  let sandbox: FakeSalesforce;
  let aff: FakeAffinity;
  let admin: TestClient;
  let member: TestClient;
  let orgId: string;
  let other: TestClient;

  beforeAll(async () => {
    prod = await FakeSalesforce.start({ clientId: 'sf-client', clientSecret: 'sf-secret' });
    sandbox = await FakeSalesforce.start({ clientId: 'sf-client', clientSecret: 'sf-secret', username: 'admin@acme.example.com.sandbox' });
    aff = await FakeAffinity.start({ apiKeys: [AFF_KEY, `${AFF_KEY}-2`] });
    const hosts = [prod.url, sandbox.url, aff.url].map((u) => new URL(u).host).join(',');
    ctx = await createTestApp({
      env: {
        SALESFORCE_CLIENT_ID: 'sf-client',
        SALESFORCE_CLIENT_SECRET: 'sf-secret',
        SALESFORCE_LOGIN_URL: prod.url,
        SALESFORCE_SANDBOX_LOGIN_URL: sandbox.url,
        AFFINITY_BASE_URL: aff.url,
        OUTBOUND_ALLOWED_PRIVATE_HOSTS: hosts,
      },
    });
    const a = await createOrg(ctx, { name: 'Alpha' });
    orgId = a.organization.id;
    admin = await signedIn(ctx, a.admin.email);
    member = await signedIn(ctx, (await createUser(ctx, orgId, { role: 'User' })).email);
    other = await signedIn(ctx, (await createOrg(ctx, { name: 'Beta' })).admin.email);
  });
  afterAll(async () => {
    await ctx?.close();
    await prod?.close();
    await sandbox?.close();
    await aff?.close();
  });

  const list = async (c: TestClient): Promise<IntegrationDto[]> => {
    const res = await c.get('/api/v1/integration');
    expect(res.statusCode).toBe(200);
    return res.json().integrations as IntegrationDto[];
  };
  const crm = async (c: TestClient, provider: string) => (await list(c)).find((i) => i.provider === provider);

  /** The browser's part: the consent page at the fake, Allow (or Deny), back to our callback with the session cookie. */
  async function consent(authorizationUrl: string, decision: 'allow' | 'deny' = 'allow', via = admin) {
    const url = new URL(authorizationUrl);
    const page = await fetch(url);
    expect(await page.text()).toContain('Allow Access?');
    const form = new URLSearchParams({ ...Object.fromEntries(url.searchParams), decision });
    const res = await fetch(`${url.origin}/services/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    const back = new URL(res.headers.get('location')!);
    expect(back.pathname).toBe('/api/v1/integrations/salesforce/callback');
    const cb = await via.get(`${back.pathname}${back.search}`);
    return { status: cb.statusCode, location: cb.statusCode === 302 ? new URL(cb.headers.location as string) : null, body: cb.body };
  }

  it('Salesforce: 201 with the authorization URL (PKCE S256) for the chosen login; inactive until the callback; then active with the account', async () => {
    const start = await admin.post('/api/v1/organization/integration', { provider: 'salesforce', environment: 'sandbox' });
    expect(start.statusCode).toBe(201);
    const { authorizationUrl, integration } = start.json() as { authorizationUrl: string; integration: IntegrationDto };
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(sandbox.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/v1/integrations/salesforce/callback');
    expect(integration.data.active).toBe(false);
    expect((await crm(member, 'salesforce'))?.data.active).toBe(false);

    const done = await consent(authorizationUrl);
    expect(done.status).toBe(302);
    expect(done.location?.pathname).toBe('/organization/settings');
    expect(done.location?.searchParams.get('crm')).toBe('salesforce');
    const sf = (await crm(member, 'salesforce'))!;
    expect(sf.data).toMatchObject({ active: true, name: 'Salesforce', createdBy: { firstName: expect.any(String) }, expiresAt: null });
    expect(sf.data.metadata).toMatchObject({
      name: sandbox.username,
      username: sandbox.username,
      environment: 'sandbox',
      instanceUrl: sandbox.url,
    });
    expect(JSON.stringify(await list(admin))).not.toMatch(/refresh|verifier|pending|5Aep/);
    // The refresh token is stored encrypted with the organization as context, and works.
    const row = await ctx.em().findOneOrFail(Integration, { id: sf.id }, { filters: false });
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain('5Aep');
    expect(JSON.parse(decryptSecret(row.secret!, ctx.config.SECRETS_KEY, orgId)).refreshToken).toMatch(/^5Aep/);
    expect(() => decryptSecret(row.secret!, ctx.config.SECRETS_KEY, 'another-org')).toThrow();
    sandbox.expireAccessTokens();
    const em = ctx.em();
    em.setFilterParams('tenant', { organizationId: orgId });
    const client = salesforceClientFor(em, ctx.config, await em.findOneOrFail(Integration, { id: sf.id }));
    expect((await client.describe('Account')).length).toBeGreaterThan(0);
    // The refreshed access token was stored (encrypted) for the next call.
    await new Promise((r) => setTimeout(r, 50));
    const after = await ctx.em().findOneOrFail(Integration, { id: sf.id }, { filters: false });
    expect(JSON.parse(decryptSecret(after.secret!, ctx.config.SECRETS_KEY, orgId)).accessToken).toBe(client.accessToken);
  });

  it('Salesforce callback: a wrong state, a replayed state and a denied consent change nothing and say why', async () => {
    const before = await crm(admin, 'salesforce');
    const wrong = await admin.get('/api/v1/integrations/salesforce/callback?code=abc&state=forged');
    expect(wrong.statusCode).toBe(302);
    expect(new URL(wrong.headers.location as string).searchParams.get('crmError')).toBe(CRM_MESSAGES.authorizationExpired);
    const start = await admin.post('/api/v1/organization/integration', { provider: 'salesforce' });
    const url = new URL(start.json().authorizationUrl as string);
    expect(url.origin).toBe(prod.url);
    const denied = await consent(url.toString(), 'deny');
    expect(denied.location?.searchParams.get('crmError')).toBe(CRM_MESSAGES.authorizationDenied);
    const replay = await admin.get(`/api/v1/integrations/salesforce/callback?code=x&state=${url.searchParams.get('state')}`);
    expect(new URL(replay.headers.location as string).searchParams.get('crmError')).toBe(CRM_MESSAGES.authorizationExpired);
    expect(await crm(admin, 'salesforce')).toEqual(before);
  });

  it(
    'one active CRM at a time: Affinity is refused while Salesforce is active; pausing Salesforce lets Affinity ' +
      'in, and then Salesforce is refused',
    async () => {
      const sf = (await crm(admin, 'salesforce'))!;
      const refused = await admin.post('/api/v1/organization/integration', { provider: 'affinity', apiKey: AFF_KEY });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(CRM_MESSAGES.otherCrmActive('Salesforce'));
      const paused = await admin.put(`/api/v1/integrations/${sf.id}`, { active: false });
      expect(paused.statusCode).toBe(200);
      expect(paused.json().integration.data.active).toBe(false);
      const connected = await admin.post('/api/v1/organization/integration', { provider: 'affinity', apiKey: AFF_KEY });
      expect(connected.statusCode).toBe(201);
      expect(connected.json().message).toBe('Affinity connected');
      const again = await admin.post('/api/v1/organization/integration', { provider: 'salesforce' });
      expect(again.json().message).toBe(CRM_MESSAGES.otherCrmActive('Affinity'));
      const resume = await admin.put(`/api/v1/integrations/${sf.id}`, { active: true });
      expect(resume.statusCode).toBe(400);
      expect(resume.json().message).toBe(CRM_MESSAGES.otherCrmActive('Affinity'));
    },
  );

  it('Affinity: the key is checked with whoami (basic auth), stored encrypted, shown as the tenant and user; a refused key changes nothing', async () => {
    const a = (await crm(admin, 'affinity'))!;
    expect(a.data).toMatchObject({
      active: true,
      name: 'Acme Capital',
      metadata: {
        name: 'Acme Capital',
        username: 'alex@acmecapital.example.com',
        instanceUrl: 'https://acmecapital.affinity.co',
        keyHint: 'cdef',
      },
    });
    const row = await ctx.em().findOneOrFail(Integration, { id: a.id }, { filters: false });
    expect(row.secret).not.toContain(AFF_KEY);
    expect(decryptSecret(row.secret!, ctx.config.SECRETS_KEY, orgId)).toBe(AFF_KEY);

    const bad = await admin.put(`/api/v1/integrations/${a.id}`, { apiKey: 'not-a-key' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(CRM_MESSAGES.affinityKeyRefused);
    expect(
      decryptSecret((await ctx.em().findOneOrFail(Integration, { id: a.id }, { filters: false })).secret!, ctx.config.SECRETS_KEY, orgId),
    ).toBe(AFF_KEY);
    const renamed = await admin.put(`/api/v1/integrations/${a.id}`, { apiKey: `${AFF_KEY}-2`, name: 'Deal team Affinity' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().integration.data.name).toBe('Deal team Affinity');
    expect(
      decryptSecret((await ctx.em().findOneOrFail(Integration, { id: a.id }, { filters: false })).secret!, ctx.config.SECRETS_KEY, orgId),
    ).toBe(`${AFF_KEY}-2`);

    aff.limitNext(2, 1);
    const limited = await admin.put(`/api/v1/integrations/${a.id}`, { apiKey: AFF_KEY });
    expect(limited.statusCode).toBe(400);
    expect(limited.json().message).toBe(CRM_MESSAGES.rateLimited('Affinity'));
  });

  it('validation messages; admin only; another organization gets 404', async () => {
    const cases: Array<[unknown, string]> = [
      [{ provider: 'affinity' }, 'API key is required'],
      [{ provider: 'affinity', apiKey: '   ' }, 'API key is required'],
      [{ provider: 'salesforce', environment: 'staging' }, 'Environment must be production or sandbox'],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/v1/organization/integration', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const a = (await crm(admin, 'affinity'))!;
    expect((await admin.put(`/api/v1/integrations/${a.id}`, { name: '' })).json().message).toBe('Name is required');
    expect((await member.post('/api/v1/organization/integration', { provider: 'affinity', apiKey: AFF_KEY })).statusCode).toBe(403);
    expect((await member.put(`/api/v1/integrations/${a.id}`, { name: 'Mine' })).statusCode).toBe(403);
    expect((await member.get('/api/v1/integrations/salesforce/callback?code=a&state=b')).statusCode).toBe(403);
    expect((await other.put(`/api/v1/integrations/${a.id}`, { name: 'Theirs' })).statusCode).toBe(404);
    expect((await other.del(`/api/v1/organization/integration/${a.id}`)).statusCode).toBe(404);
    expect(await list(other)).toEqual([]);
    expect((await crm(admin, 'affinity'))!.data.name).toBe('Deal team Affinity');
  });

  it('removing Salesforce revokes its refresh token at Salesforce', async () => {
    const a = (await crm(admin, 'affinity'))!;
    expect((await admin.del(`/api/v1/organization/integration/${a.id}`)).statusCode).toBe(200);
    const sf = (await crm(admin, 'salesforce'))!;
    expect((await admin.del(`/api/v1/organization/integration/${sf.id}`)).statusCode).toBe(200);
    expect(sandbox.requests.some((r) => r.path === '/services/oauth2/revoke')).toBe(true);
    expect(await list(admin)).toEqual([]);
  });
});

describe('Salesforce without a connected app configured', () => {
  let ctx: TestContext;
  afterAll(async () => {
    await ctx?.close();
  });
  it('says the operator must set SALESFORCE_CLIENT_ID', async () => {
    ctx = await createTestApp();
    const admin = await signedIn(ctx, (await createOrg(ctx)).admin.email);
    const res = await admin.post('/api/v1/organization/integration', { provider: 'salesforce' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(CRM_MESSAGES.salesforceNotConfigured);
  });
});
