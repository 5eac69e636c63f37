// The Ocean.io adapter against the loopback fake that follows Ocean's published API.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startFakeOcean, type FakeOceanServer } from '../../../test/fakes/ocean-server';
import { OceanClient } from './ocean';
import { ListProviderError } from './port';

describe('Ocean.io adapter (contract with the fake)', () => {
  let fake: FakeOceanServer;
  beforeAll(async () => {
    fake = await startFakeOcean({ apiToken: 'ocean-token-1234' });
    for (let i = 0; i < 250; i++)
      fake.companies.push({
        domain: `look${i}.example.com`,
        name: `Lookalike ${i}`,
        primaryCountry: 'dk',
        companySize: '11-50',
        industries: ['Software', 'SaaS'],
      });
    fake.missingDomains['unknown.example'] = 'data gathering started';
  });
  afterAll(async () => {
    await fake.close();
  });
  const client = (token = 'ocean-token-1234') => new OceanClient({ apiToken: token, baseUrl: fake.url, timeoutMs: 5_000 });

  it('sends the token as x-api-token and the seeds as companiesFilters.lookalikeDomains; follows searchAfter up to the count asked', async () => {
    fake.requests.length = 0;
    const res = await client().lookalikes(['seed.example.com', 'unknown.example'], 230);
    expect(res.companies).toHaveLength(230);
    expect(res.total).toBe(250);
    expect(res.missing).toEqual({ 'unknown.example': 'data gathering started' });
    expect(res.companies[0]).toMatchObject({
      name: 'Lookalike 0',
      domain: 'look0.example.com',
      website: 'https://look0.example.com',
      data: { country: 'dk', companySize: '11-50', industries: 'Software, SaaS' },
    });
    expect(new Set(res.companies.map((c) => c.domain)).size).toBe(230);
    expect(fake.requests.map((r) => (r.body as { size: number }).size)).toEqual([100, 100, 30]);
    expect(fake.requests[0].headers['x-api-token']).toBe('ocean-token-1234');
    expect((fake.requests[0].body as { companiesFilters: unknown }).companiesFilters).toEqual({
      lookalikeDomains: ['seed.example.com', 'unknown.example'],
    });
    expect((fake.requests[1].body as { searchAfter?: string }).searchAfter).toBeTruthy();
  });

  it('stops when Ocean has no next page', async () => {
    const res = await client().lookalikes(['seed.example.com'], 1000);
    expect(res.companies).toHaveLength(250);
  });

  it('a wrong token is an auth error naming Ocean and never the key', async () => {
    const err = await client('wrong-token')
      .lookalikes(['a.com'], 5)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ListProviderError);
    expect(err.kind).toBe('auth');
    expect(err.message).toContain('Ocean.io refused');
    expect(err.message).toContain('Current API token is not registered');
    expect(err.message).not.toContain('wrong-token');
  });

  it('429 with a short Retry-After is waited out; a long one fails with the wait', async () => {
    fake.failNext({ status: 429, retryAfter: '1' });
    const t0 = Date.now();
    const ok = await client().lookalikes(['a.com'], 3);
    expect(ok.companies).toHaveLength(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    fake.failNext({ status: 429, retryAfter: '120' });
    const err = await client()
      .lookalikes(['a.com'], 3)
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'rate_limited', retryable: true, retryAfterSeconds: 120 });
  });

  it("402 is out of credits; 422 validation detail is a bad request with Ocean's text; 5xx is retryable", async () => {
    fake.failNext({ status: 402 });
    expect(
      await client()
        .lookalikes(['a.com'], 3)
        .catch((e) => e),
    ).toMatchObject({ kind: 'credits', message: 'Ocean.io: Insufficient credits.' });
    const err = await client()
      .lookalikes(
        Array.from({ length: 11 }, (_, i) => `s${i}.com`),
        3,
      )
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'bad_request' });
    expect(err.message).toContain('at most 10 items');
    fake.failNext({ status: 503 });
    expect(
      await client()
        .lookalikes(['a.com'], 3)
        .catch((e) => e),
    ).toMatchObject({ kind: 'provider', retryable: true });
  });

  it('autocomplete answers name and domain suggestions', async () => {
    expect(await client().autocomplete('Lookalike 12')).toEqual(
      expect.arrayContaining([{ name: 'Lookalike 12', domain: 'look12.example.com' }]),
    );
  });
});
