import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MixRankCompanyDetails, normalizeDomain, normalizeLinkedInCompanyUrl } from './mixrank';
import { CompanyDetailsError, COMPANY_INFO_FIELDS } from './port';
import {
  lookupCompanyDetails,
  AgentError,
  COMPANY_DETAILS_NOT_CONFIGURED,
  COMPANY_DETAILS_NOT_FOUND,
  COMPANY_DETAILS_BAD_QUERY,
} from '../../modules/enrichments/agents';
import { startFakeMixRank, type FakeMixRankServer } from '../../../test/fakes/mixrank-server';

let fake: FakeMixRankServer;
beforeAll(async () => {
  fake = await startFakeMixRank({ apiKey: 'mx-secret' });
  fake.add({
    id: 4711,
    name: 'Acme Corporation',
    domain: 'acme.com',
    website: 'https://www.acme.com',
    linkedin_url: 'https://www.linkedin.com/company/acme-corp',
    description: 'Anvils and other fine products.',
    founded_year: '1947',
    employee_count: '1,250',
    employee_range: { start: 1001, end: 5000 },
    company_type: 'Privately Held',
    location: { country: 'United States', city: 'Phoenix' },
    linkedin_follower_count: 38211,
  });
  fake.add({
    id: 'b-2',
    name: 'Beta GmbH',
    domain: 'beta.de',
    linkedin_url: 'https://www.linkedin.com/company/beta-gmbh',
    founded: 2011,
    employees: 40,
    size: '11-50',
    type: 'Public Company',
    country: 'Germany',
    followers: '900',
  });
});
afterAll(() => fake?.close());

const client = () => new MixRankCompanyDetails({ apiKey: 'mx-secret', baseUrl: fake.url });

async function failure<E>(p: Promise<unknown>, type: new (...a: never[]) => E): Promise<E> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  return err as E;
}

describe('MixRank company details adapter', () => {
  it('matches by website, reads the profile and fills the built-in company info fields (numbers numeric)', async () => {
    const { company, source } = await client().lookup({ website: 'https://www.Acme.com/about-us?ref=x' });
    expect(company).toEqual({
      url: 'https://www.linkedin.com/company/acme-corp',
      name: 'Acme Corporation',
      size: '1001-5000',
      type: 'Privately Held',
      country: 'United States',
      founded: 1947,
      website: 'https://www.acme.com',
      description: 'Anvils and other fine products.',
      employee_count: 1250,
      follower_count: 38211,
    });
    expect(Object.keys(company).sort()).toEqual([...COMPANY_INFO_FIELDS].sort());
    expect(source).toBe('https://www.linkedin.com/company/acme-corp');
    const [match, profile] = fake.requests.slice(-2);
    expect(match.path).toBe('/v2/json/mx-secret/companies/match');
    expect(match.query.get('url')).toBe('https://acme.com/');
    expect(profile.path).toBe('/v2/json/mx-secret/companies/4711');
  });

  it('matches by LinkedIn URL', async () => {
    const { company } = await client().lookup({ linkedinUrl: 'linkedin.com/company/beta-gmbh/about/' });
    expect(fake.requests.at(-2)!.query.get('linkedin')).toBe('https://www.linkedin.com/company/beta-gmbh');
    expect(company).toMatchObject({
      name: 'Beta GmbH',
      founded: 2011,
      employee_count: 40,
      follower_count: 900,
      size: '11-50',
      type: 'Public Company',
      country: 'Germany',
      website: 'https://beta.de',
    });
  });

  it('reads a match answer that is the best match itself (no results list)', async () => {
    fake.matchShape = 'best';
    try {
      const { company } = await client().lookup({ website: 'beta.de' });
      expect(company).toMatchObject({ name: 'Beta GmbH', country: 'Germany', employee_count: 40 });
      expect(fake.requests.at(-1)!.path).toBe('/v2/json/mx-secret/companies/b-2');
      expect((await failure(client().lookup({ website: 'nobody.example' }), CompanyDetailsError)).kind).toBe('not_found');
    } finally {
      fake.matchShape = 'results';
    }
  });

  it('reports not found, bad queries, refused keys, rate limits and server errors', async () => {
    expect((await failure(client().lookup({ website: 'nobody.example' }), CompanyDetailsError)).kind).toBe('not_found');
    expect((await failure(client().lookup({ linkedinUrl: 'https://example.com/company/x' }), CompanyDetailsError)).kind).toBe('bad_query');
    expect((await failure(client().lookup({}), CompanyDetailsError)).kind).toBe('bad_query');
    const refused = await failure(
      new MixRankCompanyDetails({ apiKey: 'wrong', baseUrl: fake.url }).lookup({ website: 'acme.com' }),
      CompanyDetailsError,
    );
    expect(refused.kind).toBe('provider');
    expect(refused.message).not.toContain('wrong');
    fake.failNext(429);
    const limited = await failure(client().lookup({ website: 'acme.com' }), CompanyDetailsError);
    expect([limited.kind, limited.retryable]).toEqual(['rate_limited', true]);
    fake.failNext(503);
    const down = await failure(client().lookup({ website: 'acme.com' }), CompanyDetailsError);
    expect([down.kind, down.retryable]).toEqual(['provider', true]);
    expect(down.message).not.toContain('mx-secret');
  });

  it('normalizes domains and LinkedIn URLs', () => {
    expect(normalizeDomain('ACME.com')).toBe('acme.com');
    expect(normalizeDomain('http://www.acme.co.uk/x')).toBe('acme.co.uk');
    expect(normalizeDomain('not a domain')).toBeNull();
    expect(normalizeDomain('127.0.0.1')).toBeNull();
    expect(normalizeLinkedInCompanyUrl('https://de.linkedin.com/company/acme/jobs')).toBe('https://www.linkedin.com/company/acme');
    expect(normalizeLinkedInCompanyUrl('https://www.linkedin.com/in/someone')).toBeNull();
  });
});

describe('lookupCompanyDetails (the mixrankCompanyDetails enrichment)', () => {
  it('answers the company info with its source', async () => {
    const out = await lookupCompanyDetails({
      provider: client(),
      organizationId: 'org',
      query: { website: 'acme.com', linkedinUrl: null },
    });
    expect(out.result.name).toBe('Acme Corporation');
    expect(out.result.employee_count).toBe(1250);
    expect(out.sources).toEqual([{ url: 'https://www.linkedin.com/company/acme-corp', title: 'Acme Corporation' }]);
  });

  it('fails with messages fit for the execution status', async () => {
    const unconfigured = await failure(
      lookupCompanyDetails({
        provider: new MixRankCompanyDetails({ baseUrl: fake.url }),
        organizationId: 'org',
        query: { website: 'acme.com' },
      }),
      AgentError,
    );
    expect([unconfigured.kind, unconfigured.message]).toEqual(['not_configured', COMPANY_DETAILS_NOT_CONFIGURED]);
    const missing = await failure(
      lookupCompanyDetails({ provider: client(), organizationId: 'org', query: { website: 'nobody.example' } }),
      AgentError,
    );
    expect([missing.kind, missing.message, missing.retryable]).toEqual(['not_found', COMPANY_DETAILS_NOT_FOUND, false]);
    const empty = await failure(
      lookupCompanyDetails({ provider: client(), organizationId: 'org', query: { website: '  ', linkedinUrl: '' } }),
      AgentError,
    );
    expect([empty.kind, empty.message]).toEqual(['bad_query', COMPANY_DETAILS_BAD_QUERY]);
    fake.failNext(429);
    const limited = await failure(
      lookupCompanyDetails({ provider: client(), organizationId: 'org', query: { website: 'acme.com' } }),
      AgentError,
    );
    expect([limited.kind, limited.retryable]).toEqual(['provider', true]);
    const ac = new AbortController();
    ac.abort();
    expect(
      (
        await failure(
          lookupCompanyDetails({ provider: client(), organizationId: 'org', query: { website: 'acme.com' }, signal: ac.signal }),
          AgentError,
        )
      ).kind,
    ).toBe('cancelled');
  });
});
