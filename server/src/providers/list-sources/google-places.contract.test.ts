// The Google Places (New) Text Search adapter against the loopback fake that follows Google's API.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startFakeGooglePlaces, type FakeGooglePlacesServer } from '../../../test/fakes/google-places-server';
import { GooglePlacesClient, GOOGLE_PLACES_FIELD_MASK } from './google-places';

describe('Google Places adapter (contract with the fake)', () => {
  let fake: FakeGooglePlacesServer;
  beforeAll(async () => {
    fake = await startFakeGooglePlaces({ apiKey: 'g-key-123456789' });
    for (let i = 0; i < 70; i++) {
      fake.places.push({
        id: `place${i}`,
        displayName: { text: `Bakery ${i}`, languageCode: 'en' },
        formattedAddress: `${i} Main St, Aarhus`,
        ...(i % 7 === 3 ? {} : { websiteUri: `https://www.bakery${i}.example.com/home` }),
      });
    }
  });
  afterAll(async () => {
    await fake.close();
  });
  const client = (key = 'g-key-123456789') => new GooglePlacesClient({ apiKey: key, baseUrl: fake.url, timeoutMs: 5_000 });

  it('sends the key and the field mask, pages by nextPageToken (20 a page) and stops at 60', async () => {
    fake.requests.length = 0;
    const res = await client().searchText('bakery aarhus', 100);
    expect(res).toHaveLength(60);
    expect(fake.requests.map((r) => (r.body as { pageSize: number }).pageSize)).toEqual([20, 20, 20]);
    expect(fake.requests[0].headers['x-goog-api-key']).toBe('g-key-123456789');
    expect(fake.requests[0].headers['x-goog-fieldmask']).toBe(GOOGLE_PLACES_FIELD_MASK);
    expect((fake.requests[1].body as { pageToken?: string }).pageToken).toBeTruthy();
    expect(res[0]).toMatchObject({
      name: 'Bakery 0',
      website: 'https://www.bakery0.example.com/home',
      domain: 'bakery0.example.com',
      data: { placeId: 'place0', address: '0 Main St, Aarhus' },
    });
    expect(res[3]).toMatchObject({ name: 'Bakery 3', website: null, domain: null });
  });

  it('asks only for what it needs', async () => {
    fake.requests.length = 0;
    expect(await client().searchText('bakery', 5)).toHaveLength(5);
    expect(fake.requests.map((r) => (r.body as { pageSize: number }).pageSize)).toEqual([5]);
  });

  it("a wrong key is an auth error with Google's message; 429 RESOURCE_EXHAUSTED without Retry-After fails as rate limited; 400 is a bad request", async () => {
    const err = await client('nope')
      .searchText('bakery', 5)
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'auth' });
    expect(err.message).toContain('The provided API key is invalid.');
    fake.failNext({ status: 429 });
    expect(
      await client()
        .searchText('bakery', 5)
        .catch((e) => e),
    ).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: null });
    const bad = await client()
      .searchText('', 5)
      .catch((e) => e);
    expect(bad).toMatchObject({ kind: 'bad_request' });
    expect(bad.message).toContain('Empty text_query.');
  });

  it('429 with Retry-After: 0 is retried at once', async () => {
    fake.failNext({ status: 429, retryAfter: '0' });
    expect(await client().searchText('bakery', 2)).toHaveLength(2);
  });
});
