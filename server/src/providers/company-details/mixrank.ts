// The company-details port's real adapter: MixRank's company API.
//
// Checked against MixRank's published API documentation (https://mixrank.com/api/documentation, as
// harvested into the api-evangelist/mixrank OpenAPI and examples): every request is
// `https://api.mixrank.com/v2/json/{api_key}/…` (the key is a path segment, not a header); errors
// come with an HTTP status and a body `{ errors: [...] }`; 429 when over quota. The two calls used:
//
//   GET {base}/{key}/companies/match?url=https://acme.com/      ("Companies » Match": fuzzy match by
//   GET {base}/{key}/companies/match?linkedin=https://linkedin.com/company/acme     name, URL or LinkedIn)
//   GET {base}/{key}/companies/{company_id}                       ("Companies » Overview")
//
// MixRank publishes no response schemas, so the match answer is read in each plausible form — the
// best match itself (an object with an id), `{ results: [...] }`, or a bare array, best first — and
// the overview's field names are read with their usual variants (name, domain | website,
// linkedin_url, description, founded | founded_year, employee_count, employee_range | size,
// company_type | type, country | location.country, follower_count, …), so a different spelling
// degrades to null rather than failing. 404 / empty results → not found.
//
// The result is mapped to the built-in company info fields of spec 002 §3. The key is never put in
// an error message or a log line (it is part of the URL).
import { CompanyDetailsError, type CompanyDetailsPort, type CompanyDetailsQuery, type CompanyInfo } from './port';

export const MIXRANK_DEFAULT_BASE_URL = 'https://api.mixrank.com/v2/json';

export interface MixRankOptions {
  apiKey?: string;
  baseUrl?: string;
  timeoutMs?: number;
}

type Json = Record<string, unknown>;

export class MixRankCompanyDetails implements CompanyDetailsPort {
  readonly configured: boolean;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly opts: MixRankOptions) {
    this.configured = Boolean(opts.apiKey);
    this.baseUrl = (opts.baseUrl ?? MIXRANK_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 15_000;
  }

  async lookup(query: CompanyDetailsQuery, o: { signal?: AbortSignal } = {}): Promise<{ company: CompanyInfo; source: string }> {
    if (!this.opts.apiKey) throw new CompanyDetailsError('not_configured', 'No company details provider is configured.');
    const domain = query.website ? normalizeDomain(query.website) : null;
    const linkedin = query.linkedinUrl ? normalizeLinkedInCompanyUrl(query.linkedinUrl) : null;
    if (query.linkedinUrl && !linkedin && !domain)
      throw new CompanyDetailsError('bad_query', 'The LinkedIn URL is not a LinkedIn company page URL.');
    if (query.website && !domain && !linkedin) throw new CompanyDetailsError('bad_query', 'The website is not a valid domain or URL.');
    if (!domain && !linkedin) throw new CompanyDetailsError('bad_query', 'A website or a LinkedIn URL is needed.');

    const params = new URLSearchParams();
    if (domain) params.set('url', `https://${domain}/`);
    if (linkedin) params.set('linkedin', linkedin);
    const match = await this.get(`/companies/match?${params}`, o.signal);
    const best = bestMatch(match);
    if (!best) throw new CompanyDetailsError('not_found', 'No company matched.');
    let record: Json = best;
    const id = best.id ?? best.company_id;
    if (typeof id === 'string' || typeof id === 'number') {
      const profile = await this.get(`/companies/${encodeURIComponent(String(id))}`, o.signal);
      if (profile && typeof profile === 'object' && !Array.isArray(profile)) record = { ...best, ...(profile as Json) };
    }
    const company = mapCompany(record, linkedin);
    const source = company.url ?? company.website ?? (domain ? `https://${domain}` : linkedin!);
    return { company, source };
  }

  /** GET on the API; null for 404; typed errors otherwise. */
  private async get(path: string, callerSignal: AbortSignal | undefined): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/${encodeURIComponent(this.opts.apiKey!)}${path}`, {
        headers: { accept: 'application/json' },
        signal,
      });
    } catch {
      if (callerSignal?.aborted) throw new CompanyDetailsError('cancelled', 'Cancelled.');
      if (timeout.aborted) throw new CompanyDetailsError('timeout', 'The company details provider did not answer in time.', true);
      throw new CompanyDetailsError('provider', 'The company details provider could not be reached.', true);
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (res.status === 401 || res.status === 403) {
      await res.body?.cancel();
      throw new CompanyDetailsError('provider', 'The company details provider refused the configured key (MIXRANK_API_KEY).');
    }
    if (res.status === 429) {
      await res.body?.cancel();
      throw new CompanyDetailsError('rate_limited', 'The company details provider is rate limiting us; try again later.', true);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new CompanyDetailsError('provider', `The company details provider answered HTTP ${res.status}.`, res.status >= 500);
    }
    try {
      return await res.json();
    } catch {
      throw new CompanyDetailsError('provider', 'The company details provider sent an answer that is not JSON.', true);
    }
  }
}

/** The best match of a match answer: the company object itself, the first of `results`/`companies`, or of a bare array. */
function bestMatch(answer: unknown): Json | undefined {
  const isObj = (r: unknown): r is Json => r !== null && typeof r === 'object' && !Array.isArray(r);
  if (Array.isArray(answer)) return answer.find(isObj);
  if (!isObj(answer)) return undefined;
  for (const key of ['results', 'companies', 'matches']) {
    const list = answer[key];
    if (Array.isArray(list)) return list.find(isObj);
  }
  return answer.id !== undefined || answer.company_id !== undefined || answer.name !== undefined ? answer : undefined;
}

/** 'https://www.Acme.com/about?x' → 'acme.com'; null when there is no plausible domain. */
export function normalizeDomain(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`).hostname.toLowerCase();
  } catch {
    return null;
  }
  host = host.replace(/^www\./, '').replace(/\.$/, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) && !/^[0-9.]+$/.test(host) ? host : null;
}

/** A LinkedIn company page URL in canonical form, or null. */
export function normalizeLinkedInCompanyUrl(input: string): string | null {
  let u: URL;
  try {
    const text = input.trim();
    u = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (!/(^|\.)linkedin\.com$/i.test(u.hostname)) return null;
  const m = /^\/(company|school|showcase)\/([^/?#]+)/i.exec(u.pathname);
  return m ? `https://www.linkedin.com/${m[1].toLowerCase()}/${m[2]}` : null;
}

function pick(r: Json, ...paths: string[]): unknown {
  for (const p of paths) {
    let v: unknown = r;
    for (const k of p.split('.')) v = v !== null && typeof v === 'object' ? (v as Json)[k] : undefined;
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return null;
}

function str(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

export function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') {
    const m = /^\s*(\d[\d,]*)(\.\d+)?\s*$/.exec(v);
    if (m) return Number((m[1] + (m[2] ?? '')).replace(/,/g, ''));
  }
  return null;
}

function year(v: unknown): number | null {
  const n = num(v);
  if (n !== null) return Math.trunc(n);
  if (typeof v === 'string') {
    const m = /^\s*(\d{4})(-|\/|$)/.exec(v);
    if (m) return Number(m[1]);
  }
  return null;
}

function size(v: unknown): string | null {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Json;
    const start = num(o.start ?? o.min);
    const end = num(o.end ?? o.max);
    if (start !== null && end !== null) return `${start}-${end}`;
    if (start !== null) return `${start}+`;
    return null;
  }
  return str(v);
}

function website(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  return /^https?:\/\//i.test(s) ? s : `https://${s}`;
}

/** The provider's record → the built-in company info fields (numbers for founded, employee_count, follower_count). */
export function mapCompany(r: Json, queriedLinkedIn: string | null): CompanyInfo {
  const linkedin = str(pick(r, 'linkedin_url', 'linkedin', 'social.linkedin', 'linkedin_company_url'));
  return {
    url: (linkedin && normalizeLinkedInCompanyUrl(linkedin)) ?? linkedin ?? queriedLinkedIn,
    name: str(pick(r, 'name', 'company_name')),
    size: size(pick(r, 'size', 'employee_range', 'company_size', 'staff_count_range', 'employees_range')),
    type: str(pick(r, 'type', 'company_type', 'organization_type')),
    country: str(pick(r, 'country', 'hq_country', 'headquarters.country', 'location.country', 'country_code', 'hq.country')),
    founded: year(pick(r, 'founded', 'founded_year', 'year_founded', 'founded_on')),
    website: website(pick(r, 'website', 'website_url', 'domain')),
    description: str(pick(r, 'description', 'about', 'tagline')),
    employee_count: num(pick(r, 'employee_count', 'employees', 'staff_count', 'employees_count', 'num_employees')),
    follower_count: num(pick(r, 'follower_count', 'followers', 'linkedin_follower_count', 'followers_count', 'linkedin_followers')),
  };
}
