// Ocean.io (https://docs.ocean.io): lookalike companies of seed domains, and company name
// suggestions. Checked against Ocean's published API reference:
//
//   POST {base}/v3/search/companies        header x-api-token
//        { size, searchAfter?, companiesFilters: { lookalikeDomains: [...] } }
//     → { total, searchAfter, detail, companies: [{ company: { domain, name, primaryCountry,
//          companySize, industries, description, yearFounded, rootUrl, ... }, relevance }],
//          missingDomains: { domain: reason } }
//   POST {base}/v2/autocomplete/companies  { name } → { companies: [{ domain, name, logo }] }
//
// Errors answer `{ detail: string }` (or a validation list `{ detail: [{ loc, msg, type }] }` with
// 422); 402 'Insufficient credits'; 403 for a missing or unknown token; 429 when over the rate
// limit. Pages follow `searchAfter` until maxResultCount companies or no next page.
import { normalizeDomain } from '@dealscout/shared/domain';
import { providerJson } from './http';
import { ListProviderError, type SourceCompany } from './port';

export const OCEAN_DEFAULT_BASE_URL = 'https://api.ocean.io';
/** Ocean accepts at most 10 lookalike domains per search. */
export const OCEAN_MAX_SEED_DOMAINS = 10;
const PAGE = 100;

type Json = Record<string, unknown>;

export function oceanErrorText(body: unknown): string | null {
  const d = (body as Json | null)?.detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d))
    return (
      d
        .map((x) => (x as Json)?.msg)
        .filter((m) => typeof m === 'string')
        .join('; ') || null
    );
  return null;
}

export class OceanClient {
  private readonly baseUrl: string;
  constructor(private readonly opts: { apiToken: string; baseUrl?: string; timeoutMs?: number }) {
    this.baseUrl = (opts.baseUrl ?? OCEAN_DEFAULT_BASE_URL).replace(/\/+$/, '');
  }

  private post(path: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
    return providerJson(
      `${this.baseUrl}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-token': this.opts.apiToken },
        body: JSON.stringify(body),
      },
      { provider: 'Ocean.io', timeoutMs: this.opts.timeoutMs ?? 30_000, signal, errorText: oceanErrorText },
    );
  }

  /** Companies similar to the seed domains, most relevant first, at most `max`; `missing` names the seeds Ocean could not use. */
  async lookalikes(
    domains: readonly string[],
    max: number,
    o: { signal?: AbortSignal; onPage?: (n: number) => void | Promise<void> } = {},
  ): Promise<{ companies: SourceCompany[]; total: number; missing: Record<string, string> }> {
    if (domains.length === 0) throw new ListProviderError('bad_request', 'Please enter at least one domain.');
    const out: SourceCompany[] = [];
    let total = 0;
    let missing: Record<string, string> = {};
    let after: string | null = null;
    while (out.length < max) {
      const size = Math.min(PAGE, max - out.length);
      const page = (await this.post(
        '/v3/search/companies',
        { size, ...(after ? { searchAfter: after } : {}), companiesFilters: { lookalikeDomains: domains } },
        o.signal,
      )) as Json;
      const rows = Array.isArray(page.companies) ? (page.companies as Json[]) : [];
      total = typeof page.total === 'number' ? page.total : total;
      if (page.missingDomains && typeof page.missingDomains === 'object')
        missing = { ...missing, ...(page.missingDomains as Record<string, string>) };
      for (const r of rows) {
        const c = (r.company ?? r) as Json;
        const domain = typeof c.domain === 'string' && c.domain ? normalizeDomain(c.domain) : null;
        const name = (typeof c.name === 'string' && c.name.trim()) || domain;
        if (!name) continue;
        out.push({
          name,
          website: domain ? (typeof c.rootUrl === 'string' && c.rootUrl ? c.rootUrl : `https://${domain}`) : null,
          domain,
          data: clean({
            country: c.primaryCountry,
            companySize: c.companySize,
            industries: Array.isArray(c.industries) ? (c.industries as string[]).join(', ') : undefined,
            yearFounded: c.yearFounded,
            description: c.description,
            relevance: r.relevance,
          }),
        });
      }
      await o.onPage?.(out.length);
      after = typeof page.searchAfter === 'string' && page.searchAfter ? page.searchAfter : null;
      if (!after || rows.length === 0) break;
    }
    return { companies: out.slice(0, max), total, missing };
  }

  /** Name (or domain prefix) suggestions. */
  async autocomplete(name: string, signal?: AbortSignal): Promise<Array<{ name: string; domain: string }>> {
    const page = (await this.post('/v2/autocomplete/companies', { name }, signal)) as Json;
    const rows = Array.isArray(page.companies) ? (page.companies as Json[]) : [];
    return rows
      .filter((r) => typeof r.domain === 'string' && r.domain)
      .map((r) => ({ name: String(r.name ?? r.domain), domain: normalizeDomain(String(r.domain)) }));
  }
}

/** Drops undefined, null and empty values. */
export function clean(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
