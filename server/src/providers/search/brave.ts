// The search port's real adapter: the Brave Search API (Web Search).
//   GET {SEARCH_BASE_URL}/res/v1/web/search?q=…&count=…&result_filter=web
//   headers: Accept: application/json, Accept-Encoding: gzip, X-Subscription-Token: <key>
//   200: { type: 'search', query: { original, … }, web: { type: 'search', results: [{ title, url, description, … }] } }
//   errors: { type: 'ErrorResponse', error: { id, status, code, detail } }; 429 when over the plan's rate.
// The base URL comes from configuration (the vendor's by default); tests point it at a fake server on
// loopback that speaks the same API. The endpoint is fixed by configuration, not chosen by the model,
// so this adapter uses the platform fetch and not the guarded client.
import { SearchError, type SearchPort, type SearchResult } from './port';
import { inlineText } from '../../lib/html-text';

export const BRAVE_DEFAULT_BASE_URL = 'https://api.search.brave.com';
/** Brave documents at most 400 characters and 50 words per query, and count ≤ 20. */
const MAX_QUERY_CHARS = 400;
const MAX_QUERY_WORDS = 50;
const MAX_COUNT = 20;

export interface BraveSearchOptions {
  apiKey?: string;
  baseUrl?: string;
  timeoutMs?: number;
}

interface BraveWebResult {
  title?: unknown;
  url?: unknown;
  description?: unknown;
}

interface BraveResponse {
  web?: { results?: BraveWebResult[] };
  error?: { detail?: unknown; code?: unknown };
}

export class BraveSearch implements SearchPort {
  readonly available: boolean;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly opts: BraveSearchOptions) {
    this.available = Boolean(opts.apiKey);
    this.baseUrl = (opts.baseUrl ?? BRAVE_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  async search(query: string, o: { count?: number; signal?: AbortSignal } = {}): Promise<SearchResult[]> {
    if (!this.opts.apiKey) throw new SearchError('unavailable', 'No search provider is configured.');
    const q = query.trim().split(/\s+/).slice(0, MAX_QUERY_WORDS).join(' ').slice(0, MAX_QUERY_CHARS);
    const url = new URL(`${this.baseUrl}/res/v1/web/search`);
    url.searchParams.set('q', q);
    url.searchParams.set('count', String(Math.min(Math.max(o.count ?? 10, 1), MAX_COUNT)));
    url.searchParams.set('result_filter', 'web');
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json', 'accept-encoding': 'gzip', 'x-subscription-token': this.opts.apiKey },
        signal,
      });
    } catch {
      if (o.signal?.aborted) throw new SearchError('cancelled', 'Cancelled.');
      if (timeout.aborted) throw new SearchError('timeout', 'The search provider did not answer in time.');
      throw new SearchError('provider', 'The search provider could not be reached.');
    }
    let body: BraveResponse | null;
    try {
      body = (await res.json()) as BraveResponse;
    } catch {
      body = null;
    }
    if (res.status === 429) throw new SearchError('rate_limited', 'The search provider is rate limiting us; try again later.');
    if (res.status === 401 || res.status === 403) throw new SearchError('unavailable', 'The search provider refused the configured key.');
    if (!res.ok || !body) {
      const detail = typeof body?.error?.detail === 'string' ? `: ${body.error.detail.slice(0, 200)}` : '';
      throw new SearchError('provider', `The search provider answered HTTP ${res.status}${detail}.`);
    }
    const results = Array.isArray(body.web?.results) ? body.web.results : [];
    return results
      .filter((r) => typeof r.url === 'string' && /^https?:\/\//i.test(r.url))
      .map((r) => ({ title: plain(r.title), url: r.url as string, snippet: plain(r.description) }));
  }
}

/** Brave marks matches with <strong> and escapes entities in titles and descriptions. */
const plain = (v: unknown): string => (typeof v === 'string' ? inlineText(v) : '');
