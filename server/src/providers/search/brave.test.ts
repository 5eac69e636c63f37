import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BraveSearch } from './brave';
import { SearchError } from './port';
import { startFakeBrave, type FakeBraveServer } from '../../../test/fakes/brave-search-server';

let fake: FakeBraveServer;
beforeAll(async () => {
  fake = await startFakeBrave({ apiKey: 'brave-key' });
  fake.results('acme anvils founded', [
    {
      title: 'Acme <strong>Anvils</strong> &amp; Co',
      url: 'https://acme.example/about',
      description: 'Acme makes <strong>anvils</strong> since 1947 &#x2014; family&#39;s firm.',
    },
    { title: 'Not a web link', url: 'javascript:alert(1)', description: 'dropped' },
    { title: 'Acme on Wikipedia', url: 'https://en.wikipedia.example/wiki/Acme', description: 'Acme Corporation' },
  ]);
});
afterAll(() => fake?.close());

async function failure(p: Promise<unknown>): Promise<SearchError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SearchError);
  return err as SearchError;
}

describe('Brave search adapter', () => {
  it('sends the documented request and maps web.results to plain titles, URLs and snippets', async () => {
    const search = new BraveSearch({ apiKey: 'brave-key', baseUrl: fake.url });
    expect(search.available).toBe(true);
    const results = await search.search('  acme anvils founded ', { count: 5 });
    expect(results).toEqual([
      { title: 'Acme Anvils & Co', url: 'https://acme.example/about', snippet: "Acme makes anvils since 1947 — family's firm." },
      { title: 'Acme on Wikipedia', url: 'https://en.wikipedia.example/wiki/Acme', snippet: 'Acme Corporation' },
    ]);
    const req = fake.requests.at(-1)!;
    expect(req.path).toBe('/res/v1/web/search');
    expect(req.token).toBe('brave-key');
    expect(req.query.get('q')).toBe('acme anvils founded');
    expect(req.query.get('count')).toBe('5');
    expect(req.query.get('result_filter')).toBe('web');
  });

  it('caps the query and the count as the API documents', async () => {
    const search = new BraveSearch({ apiKey: 'brave-key', baseUrl: fake.url });
    expect(await search.search(Array.from({ length: 80 }, (_, i) => `w${i}`).join(' '), { count: 99 })).toEqual([]);
    const req = fake.requests.at(-1)!;
    expect(req.query.get('q')!.split(' ')).toHaveLength(50);
    expect(req.query.get('count')).toBe('20');
  });

  it('without a key it is unavailable and sends nothing', async () => {
    const before = fake.requests.length;
    const search = new BraveSearch({ baseUrl: fake.url });
    expect(search.available).toBe(false);
    expect((await failure(search.search('acme'))).kind).toBe('unavailable');
    expect(fake.requests.length).toBe(before);
  });

  it('maps a refused key, rate limiting and server errors', async () => {
    expect((await failure(new BraveSearch({ apiKey: 'wrong', baseUrl: fake.url }).search('acme'))).kind).toBe('unavailable');
    const search = new BraveSearch({ apiKey: 'brave-key', baseUrl: fake.url });
    fake.failNext(429);
    expect((await failure(search.search('acme'))).kind).toBe('rate_limited');
    fake.failNext(500);
    const err = await failure(search.search('acme'));
    expect(err.kind).toBe('provider');
    expect(err.message).toContain('HTTP 500');
  });
});
