// Source Scrub (https://api.sourcescrub.com): companies from its search and from its sources
// (conferences, lists, buyers' guides). The API, as documented for API accounts and used by
// published clients:
//
//   token  POST {identity}/connect/token  (application/x-www-form-urlencoded)
//          Authorization: Basic <the API client's id:secret, base64>  (the operator's: SOURCESCRUB_CLIENT_BASIC)
//          grant_type=password&username=…&password=…&scope=client_api   (the organization's account)
//        → { access_token, expires_in, token_type: 'Bearer' }
//   POST {base}/search/sources    { filters, searchText, limit (≤ 100), offset, orderBy } → { total, items: [source] }
//   POST {base}/search/companies  { filters, searchText, limit (≤ 100), offset }          → { total, items: [company] }
//   GET  {base}/sources/{id}/companies?limit=&offset=                                       → { total, items: [company] }
//
// A source has id, officialTitle, nickname, sourceType, city, state, country, startDate, endDate,
// companyCount; a company id, name, website, domain, description, city, state, country,
// currentEmployeeCount, foundingYear. 401 means the token expired: one new token, then the call
// again. 429 with Retry-After when over 30 requests per second; errors as `{ message }` or
// `{ error, error_description }` (token endpoint).
import { createHash } from 'node:crypto';
import { normalizeDomain } from '@dealscout/shared/domain';
import { providerJson } from './http';
import { clean } from './ocean';
import { ListProviderError, type SourceCompany } from './port';

export const SOURCESCRUB_DEFAULT_BASE_URL = 'https://api.sourcescrub.com';
export const SOURCESCRUB_DEFAULT_IDENTITY_URL = 'https://identity.sourcescrub.com';
const PAGE = 100;

type Json = Record<string, unknown>;

export interface SourceScrubSource {
  id: string;
  title: string;
  type: string | null;
  location: string | null;
  startDate: string | null;
  endDate: string | null;
  companyCount: number | null;
}

export function sourceScrubErrorText(body: unknown): string | null {
  const b = body as Json | null;
  if (!b) return null;
  if (typeof b.message === 'string') return b.message;
  if (typeof b.error_description === 'string') return b.error_description;
  if (typeof b.error === 'string') return b.error;
  return null;
}

/**
 * Tokens kept across clients (a client is made per request from the organization's key): one
 * password grant per account until the token is about to expire, instead of one per preview.
 * Keyed by a hash of the identity URL and the whole credential, so new credentials never reuse an
 * old token; a 401 drops the entry. Bounded: the oldest entries leave first.
 */
const TOKEN_MARGIN_MS = 60_000;
const TOKEN_CACHE_MAX = 500;
const tokenCache = new Map<string, { token: string; expiresAt: number }>();

export function clearSourceScrubTokenCache(): void {
  tokenCache.clear();
}

export class SourceScrubClient {
  private readonly baseUrl: string;
  private readonly identityUrl: string;
  private token: string | null = null;
  private readonly cacheKey: string;

  constructor(
    private readonly opts: {
      username: string;
      password: string;
      clientBasic: string;
      baseUrl?: string;
      identityUrl?: string;
      timeoutMs?: number;
    },
  ) {
    this.baseUrl = (opts.baseUrl ?? SOURCESCRUB_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.identityUrl = (opts.identityUrl ?? SOURCESCRUB_DEFAULT_IDENTITY_URL).replace(/\/+$/, '');
    this.cacheKey = createHash('sha256')
      .update(JSON.stringify([this.identityUrl, opts.username, opts.password, opts.clientBasic]))
      .digest('hex');
  }

  private cachedToken(): string | null {
    const hit = tokenCache.get(this.cacheKey);
    if (!hit) return null;
    if (hit.expiresAt - TOKEN_MARGIN_MS <= Date.now()) {
      tokenCache.delete(this.cacheKey);
      return null;
    }
    return hit.token;
  }

  private http(signal?: AbortSignal) {
    return { provider: 'Source Scrub', timeoutMs: this.opts.timeoutMs ?? 30_000, signal, errorText: sourceScrubErrorText };
  }

  private async authenticate(signal?: AbortSignal): Promise<string> {
    const body = new URLSearchParams({
      grant_type: 'password',
      username: this.opts.username,
      password: this.opts.password,
      scope: 'client_api',
    });
    let answer: Json;
    try {
      answer = (await providerJson(
        `${this.identityUrl}/connect/token`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${this.opts.clientBasic}` },
          body: body.toString(),
        },
        this.http(signal),
      )) as Json;
    } catch (e) {
      // The token endpoint answers 400 invalid_grant for a wrong username or password.
      if (e instanceof ListProviderError && (e.kind === 'bad_request' || e.kind === 'auth'))
        throw new ListProviderError(
          'auth',
          "Source Scrub refused your organization's username or password. An admin can replace them under Profile → Integrations.",
        );
      throw e;
    }
    if (typeof answer.access_token !== 'string') throw new ListProviderError('provider', 'Source Scrub sent no access token.', true);
    this.token = answer.access_token;
    const expiresIn = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 0;
    if (expiresIn * 1000 > TOKEN_MARGIN_MS) {
      tokenCache.delete(this.cacheKey);
      if (tokenCache.size >= TOKEN_CACHE_MAX) tokenCache.delete(tokenCache.keys().next().value!);
      tokenCache.set(this.cacheKey, { token: answer.access_token, expiresAt: Date.now() + expiresIn * 1000 });
    }
    return this.token;
  }

  /** A call with the bearer token; on 401 one new token and the call again. */
  private async call(method: 'GET' | 'POST', path: string, body: unknown, signal?: AbortSignal): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const token = this.token ?? this.cachedToken() ?? (await this.authenticate(signal));
      try {
        return (await providerJson(
          `${this.baseUrl}${path}`,
          {
            method,
            headers: {
              authorization: `Bearer ${token}`,
              accept: 'application/json',
              ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          },
          this.http(signal),
        )) as Json;
      } catch (e) {
        if (attempt === 0 && e instanceof ListProviderError && e.kind === 'auth') {
          this.token = null;
          if (tokenCache.get(this.cacheKey)?.token === token) tokenCache.delete(this.cacheKey);
          continue;
        }
        throw e;
      }
    }
  }

  /** Sources matching the filters (and a search text), newest end date first. */
  async searchSources(
    q: { searchText?: string | null; filters?: Record<string, unknown> },
    max: number,
    signal?: AbortSignal,
  ): Promise<{ sources: SourceScrubSource[]; total: number }> {
    const page = await this.call(
      'POST',
      '/search/sources',
      {
        filters: q.filters ?? {},
        ...(q.searchText ? { searchText: q.searchText } : {}),
        limit: Math.min(PAGE, max),
        offset: 0,
        orderBy: 'endDate DESC',
      },
      signal,
    );
    const items = Array.isArray(page.items) ? (page.items as Json[]) : [];
    return {
      total: typeof page.total === 'number' ? page.total : items.length,
      sources: items.slice(0, max).map((s) => ({
        id: String(s.id),
        title: String(s.officialTitle ?? s.nickname ?? s.id),
        type: typeof s.sourceType === 'string' ? s.sourceType : null,
        location: [s.city, s.state, s.country].filter((x) => typeof x === 'string' && x).join(', ') || null,
        startDate: typeof s.startDate === 'string' ? s.startDate : null,
        endDate: typeof s.endDate === 'string' ? s.endDate : null,
        companyCount: typeof s.companyCount === 'number' ? s.companyCount : null,
      })),
    };
  }

  /** Companies of a company search (filters and a search text), at most `max`. */
  async searchCompanies(
    q: { searchText?: string | null; filters?: Record<string, unknown> },
    max: number,
    o: { signal?: AbortSignal; onPage?: (n: number) => void | Promise<void> } = {},
  ): Promise<{ companies: SourceCompany[]; total: number }> {
    return this.pages(
      max,
      (limit, offset) =>
        this.call(
          'POST',
          '/search/companies',
          { filters: q.filters ?? {}, ...(q.searchText ? { searchText: q.searchText } : {}), limit, offset },
          o.signal,
        ),
      o.onPage,
    );
  }

  /** The companies of the given sources, in order, at most `max` in all. */
  async sourceCompanies(
    sourceIds: readonly string[],
    max: number,
    o: { signal?: AbortSignal; onPage?: (n: number) => void | Promise<void> } = {},
  ): Promise<{ companies: SourceCompany[]; total: number }> {
    const out: SourceCompany[] = [];
    let total = 0;
    for (const id of sourceIds) {
      if (out.length >= max) break;
      const r = await this.pages(
        max - out.length,
        (limit, offset) =>
          this.call('GET', `/sources/${encodeURIComponent(id)}/companies?limit=${limit}&offset=${offset}`, undefined, o.signal),
        (n) => o.onPage?.(out.length + n),
        { sourceScrubSourceId: id },
      );
      out.push(...r.companies);
      total += r.total;
    }
    return { companies: out, total };
  }

  private async pages(
    max: number,
    fetchPage: (limit: number, offset: number) => Promise<Json>,
    onPage?: (n: number) => void | Promise<void>,
    extra: Record<string, unknown> = {},
  ): Promise<{ companies: SourceCompany[]; total: number }> {
    const out: SourceCompany[] = [];
    let total = 0;
    for (let offset = 0; out.length < max;) {
      const page = await fetchPage(Math.min(PAGE, max - out.length), offset);
      const items = Array.isArray(page.items) ? (page.items as Json[]) : [];
      total = typeof page.total === 'number' ? page.total : total;
      for (const c of items) out.push(toCompany(c, extra));
      offset += items.length;
      await onPage?.(out.length);
      if (items.length === 0 || offset >= total) break;
    }
    return { companies: out.slice(0, max), total };
  }
}

function toCompany(c: Json, extra: Record<string, unknown>): SourceCompany {
  const raw = typeof c.website === 'string' && c.website ? c.website : typeof c.domain === 'string' && c.domain ? c.domain : null;
  const domain = raw ? normalizeDomain(raw) || null : null;
  const name =
    (typeof c.name === 'string' && c.name.trim()) ||
    (typeof c.informalName === 'string' && c.informalName.trim()) ||
    domain ||
    String(c.id ?? '');
  return {
    name,
    website: raw ? (/^https?:\/\//i.test(raw) ? raw : `https://${raw}`) : null,
    domain,
    data: clean({
      sourceScrubId: c.id,
      description: c.description,
      location: [c.city, c.state, c.country].filter((x) => typeof x === 'string' && x).join(', '),
      employees: c.currentEmployeeCount,
      foundingYear: c.foundingYear,
      ...extra,
    }),
  };
}
