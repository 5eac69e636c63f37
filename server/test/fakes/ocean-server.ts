// A fake Ocean.io API on loopback, following Ocean's published reference (docs.ocean.io):
// x-api-token header (403 `{ detail }` when missing or unknown), POST /v3/search/companies with
// companiesFilters.lookalikeDomains (at most 10, else 422 with a validation list), size and the
// searchAfter cursor; POST /v2/autocomplete/companies { name }. Scripted 429s carry Retry-After.
import { startFake, type FakeBase } from './list-providers-common';

export interface OceanCompany {
  domain: string;
  name: string;
  primaryCountry?: string;
  companySize?: string;
  industries?: string[];
  description?: string;
}

export interface FakeOceanServer extends FakeBase {
  /** The lookalikes every search answers (in relevance order), and the seeds Ocean does not know. */
  companies: OceanCompany[];
  missingDomains: Record<string, string>;
}

export async function startFakeOcean(opts: { apiToken: string }): Promise<FakeOceanServer> {
  const state = { companies: [] as OceanCompany[], missingDomains: {} as Record<string, string> };
  const base = await startFake(
    (req, send) => {
      const token = req.headers['x-api-token'] ?? req.query.get('apiToken');
      if (!token) return send(403, { detail: 'API token should be provided in headers or query parameters' });
      if (token !== opts.apiToken) return send(403, { detail: 'Current API token is not registered in our database' });
      const b = (req.body ?? {}) as Record<string, unknown>;
      if (req.method === 'POST' && req.path === '/v3/search/companies') {
        const seeds = ((b.companiesFilters as Record<string, unknown> | undefined)?.lookalikeDomains ?? []) as string[];
        if (seeds.length > 10)
          return send(422, {
            detail: [{ loc: ['body', 'companiesFilters', 'lookalikeDomains'], msg: 'List should have at most 10 items', type: 'too_long' }],
          });
        const size = typeof b.size === 'number' ? b.size : 50;
        const from = typeof b.searchAfter === 'string' ? Number(Buffer.from(b.searchAfter, 'base64url').toString()) : 0;
        const pool = state.companies.filter((c) => !seeds.includes(c.domain));
        const slice = pool.slice(from, from + size);
        const next = from + slice.length;
        return send(200, {
          detail: 'OK',
          total: pool.length,
          ...(next < pool.length ? { searchAfter: Buffer.from(String(next)).toString('base64url') } : {}),
          missingDomains: Object.fromEntries(seeds.filter((s) => state.missingDomains[s]).map((s) => [s, state.missingDomains[s]])),
          companies: slice.map((company, i) => ({ company, relevance: i < 3 ? 'A' : 'B' })),
        });
      }
      if (req.method === 'POST' && req.path === '/v2/autocomplete/companies') {
        const name = String(b.name ?? '').toLowerCase();
        return send(200, {
          companies: state.companies
            .filter((c) => c.name.toLowerCase().startsWith(name) || c.domain.startsWith(name))
            .slice(0, 10)
            .map((c) => ({ domain: c.domain, name: c.name, logo: null })),
        });
      }
      return send(404, { detail: 'Not Found' });
    },
    (f) => ({ detail: f.status === 429 ? 'Too Many Requests' : f.status === 402 ? 'Insufficient credits' : 'Internal Server Error' }),
  );
  // The arrays and maps are shared: a test pushes into them.
  return Object.assign(base, { companies: state.companies, missingDomains: state.missingDomains });
}
