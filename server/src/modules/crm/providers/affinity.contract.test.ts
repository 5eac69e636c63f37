// Contract: the Affinity adapter against the loopback fake following Affinity's v1 API (basic auth
// with the key, page_token paging, 429 with Retry-After).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { FakeAffinity } from '../../../../test/fakes/affinity-server';
import { AffinityClient, AffinityError, affinityPlainValue } from './affinity';
import { retryAfterMs } from '../../../lib/retry-after';

const KEY = 'aff-key-0123456789';

describe('Affinity adapter contract (fake Affinity)', () => {
  let fake: FakeAffinity;
  beforeAll(async () => {
    fake = await FakeAffinity.start({ apiKeys: [KEY] });
    for (let i = 0; i < 5; i += 1) fake.addOrganization(`Org ${i}`, `org${i}.example.com`);
    fake.addPerson('Pat', 'Lee', 'pat@org0.example.com', [1000]);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('whoami with basic auth (empty user, key as password)', async () => {
    const me = await new AffinityClient({ apiKey: KEY, baseUrl: fake.url }).whoami();
    expect(me.tenant.name).toBe('Acme Capital');
    expect(me.user.email).toBe('alex@acmecapital.example.com');
    const auth = fake.requests.at(-1)!.authorization!;
    expect(Buffer.from(auth.replace('Basic ', ''), 'base64').toString()).toBe(`:${KEY}`);
  });

  it('a wrong key is a 401 AffinityError', async () => {
    const err = await new AffinityClient({ apiKey: 'wrong', baseUrl: fake.url }).whoami().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AffinityError);
    expect((err as AffinityError).unauthorized).toBe(true);
  });

  it('pages organizations and persons with page_token', async () => {
    const c = new AffinityClient({ apiKey: KEY, baseUrl: fake.url });
    const p1 = await c.organizationsPage(null, 2);
    expect(p1.items.map((o) => o.name)).toEqual(['Org 0', 'Org 1']);
    expect(p1.nextPageToken).toBeTruthy();
    const names = [...p1.items.map((o) => o.name)];
    let token = p1.nextPageToken;
    while (token) {
      const p = await c.organizationsPage(token, 2);
      names.push(...p.items.map((o) => o.name));
      token = p.nextPageToken;
    }
    expect(names).toEqual(['Org 0', 'Org 1', 'Org 2', 'Org 3', 'Org 4']);
    const persons = await c.personsPage(null);
    expect(persons.nextPageToken).toBeNull();
    expect(persons.items.map((p) => p.primary_email)).toEqual(['alex@acmecapital.example.com', 'pat@org0.example.com']);
    expect((await c.fields('organizations')).map((f) => f.name)).toContain('Industry');
  });

  it('finds an internal person (a user of the instance) by email, not an external one', async () => {
    const c = new AffinityClient({ apiKey: KEY, baseUrl: fake.url });
    expect((await c.findInternalPerson('ALEX@acmecapital.example.com'))?.id).toBe(77);
    expect(await c.findInternalPerson('pat@org0.example.com')).toBeNull();
    expect(await c.findInternalPerson('nobody@example.com')).toBeNull();
  });

  it('429 waits Retry-After and retries; a wait beyond the cap fails as rate limited', async () => {
    const c = new AffinityClient({ apiKey: KEY, baseUrl: fake.url, maxRetryWaitMs: 2000 });
    fake.limitNext(1, 1);
    const started = Date.now();
    expect((await c.whoami()).tenant.id).toBe(4242);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    fake.limitNext(1, 120);
    const err = await c.whoami().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AffinityError);
    expect((err as AffinityError).rateLimited).toBe(true);
    expect((err as AffinityError).retryAfterMs).toBe(120_000);
  });

  it('Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000 + 5000).toUTCString(), 10_000)).toBe(5000);
    expect(retryAfterMs(null)).toBeNull();
  });

  it('reads the global field values of many records at once through v2 (bearer key, 100 ids a request)', async () => {
    const c = new AffinityClient({ apiKey: KEY, baseUrl: fake.url });
    const orgs = Array.from({ length: 120 }, (_, i) => fake.addOrganization(`Many ${i}`, `many${i}.example.com`).id);
    await c.createFieldValue({ field_id: 101, entity_id: orgs[0], value: 'Energy' });
    await c.createFieldValue({ field_id: 102, entity_id: orgs[0], value: 2 });
    await c.createFieldValue({ field_id: 103, entity_id: orgs[119], value: 42 });
    await c.createFieldValue({ field_id: 105, entity_id: orgs[119], value: 'alpha' });
    await c.createFieldValue({ field_id: 105, entity_id: orgs[119], value: 'beta' });
    const before = fake.requests.length;
    const values = await c.globalFieldValues('organizations', orgs, [101, 102, 103, 105]);
    const asked = fake.requests.slice(before);
    expect(asked.map((r) => r.path)).toEqual(['/v2/companies', '/v2/companies']);
    expect(asked.map((r) => r.query.getAll('ids').length)).toEqual([100, 20]);
    expect(asked[0].query.getAll('fieldIds')).toEqual(['field-101', 'field-102', 'field-103', 'field-105']);
    expect(asked[0].authorization).toBe(`Bearer ${KEY}`);
    expect(values.size).toBe(120);
    const first = values.get(orgs[0])!;
    expect(affinityPlainValue(first.get(101))).toBe('Energy');
    expect(first.get(102)).toMatchObject({ type: 'ranked-dropdown', data: { dropdownOptionId: 2, text: 'Qualified' } });
    expect(affinityPlainValue(first.get(102))).toBe('Qualified');
    expect(affinityPlainValue(first.get(103))).toBeNull();
    const last = values.get(orgs[119])!;
    expect(affinityPlainValue(last.get(103))).toBe(42);
    expect(affinityPlainValue(last.get(105))).toBe('alpha, beta');
    // A field the records do not have is a 400 with v2's error shape; a wrong key a 401.
    const unknownField = await c.globalFieldValues('organizations', orgs.slice(0, 1), [999]).catch((e: unknown) => e);
    expect(unknownField).toBeInstanceOf(AffinityError);
    expect((unknownField as AffinityError).message).toBe('Field field-999 not found');
    const wrongKey = await new AffinityClient({ apiKey: 'wrong', baseUrl: fake.url })
      .globalFieldValues('persons', [77], [201])
      .catch((e: unknown) => e);
    expect((wrongKey as AffinityError).unauthorized).toBe(true);
    // v1 does not take the bearer key, v2 not the basic one.
    expect((await fetch(`${fake.url}/auth/whoami`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(401);
    expect(
      (await fetch(`${fake.url}/v2/companies`, { headers: { authorization: `Basic ${Buffer.from(`:${KEY}`).toString('base64')}` } }))
        .status,
    ).toBe(401);
  });

  it('v2 pages with pagination.nextUrl; every record asked is answered', async () => {
    const res = await fetch(`${fake.url}/v2/persons?limit=1`, { headers: { authorization: `Bearer ${KEY}` } });
    const page = (await res.json()) as { data: Array<{ id: number; firstName: string }>; pagination: { nextUrl: string | null } };
    expect(page.data).toHaveLength(1);
    expect(page.pagination.nextUrl).toMatch(/\/v2\/persons\?limit=1&cursor=/);
    const c = new AffinityClient({ apiKey: KEY, baseUrl: fake.url });
    const persons = await c.globalFieldValues('persons', [77, ...fake.persons.map((p) => p.id)], [201]);
    expect([...persons.keys()].sort()).toEqual([...new Set([77, ...fake.persons.map((p) => p.id)])].sort());
  });

  it('a v2 value as the plain value a mapping stores', () => {
    expect(affinityPlainValue({ type: 'text', data: 'x' })).toBe('x');
    expect(affinityPlainValue({ type: 'dropdown', data: { dropdownOptionId: 3, text: 'Seed' } })).toBe('Seed');
    expect(
      affinityPlainValue({
        type: 'dropdown-multi',
        data: [
          { dropdownOptionId: 3, text: 'Seed' },
          { dropdownOptionId: 4, text: 'Series A' },
        ],
      }),
    ).toBe('Seed, Series A');
    expect(
      affinityPlainValue({
        type: 'location',
        data: { streetAddress: null, city: 'Berlin', state: null, country: 'Germany', continent: 'Europe' },
      }),
    ).toBe('Berlin, Germany');
    expect(
      affinityPlainValue({
        type: 'person',
        data: { id: 1, firstName: 'Ada', lastName: 'Lovelace', primaryEmailAddress: 'a@x.io', type: 'external' },
      }),
    ).toBe('Ada Lovelace');
    expect(affinityPlainValue({ type: 'company', data: { id: 1, name: 'Acme', domain: 'acme.io' } })).toBe('Acme');
    expect(affinityPlainValue({ type: 'number', data: null })).toBeNull();
    expect(affinityPlainValue(null)).toBeNull();
  });
});
