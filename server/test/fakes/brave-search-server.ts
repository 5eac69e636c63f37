// A fake Brave Search API (Web Search) on loopback: GET /res/v1/web/search with X-Subscription-Token,
// answering the documented WebSearchApiResponse shape ({ type: 'search', query, web: { results } })
// and the documented ErrorResponse on errors. Results are scripted per query (or by a function).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeBraveResult {
  title: string;
  url: string;
  description: string;
}

export interface FakeBraveServer {
  /** Base URL for SEARCH_BASE_URL, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: { path: string; query: URLSearchParams; token: string | undefined }[];
  /** Results for a query (exact text); other queries get none. */
  results(query: string, results: FakeBraveResult[]): void;
  /** The next request gets this status with Brave's error body. */
  failNext(status: number, code?: string): void;
  close(): Promise<void>;
}

export async function startFakeBrave(opts: { apiKey?: string } = {}): Promise<FakeBraveServer> {
  const table = new Map<string, FakeBraveResult[]>();
  const requests: FakeBraveServer['requests'] = [];
  const failures: { status: number; code: string }[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const token = req.headers['x-subscription-token'] as string | undefined;
    requests.push({ path: u.pathname, query: u.searchParams, token });
    const error = (status: number, code: string, detail: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'ErrorResponse', error: { id: 'fake', status, code, detail, meta: {} }, time: Date.now() }));
    };
    if (req.method !== 'GET' || u.pathname !== '/res/v1/web/search') return error(404, 'RESOURCE_NOT_FOUND', 'Resource not found.');
    if (!token || (opts.apiKey && token !== opts.apiKey))
      return error(401, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.');
    const fail = failures.shift();
    if (fail) return error(fail.status, fail.code, 'Scripted failure.');
    const q = u.searchParams.get('q') ?? '';
    if (!q) return error(422, 'VALIDATION', 'Unable to validate request parameter(s).');
    const count = Number(u.searchParams.get('count') ?? 20);
    const results = (table.get(q) ?? []).slice(0, count).map((r) => ({
      type: 'search_result',
      subtype: 'generic',
      is_source_local: false,
      is_source_both: false,
      family_friendly: true,
      language: 'en',
      ...r,
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        type: 'search',
        query: {
          original: q,
          show_strict_warning: false,
          is_navigational: false,
          local_decision: 'drop',
          local_locations_idx: 0,
          is_news_breaking: false,
          spellcheck_off: true,
          country: 'us',
          bad_results: false,
          should_fallback: false,
          postal_code: '',
          city: '',
          header_country: '',
          more_results_available: false,
          state: '',
        },
        mixed: { type: 'mixed', main: results.map((_, index) => ({ type: 'web', index, all: false })), top: [], side: [] },
        web: { type: 'search', results, family_friendly: true },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    results: (query, results) => void table.set(query, results),
    failNext: (status, code = status === 429 ? 'RATE_LIMITED' : 'SERVER_ERROR') => void failures.push({ status, code }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
