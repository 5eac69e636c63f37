// Data-provider sources through the routes: keys per organization (a missing key's message),
// previews against the vendors' fakes with the spec's messages, a provider source added and
// executed (a list execution of type list: ideas deduplicated by domain within the list, the
// source's counters, the failed mapping), auto-complete, and another organization's ids → 404.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { newCompany } from '../../../test/records';
import { startFakeOcean, type FakeOceanServer } from '../../../test/fakes/ocean-server';
import { startFakeGooglePlaces, type FakeGooglePlacesServer } from '../../../test/fakes/google-places-server';
import { startFakeSourceScrub, type FakeSourceScrubServer } from '../../../test/fakes/sourcescrub-server';
import { createListHandler } from './handler';

const BASIC = Buffer.from('dealscout:client-secret').toString('base64');

function multipart(fields: Record<string, string>): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----ds${randomUUID()}`;
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return {
    body: Buffer.from(parts.join('') + `--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('list sources from data providers (spec 002 §7, §4 List execution, §8 previews)', () => {
  let ctx: TestContext;
  let worker: TestWorker;
  let ocean: FakeOceanServer;
  let maps: FakeGooglePlacesServer;
  let scrub: FakeSourceScrubServer;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    ocean = await startFakeOcean({ apiToken: 'ocean-key-aaaa-1111' });
    maps = await startFakeGooglePlaces({ apiKey: 'maps-key-aaaa-2222' });
    scrub = await startFakeSourceScrub({ username: 'ana', password: 'pw', clientBasic: BASIC });
    for (let i = 0; i < 30; i++) ocean.companies.push({ domain: `look${i}.example.com`, name: `Look ${i}`, primaryCountry: 'dk' });
    maps.places.push({
      id: 'p1',
      displayName: { text: 'Aarhus Bakery', languageCode: 'da' },
      websiteUri: 'https://aarhusbakery.example.dk/',
      formattedAddress: 'Main St 1, Aarhus',
    });
    maps.places.push({ id: 'p2', displayName: { text: 'Corner Bakery', languageCode: 'da' }, formattedAddress: 'Side St 2, Aarhus' });
    scrub.companies.push(
      { id: 'C1', name: 'Robo One', website: 'robo1.example.com' },
      { id: 'C2', name: 'Robo Two', website: 'https://look1.example.com' },
    );
    scrub.sources.push({ id: 'S1', officialTitle: 'Automate 2026', sourceType: 'Conference', companyIds: ['C1', 'C2'] });
    const env = {
      OCEAN_BASE_URL: ocean.url,
      GOOGLE_PLACES_BASE_URL: maps.url,
      SOURCESCRUB_BASE_URL: scrub.url,
      SOURCESCRUB_IDENTITY_URL: scrub.url,
      SOURCESCRUB_CLIENT_BASIC: BASIC,
      LIST_PROVIDER_TIMEOUT_MS: '5000',
    };
    ctx = await createTestApp({ boss: true, env });
    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createListHandler({ config: ctx.config })]);
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    a = await signedIn(ctx, oa.admin.email, '10.43.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.43.0.2');
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx?.close();
    await Promise.all([ocean?.close(), maps?.close(), scrub?.close()]);
  });

  const newList = async (c: TestClient) =>
    (await c.post('/api/v1/list-company', { name: `Providers ${randomUUID().slice(0, 6)}` })).json().list as { id: string };
  const connect = async (c: TestClient, provider: string, apiKey: string) => {
    const res = await c.post('/api/v1/organization/integration', { provider, apiKey });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const addSource = async (c: TestClient, listId: string, intention: string, source: unknown) => {
    const m = multipart({ listCompanyId: listId, intentionSourceId: intention, source: JSON.stringify(source) });
    return c.post('/api/v1/list-company/source', m.body, m.headers);
  };
  const getList = async (c: TestClient, id: string) =>
    (await c.get(`/api/v1/list-company/${id}`)).json().list as {
      totalIdeas: number;
      sources: {
        id: string;
        type: string;
        status: string;
        statusReason: string | null;
        statusSeverity: string | null;
        total: number;
        parameters: Record<string, unknown>;
      }[];
    };

  it('without a key each preview answers a clear message (400) naming the provider and where to add it', async () => {
    const o = await a.post('/api/v1/list-company/ocean/preview', { domains: ['seed.example.com'] });
    expect(o.statusCode).toBe(400);
    expect(o.json().message).toBe(
      'No Ocean.io API key is connected for your organization. An admin can add it under Profile → Integrations.',
    );
    expect((await a.post('/api/v1/list-company/google-maps-samples', { query: 'bakery' })).json().message).toContain(
      'No Google Maps API key',
    );
    expect((await a.post('/api/v1/list-company/source-scrub-sources/preview', { filters: {} })).json().message).toContain(
      'No Source Scrub API key',
    );
  });

  it(
    'keys are stored per organization (encrypted, never answered); the previews then answer through the adapters; ' +
      'bad input is a 400 with its message',
    async () => {
      const saved = await connect(a, 'ocean', 'ocean-key-aaaa-1111');
      expect(saved.message).toBe('Ocean.io connected');
      expect(JSON.stringify(saved)).not.toContain('ocean-key-aaaa-1111');
      expect(saved.integration).toMatchObject({ provider: 'ocean', type: 'data', data: { metadata: { keyHint: '1111' } } });
      await connect(a, 'googleMaps', 'maps-key-aaaa-2222');
      expect((await a.post('/api/v1/organization/integration', { provider: 'sourceScrub', apiKey: 'no-colon' })).json().message).toBe(
        'Enter the Source Scrub account as username:password',
      );
      await connect(a, 'sourceScrub', 'ana:pw');

      const o = await a.post('/api/v1/list-company/ocean/preview', { domains: ['https://www.Seed.example.com/about'], maxResultCount: 5 });
      expect(o.statusCode, o.body).toBe(200);
      expect(o.json().companies.map((c: { domain: string }) => c.domain)).toEqual([
        'look0.example.com',
        'look1.example.com',
        'look2.example.com',
        'look3.example.com',
        'look4.example.com',
      ]);
      expect(ocean.requests.at(-1)!.body).toMatchObject({ companiesFilters: { lookalikeDomains: ['seed.example.com'] }, size: 5 });
      expect((await a.post('/api/v1/list-company/ocean/preview', { domains: [] })).json().message).toBe('Please enter at least one domain');
      expect((await a.post('/api/v1/list-company/ocean/preview', { domains: ['not a domain'] })).json().message).toBe(
        'Not a valid domain: not a domain',
      );

      const g = (await a.post('/api/v1/list-company/google-maps-samples', { query: 'bakery aarhus' })).json();
      expect(g.companies).toEqual([
        expect.objectContaining({ name: 'Aarhus Bakery', domain: 'aarhusbakery.example.dk' }),
        expect.objectContaining({ name: 'Corner Bakery', website: null, domain: null }),
      ]);
      const s = (await a.post('/api/v1/list-company/source-scrub-sources/preview', { filters: { searchText: 'automate' } })).json();
      expect(s.sources).toEqual([expect.objectContaining({ id: 'S1', title: 'Automate 2026', companyCount: 2 })]);
      const sc = (
        await a.post('/api/v1/list-company/source-scrub-companies/preview', { filters: { sourceIds: ['S1'] }, maxResultCount: 10 })
      ).json();
      expect(sc.companies.map((c: { name: string }) => c.name)).toEqual(['Robo One', 'Robo Two']);
      expect((await a.post('/api/v1/list-company/source-scrub/preview', { searchText: 'robo' })).json().total).toBe(2);
      expect((await a.post('/api/v1/list-company/source-scrub-companies/preview', { filters: { sourceIds: [] } })).json().message).toBe(
        'Please choose at least one Source Scrub source',
      );

      // Organization B has no keys of its own: A's are not B's.
      expect((await b.post('/api/v1/list-company/ocean/preview', { domains: ['seed.example.com'] })).json().message).toContain(
        'No Ocean.io API key',
      );
    },
  );

  it("a provider failure answers the spec's preview message with the provider's reason; 429 passes Retry-After on", async () => {
    ocean.failNext({ status: 402 });
    const o = await a.post('/api/v1/list-company/ocean/preview', { domains: ['seed.example.com'] });
    expect(o.statusCode).toBe(502);
    expect(o.json()).toEqual({
      success: false,
      message: 'Error to get companies',
      issues: [{ path: 'provider', message: 'Ocean.io: Insufficient credits.' }],
    });
    scrub.failNext({ status: 500 });
    const s = await a.post('/api/v1/list-company/source-scrub-sources/preview', { filters: {} });
    expect(s.json().message).toBe('Error to get source scrub sources');
    scrub.failNext({ status: 429, retryAfter: '600' });
    const c = await a.post('/api/v1/list-company/source-scrub-companies/preview', { filters: { sourceIds: ['S1'] } });
    expect(c.statusCode).toBe(429);
    expect(c.headers['retry-after']).toBe('600');
    expect(c.json().message).toBe('Error to get source scrub companies');
    maps.failNext({
      status: 403,
      body: { error: { code: 403, message: 'Requests from this referer are blocked.', status: 'PERMISSION_DENIED' } },
    });
    const g = await a.post('/api/v1/list-company/google-maps-samples', { query: 'bakery' });
    expect(g.json().message).toBe('Error to get companies');
    expect(g.json().issues[0].message).toContain('Requests from this referer are blocked.');
  });

  it('a provider source is added pending, executed as a list execution into ideas deduplicated by domain; the source completes with its counters', async () => {
    const list = await newList(a);
    const bad = await addSource(a, list.id, 'ocean', { domains: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please enter at least one domain');
    expect((await getList(a, list.id)).sources).toHaveLength(0);

    const added = await addSource(a, list.id, 'ocean', { domains: ['seed.example.com'], maxResultCount: 25 });
    expect(added.statusCode, added.body).toBe(201);
    const sourceId = added.json().sourceId as string;
    expect((await getList(a, list.id)).sources[0]).toMatchObject({
      id: sourceId,
      type: 'ocean',
      status: 'pending',
      parameters: { domains: ['seed.example.com'], maxResultCount: 25 },
    });

    const ex = await a.post('/api/v1/list-company/execute', { typeId: sourceId, entityType: 'list', entityId: list.id });
    expect(ex.statusCode, ex.body).toBe(200);
    expect(ex.json()).toMatchObject({ success: true, message: 'List execution started', status: 'started' });
    const done = await eventually(async () => {
      const l = await getList(a, list.id);
      return l.sources[0].status === 'completed' ? l : undefined;
    }, 'the ocean source to complete');
    expect(done.totalIdeas).toBe(25);
    expect(done.sources[0]).toMatchObject({ total: 25, statusSeverity: 'info', statusReason: '25 ideas added, 0 already in the list' });
    const exec = (await a.get(`/api/v1/execution/${ex.json().executionId}`)).json().execution;
    expect(exec).toMatchObject({ type: 'list', typeId: sourceId, entityType: 'list', entityId: list.id, status: 'completed' });

    // Source Scrub's companies of a source: look1.example.com is already an idea — it gains the source, not a twin.
    const ss = (await addSource(a, list.id, 'sourceScrub', { sourceIds: ['S1'], maxResultCount: 10 })).json().sourceId as string;
    await a.post('/api/v1/list-company/execute', { typeId: ss, entityType: 'list', entityId: list.id });
    const after = await eventually(async () => {
      const l = await getList(a, list.id);
      return l.sources.find((s) => s.id === ss)?.status === 'completed' ? l : undefined;
    }, 'the source scrub source');
    expect(after.totalIdeas).toBe(26);
    expect(after.sources.find((s) => s.id === ss)).toMatchObject({ total: 2, statusReason: '1 idea added, 1 already in the list' });
    const ideas = (await a.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, text: 'look1.example.com' })).json()
      .listCompanyIdeas;
    expect(ideas).toHaveLength(1);
    expect(ideas[0].sourceIds.sort()).toEqual([sourceId, ss].sort());

    // Google Maps: a place without a website cannot become an idea; it is counted in the reason.
    const gm = (await addSource(a, list.id, 'googleMaps', { query: 'bakery aarhus' })).json().sourceId as string;
    await a.post('/api/v1/list-company/execute', { typeId: gm, entityType: 'list', entityId: list.id });
    const last = await eventually(async () => {
      const l = await getList(a, list.id);
      return l.sources.find((s) => s.id === gm)?.status === 'completed' ? l : undefined;
    }, 'the maps source');
    expect(last.sources.find((s) => s.id === gm)).toMatchObject({
      total: 1,
      statusSeverity: 'warning',
      statusReason: '1 idea added, 0 already in the list, 1 without a website skipped',
    });
  });

  it('a provider that refuses the key fails the source with the reason (the execution errors; the source shows failed)', async () => {
    const list = await newList(a);
    const id = (await addSource(a, list.id, 'ocean', { domains: ['seed.example.com'], maxResultCount: 5 })).json().sourceId as string;
    ocean.failNext({ status: 403, body: { detail: 'Current API token is not registered in our database' } });
    const ex = (await a.post('/api/v1/list-company/execute', { typeId: id, entityType: 'list', entityId: list.id })).json();
    const l = await eventually(async () => {
      const x = await getList(a, list.id);
      return x.sources[0].status === 'failed' ? x : undefined;
    }, 'the source to fail');
    expect(l.sources[0].statusSeverity).toBe('error');
    expect(l.sources[0].statusReason).toContain('Ocean.io refused');
    expect(l.totalIdeas).toBe(0);
    // No retry can help a refused key: the execution ended in error at once, with the reason.
    expect((await a.get(`/api/v1/execution/${ex.executionId}`)).json().execution).toMatchObject({
      status: 'error',
      statusMessage: expect.stringContaining('Ocean.io refused'),
    });
  });

  it("execute: a CSV or manual source is a 400; a source of another list, or another organization's list or source, is a 404", async () => {
    const list = await newList(a);
    const other = await newList(a);
    await a.post('/api/v1/list-company/idea', { id: list.id, companyName: 'Hand Made', website: 'handmade.example.com' });
    const manual = (await getList(a, list.id)).sources[0];
    const r1 = await a.post('/api/v1/list-company/execute', { typeId: manual.id, entityType: 'list', entityId: list.id });
    expect(r1.statusCode).toBe(400);
    expect(r1.json().message).toBe('This source has no provider to fetch from');
    const src = (await addSource(a, list.id, 'googleMaps', { query: 'bakery' })).json().sourceId as string;
    expect((await a.post('/api/v1/list-company/execute', { typeId: src, entityType: 'list', entityId: other.id })).json()).toMatchObject({
      success: false,
      message: 'List source not found',
    });
    const fromB = await b.post('/api/v1/list-company/execute', { typeId: src, entityType: 'list', entityId: list.id });
    expect(fromB.statusCode).toBe(404);
    expect(fromB.json().message).toBe('List not found');
    const bList = await newList(b);
    expect((await b.post('/api/v1/list-company/execute', { typeId: src, entityType: 'list', entityId: bList.id })).statusCode).toBe(404);
    expect((await addSource(b, list.id, 'googleMaps', { query: 'bakery' })).statusCode).toBe(404);
    expect((await b.post('/api/v1/list-company/auto-complete', { query: { value: 'ha', listCompanyId: list.id } })).statusCode).toBe(404);
  });

  it("auto-complete: the organization's companies by name or domain, then Ocean.io's suggestions; ideas already in the list are marked", async () => {
    const list = await newList(a);
    await newCompany(a, { name: 'Lookout Partners', website: 'https://lookout.example.com' });
    await a.post('/api/v1/list-company/idea', { id: list.id, companyName: 'Look 3', website: 'look3.example.com' });
    const own = (await a.post('/api/v1/list-company/auto-complete', { query: { value: 'look', listCompanyId: list.id } })).json();
    expect(own).toEqual({
      success: true,
      suggestionsNote: null,
      suggestions: [expect.objectContaining({ name: 'Lookout Partners', domain: 'lookout.example.com', source: 'company', inList: false })],
    });
    const withOcean = (
      await a.post('/api/v1/list-company/auto-complete', {
        query: { value: 'Look 3', listCompanyId: list.id },
        enableOceanIoSuggestions: true,
      })
    ).json();
    expect(withOcean.suggestions).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Look 3', domain: 'look3.example.com', source: 'ocean', inList: true })]),
    );
    // B has no Ocean key: its own companies only, and a note saying why.
    const bList = await newList(b);
    const fromB = (
      await b.post('/api/v1/list-company/auto-complete', {
        query: { value: 'look', listCompanyId: bList.id },
        enableOceanIoSuggestions: true,
      })
    ).json();
    expect(fromB.suggestions).toEqual([]);
    expect(fromB.suggestionsNote).toContain('No Ocean.io API key');
  });
});
