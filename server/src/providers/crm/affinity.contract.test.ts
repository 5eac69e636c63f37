// Contract: the Affinity adapter against the loopback fake following Affinity's v1 API (basic auth
// with the key, page_token paging, 429 with Retry-After).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { FakeAffinity } from '../../../test/fakes/affinity-server';
import { AffinityClient, AffinityError, retryAfterMs } from './affinity';

const KEY = 'aff-key-0123456789';

describe('Affinity adapter contract (fake Affinity)', () => {
  let fake: FakeAffinity;
  beforeAll(async () => {
    fake = await FakeAffinity.start({ apiKeys: [KEY] });
    for (let i = 0; i < 5; i += 1) fake.addOrganization(`Org ${i}`, `org${i}.example.com`);
    fake.addPerson('Pat', 'Lee', 'pat@org0.example.com', [1000]);
  });
  afterAll(async () => { await fake?.close(); });

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
});
