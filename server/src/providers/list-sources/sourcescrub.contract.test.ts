// The Source Scrub adapter against the loopback fake (password grant, bearer token, paging).
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { startFakeSourceScrub, type FakeSourceScrubServer } from '../../../test/fakes/sourcescrub-server';
import { SourceScrubClient, clearSourceScrubTokenCache } from './sourcescrub';

const BASIC = Buffer.from('client:secret').toString('base64');

describe('Source Scrub adapter (contract with the fake)', () => {
  let fake: FakeSourceScrubServer;
  beforeAll(async () => {
    fake = await startFakeSourceScrub({ username: 'ana@fund.example', password: 'pw:with:colons', clientBasic: BASIC });
    for (let i = 0; i < 150; i++)
      fake.companies.push({
        id: `C${i}`,
        name: `Robotics ${i}`,
        website: i % 2 ? `www.robo${i}.example.com` : `https://robo${i}.example.com`,
        city: 'Austin',
        country: 'US',
        currentEmployeeCount: 10 + i,
      });
    fake.sources.push({
      id: 'S1',
      officialTitle: 'Automate 2026 Exhibitors',
      sourceType: 'Conference',
      city: 'Detroit',
      country: 'US',
      endDate: '2026-06-25',
      companyIds: fake.companies.slice(0, 120).map((c) => c.id),
    });
    fake.sources.push({ id: 'S2', officialTitle: 'Inc. 5000 Robotics', sourceType: 'List', companyIds: ['C5', 'C140', 'C141'] });
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => clearSourceScrubTokenCache());
  const client = (password = 'pw:with:colons') =>
    new SourceScrubClient({
      username: 'ana@fund.example',
      password,
      clientBasic: BASIC,
      baseUrl: fake.url,
      identityUrl: fake.url,
      timeoutMs: 5_000,
    });

  it('gets a token by password grant (Basic client credential, scope client_api) and searches sources', async () => {
    fake.requests.length = 0;
    const res = await client().searchSources({ searchText: 'automate' }, 10);
    expect(res).toEqual({
      total: 1,
      sources: [
        {
          id: 'S1',
          title: 'Automate 2026 Exhibitors',
          type: 'Conference',
          location: 'Detroit, US',
          startDate: null,
          endDate: '2026-06-25',
          companyCount: 120,
        },
      ],
    });
    const [token, search] = fake.requests;
    expect(token.path).toBe('/connect/token');
    expect(token.headers.authorization).toBe(`Basic ${BASIC}`);
    expect(token.body).toEqual({ grant_type: 'password', username: 'ana@fund.example', password: 'pw:with:colons', scope: 'client_api' });
    expect(search.headers.authorization).toMatch(/^Bearer /);
  });

  it("pages a source's companies by limit/offset (≤ 100) across sources, up to the count asked", async () => {
    fake.requests.length = 0;
    const res = await client().sourceCompanies(['S1', 'S2'], 122);
    expect(res.companies).toHaveLength(122);
    expect(res.companies[0]).toMatchObject({
      name: 'Robotics 0',
      website: 'https://robo0.example.com',
      domain: 'robo0.example.com',
      data: { sourceScrubId: 'C0', location: 'Austin, US', employees: 10, sourceScrubSourceId: 'S1' },
    });
    expect(res.companies[1]).toMatchObject({ website: 'https://www.robo1.example.com', domain: 'robo1.example.com' });
    expect(res.companies[120]).toMatchObject({ name: 'Robotics 5', data: { sourceScrubSourceId: 'S2' } });
    const calls = fake.requests.filter((r) => r.path.startsWith('/sources/')).map((r) => `${r.path}?${r.query}`);
    expect(calls).toEqual([
      '/sources/S1/companies?limit=100&offset=0',
      '/sources/S1/companies?limit=22&offset=100',
      '/sources/S2/companies?limit=2&offset=0',
    ]);
  });

  it('a company search pages until the total', async () => {
    const res = await client().searchCompanies({ searchText: 'robotics' }, 500);
    expect(res.total).toBe(150);
    expect(res.companies).toHaveLength(150);
  });

  it('one token serves every client of the same account until it nears expiry; other credentials get their own', async () => {
    const before = fake.tokensIssued;
    await client().searchSources({}, 5);
    await client().sourceCompanies(['S2'], 3);
    await client().searchCompanies({ searchText: 'robotics 14' }, 5);
    expect(fake.tokensIssued).toBe(before + 1);
    // The same identity URL written with a trailing slash is the same account: it shares the token.
    const other = new SourceScrubClient({
      username: 'ana@fund.example',
      password: 'pw:with:colons',
      clientBasic: BASIC,
      baseUrl: fake.url,
      identityUrl: `${fake.url}/`,
      timeoutMs: 5_000,
    });
    await other.searchSources({}, 5);
    expect(fake.tokensIssued).toBe(before + 1);
    // A token the server no longer honours is dropped for everyone: the next client gets a new one once.
    fake.expireTokens();
    await client().searchSources({}, 5);
    await client().searchSources({}, 5);
    expect(fake.tokensIssued).toBe(before + 2);
  });

  it('a token that expires within a minute is not kept', async () => {
    const short = await startFakeSourceScrub({
      username: 'ana@fund.example',
      password: 'pw:with:colons',
      clientBasic: BASIC,
      expiresIn: 30,
    });
    short.sources.push({ id: 'S9', officialTitle: 'Short', sourceType: 'List', companyIds: [] });
    const c = () =>
      new SourceScrubClient({
        username: 'ana@fund.example',
        password: 'pw:with:colons',
        clientBasic: BASIC,
        baseUrl: short.url,
        identityUrl: short.url,
        timeoutMs: 5_000,
      });
    await c().searchSources({}, 5);
    await c().searchSources({}, 5);
    expect(short.tokensIssued).toBe(2);
    await short.close();
  });

  it('an expired token (401) is replaced once and the call made again', async () => {
    const c = client();
    await c.searchSources({}, 5);
    const before = fake.tokensIssued;
    fake.expireTokens();
    expect((await c.searchSources({}, 5)).total).toBe(2);
    expect(fake.tokensIssued).toBe(before + 1);
  });

  it('a wrong password is an auth error; 429 with Retry-After is waited out; an unknown source is a bad request', async () => {
    const err = await client('wrong')
      .searchSources({}, 5)
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'auth' });
    expect(err.message).toContain('Source Scrub refused');
    const c = client();
    await c.searchSources({}, 1);
    fake.failNext({ status: 429, retryAfter: '1' });
    expect((await c.searchSources({}, 5)).total).toBe(2);
    fake.failNext({ status: 429, retryAfter: '3600' });
    expect(await c.searchSources({}, 5).catch((e) => e)).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 3600 });
    const missing = await c.sourceCompanies(['nope'], 5).catch((e) => e);
    expect(missing).toMatchObject({ kind: 'bad_request' });
    expect(missing.message).toContain('Source not found.');
  });
});
