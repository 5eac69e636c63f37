// A fake MixRank company API on loopback, speaking the shape the adapter assumes (see
// server/src/providers/company-details/mixrank.ts): the key as a path segment,
// GET /{key}/companies/match?url=https://acme.com/&linkedin= → { results: [...] } (or, with
// `matchShape: 'best'`, the best match object itself), GET /{key}/companies/{id} → the record.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeMixRankServer {
  /** Base URL for MIXRANK_BASE_URL, e.g. http://127.0.0.1:41234/v2/json */
  url: string;
  requests: { path: string; query: URLSearchParams }[];
  /** A company record, found by its domain and/or LinkedIn URL. */
  add(record: { id: number | string; domain?: string; linkedin_url?: string } & Record<string, unknown>): void;
  failNext(status: number): void;
  /** How /companies/match answers: a results list (default) or the best match object itself. */
  matchShape: 'results' | 'best';
  close(): Promise<void>;
}

export async function startFakeMixRank(opts: { apiKey: string }): Promise<FakeMixRankServer> {
  const records: Array<Record<string, unknown> & { id: number | string }> = [];
  const requests: FakeMixRankServer['requests'] = [];
  const failures: number[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    requests.push({ path: u.pathname, query: u.searchParams });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const m = /^\/v2\/json\/([^/]+)\/companies\/(match|[^/]+)$/.exec(u.pathname);
    if (!m) return send(404, { errors: [{ message: 'not found' }] });
    if (decodeURIComponent(m[1]) !== opts.apiKey) return send(401, { errors: [{ message: 'invalid api key' }] });
    const fail = failures.shift();
    if (fail) return send(fail, { errors: [{ message: 'scripted failure' }] });
    if (m[2] === 'match') {
      const rawUrl = u.searchParams.get('url');
      const url = rawUrl
        ? rawUrl
            .replace(/^https?:\/\//i, '')
            .replace(/^www\./i, '')
            .replace(/\/.*$/, '')
            .toLowerCase()
        : null;
      const linkedin = u.searchParams.get('linkedin');
      const found = records.filter((r) => (url && r.domain === url) || (linkedin && r.linkedin_url === linkedin));
      if (api.matchShape === 'best')
        return found.length ? send(200, { ...found[0], confidence_score: 0.97 }) : send(404, { errors: ['No match found'] });
      return send(200, {
        results: found.map((r) => ({ id: r.id, name: r.name, domain: r.domain, confidence_score: 0.97 })),
        total_matches: found.length,
      });
    }
    const rec = records.find((r) => String(r.id) === decodeURIComponent(m[2]));
    return rec ? send(200, rec) : send(404, { errors: [{ message: 'company not found' }] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const api: FakeMixRankServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/json`,
    requests,
    add: (r) => void records.push(r),
    failNext: (status) => void failures.push(status),
    matchShape: 'results',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
