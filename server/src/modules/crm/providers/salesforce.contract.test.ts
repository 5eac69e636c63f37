// Contract: the Salesforce adapter (jsforce) against the loopback fake that follows Salesforce's
// documented OAuth web-server flow with PKCE, identity, describe, SOQL paging and error shapes.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { FakeSalesforce } from '../../../../test/fakes/salesforce-server';
import {
  SALESFORCE_API_VERSION,
  SalesforceClient,
  SalesforceError,
  authorizationUrl,
  exchangeCode,
  type SalesforceAppConfig,
} from './salesforce';
import { pkcePair } from '../../../../test/pkce';

describe('Salesforce adapter contract (fake Salesforce)', () => {
  let sf: FakeSalesforce;
  let cfg: SalesforceAppConfig;

  beforeAll(async () => {
    sf = await FakeSalesforce.start({ clientId: 'client-1', clientSecret: 'secret-1', pageSize: 3 });
    cfg = {
      clientId: 'client-1',
      clientSecret: 'secret-1',
      loginUrl: sf.url,
      redirectUri: 'http://localhost:3000/api/v1/integrations/salesforce/callback',
    };
  });
  afterAll(async () => {
    await sf?.close();
  });

  /** Walks the consent page as a browser would: GET the authorize URL, then POST Allow. */
  async function authorize(url: string, decision = 'allow'): Promise<URL> {
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Allow Access?');
    const q = new URL(url).searchParams;
    const form = new URLSearchParams({
      client_id: q.get('client_id')!,
      redirect_uri: q.get('redirect_uri')!,
      state: q.get('state')!,
      code_challenge: q.get('code_challenge')!,
      decision,
    });
    const res = await fetch(`${sf.url}/services/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  async function connected() {
    const { verifier, challenge } = await pkcePair();
    const back = await authorize(authorizationUrl(cfg, 'state-1', challenge));
    return { tokens: await exchangeCode(cfg, back.searchParams.get('code')!, verifier) };
  }

  it('web-server flow with PKCE: authorize URL, consent, code exchange with the verifier, identity', async () => {
    const { verifier, challenge } = await pkcePair();
    const url = new URL(authorizationUrl(cfg, 'st-42', challenge));
    expect(url.origin + url.pathname).toBe(`${sf.url}/services/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'client-1',
      redirect_uri: cfg.redirectUri,
      state: 'st-42',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const back = await authorize(url.toString());
    expect(back.searchParams.get('state')).toBe('st-42');
    const tokens = await exchangeCode(cfg, back.searchParams.get('code')!, verifier);
    expect(tokens.instanceUrl).toBe(sf.url);
    expect(tokens.refreshToken).toBeTruthy();
    const client = new SalesforceClient(cfg, tokens);
    const me = await client.identity(tokens.identityUrl);
    expect(me).toMatchObject({ username: sf.username, organizationId: sf.orgId, userId: sf.userId });
  });

  it("a wrong verifier, a reused code and a denied consent fail in Salesforce's terms", async () => {
    const { verifier, challenge } = await pkcePair();
    const back = await authorize(authorizationUrl(cfg, 's', challenge));
    const code = back.searchParams.get('code')!;
    await expect(exchangeCode(cfg, code, (await pkcePair()).verifier)).rejects.toMatchObject({ errorCode: 'invalid_grant' });
    await expect(exchangeCode(cfg, code, verifier)).rejects.toMatchObject({ errorCode: 'invalid_grant' });
    const denied = await authorize(authorizationUrl(cfg, 's2', challenge), 'deny');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('s2');
  });

  it('describe lists fields; SOQL pages through nextRecordsUrl on the pinned version', async () => {
    for (let i = 0; i < 7; i += 1) sf.addRecord('Account', { Name: `Acme ${i}`, Website: `acme${i}.example.com` });
    const { tokens } = await connected();
    const client = new SalesforceClient(cfg, tokens);
    const fields = await client.describe('Account');
    expect(fields.find((f) => f.name === 'Website')).toMatchObject({ label: 'Website', type: 'url', updateable: true });
    const first = await client.queryPage<{ Id: string; Name: string }>({ soql: 'SELECT Id, Name FROM Account ORDER BY Id' });
    expect(first).toMatchObject({ totalSize: 7, done: false });
    expect(first.records).toHaveLength(3);
    expect(first.records[0]).not.toHaveProperty('attributes');
    expect(first.nextRecordsUrl).toMatch(new RegExp(`^/services/data/v${SALESFORCE_API_VERSION.replace('.', '\\.')}/query/`));
    const all = await client.queryAll<{ Id: string; Name: string }>('SELECT Id, Name FROM Account ORDER BY Id');
    expect(all).toHaveLength(7);
    expect(new Set(all.map((r) => r.Id)).size).toBe(7);
    expect(
      sf.requests
        .filter((r) => r.path.startsWith('/services/data/'))
        .every((r) => r.path.startsWith(`/services/data/v${SALESFORCE_API_VERSION}/`)),
    ).toBe(true);
    expect(client.limitInfo?.limit).toBe(15000);
    await expect(client.queryPage({ soql: 'SELECT Id, Nope FROM Account' })).rejects.toMatchObject({ errorCode: 'INVALID_FIELD' });
  });

  it('finds a user by username (case-insensitive, quotes escaped); unknown → null', async () => {
    sf.addUser("o'brien@acme.example.com", "Pat O'Brien");
    const { tokens } = await connected();
    const client = new SalesforceClient(cfg, tokens);
    expect(await client.findUserByUsername(sf.username.toUpperCase())).toMatchObject({ id: sf.userId, active: true });
    expect(await client.findUserByUsername("o'brien@acme.example.com")).toMatchObject({ name: "Pat O'Brien" });
    expect(await client.findUserByUsername("x' OR Username != 'y")).toBeNull();
    expect(await client.findUserByUsername('nobody@acme.example.com')).toBeNull();
  });

  it('an expired session is refreshed with the refresh token once, and the new token reported', async () => {
    const { tokens } = await connected();
    const refreshed: string[] = [];
    const client = new SalesforceClient(cfg, tokens, (t) => {
      refreshed.push(t);
    });
    sf.expireAccessTokens();
    const fields = await client.describe('Contact');
    expect(fields.map((f) => f.name)).toContain('Email');
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]).not.toBe(tokens.accessToken);
    expect(client.accessToken).toBe(refreshed[0]);
    // Only a refresh token (as stored): the first call gets an access token on its own.
    const cold = new SalesforceClient(cfg, { accessToken: null, refreshToken: tokens.refreshToken, instanceUrl: tokens.instanceUrl });
    expect((await cold.describe('Account')).length).toBeGreaterThan(0);
  });

  it('a revoked refresh token fails as lost authorization; REQUEST_LIMIT_EXCEEDED as rate limited', async () => {
    const { tokens } = await connected();
    const client = new SalesforceClient(cfg, tokens);
    const before = sf.apiRequests;
    sf.requestLimit = before;
    const err = await client.describe('Account').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SalesforceError);
    expect((err as SalesforceError).errorCode).toBe('REQUEST_LIMIT_EXCEEDED');
    expect((err as SalesforceError).rateLimited).toBe(true);
    sf.requestLimit = 15000;
    sf.revokeRefreshTokens();
    const lost = await client.describe('Account').catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(SalesforceError);
    expect(
      (lost as SalesforceError).authorizationLost,
      JSON.stringify({ code: (lost as SalesforceError).errorCode, m: (lost as Error).message }),
    ).toBe(true);
  });
});
