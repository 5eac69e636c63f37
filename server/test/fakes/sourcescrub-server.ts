// A fake Source Scrub API on loopback: the identity server's password grant (POST
// /connect/token, Basic client credential, form body; 400 invalid_grant for a wrong account), and
// the API with the bearer token (401 once a token is expired: `expireTokens()`): POST
// /search/sources, POST /search/companies (limit ≤ 100, offset), GET /sources/{id}/companies.
import { randomUUID } from 'node:crypto';
import { startFake, type FakeBase } from './list-providers-common';

export interface SsCompany {
  id: string;
  name: string;
  website?: string;
  domain?: string;
  description?: string;
  city?: string;
  country?: string;
  currentEmployeeCount?: number;
}
export interface SsSource {
  id: string;
  officialTitle: string;
  sourceType: string;
  city?: string;
  country?: string;
  startDate?: string;
  endDate?: string;
  companyIds: string[];
}

export interface FakeSourceScrubServer extends FakeBase {
  companies: SsCompany[];
  sources: SsSource[];
  /** Every token issued so far answers 401 from now on. */
  expireTokens(): void;
  tokensIssued: number;
}

export async function startFakeSourceScrub(opts: {
  username: string;
  password: string;
  clientBasic: string;
  expiresIn?: number;
}): Promise<FakeSourceScrubServer> {
  const state = { companies: [] as SsCompany[], sources: [] as SsSource[], tokens: new Set<string>(), issued: 0 };
  const page = <T>(items: T[], limit: number, offset: number) => ({ total: items.length, items: items.slice(offset, offset + limit) });
  const base = await startFake(
    (req, send) => {
      if (req.method === 'POST' && req.path === '/connect/token') {
        if (req.headers.authorization !== `Basic ${opts.clientBasic}`) return send(401, { error: 'invalid_client' });
        const f = req.body as Record<string, string>;
        if (f.grant_type !== 'password' || f.scope !== 'client_api') return send(400, { error: 'unsupported_grant_type' });
        if (f.username !== opts.username || f.password !== opts.password)
          return send(400, { error: 'invalid_grant', error_description: 'invalid_username_or_password' });
        const t = randomUUID();
        state.tokens.add(t);
        state.issued += 1;
        return send(200, { access_token: t, expires_in: opts.expiresIn ?? 3600, token_type: 'Bearer', scope: 'client_api' });
      }
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!bearer || !state.tokens.has(bearer)) return send(401, { message: 'Authorization has been denied for this request.' });
      const b = (req.body ?? {}) as { limit?: number; offset?: number; searchText?: string; filters?: Record<string, unknown> };
      const limit = b.limit ?? Number(req.query.get('limit') ?? 100);
      const offset = b.offset ?? Number(req.query.get('offset') ?? 0);
      if (limit > 100) return send(400, { message: 'The limit must be between 0 and 100.' });
      const text = (b.searchText ?? '').toLowerCase();
      if (req.method === 'POST' && req.path === '/search/sources') {
        const types = (b.filters?.sourceTypes as string[] | undefined) ?? [];
        const hits = state.sources.filter(
          (s) => (!text || s.officialTitle.toLowerCase().includes(text)) && (!types.length || types.includes(s.sourceType)),
        );
        const p = page(hits, limit, offset);
        return send(200, { total: p.total, items: p.items.map(({ companyIds, ...s }) => ({ ...s, companyCount: companyIds.length })) });
      }
      if (req.method === 'POST' && req.path === '/search/companies') {
        return send(
          200,
          page(
            state.companies.filter(
              (c) => !text || c.name.toLowerCase().includes(text) || (c.description ?? '').toLowerCase().includes(text),
            ),
            limit,
            offset,
          ),
        );
      }
      const m = /^\/sources\/([^/]+)\/companies$/.exec(req.path);
      if (req.method === 'GET' && m) {
        const src = state.sources.find((s) => s.id === decodeURIComponent(m[1]));
        if (!src) return send(404, { message: 'Source not found.' });
        return send(200, page(src.companyIds.map((id) => state.companies.find((c) => c.id === id)!).filter(Boolean), limit, offset));
      }
      return send(404, { message: 'No HTTP resource was found that matches the request URI.' });
    },
    (f) => ({ message: f.status === 429 ? 'API calls quota exceeded! maximum admitted 30 per Second.' : 'An error has occurred.' }),
  );
  const api = Object.assign(base, {
    companies: state.companies,
    sources: state.sources,
    expireTokens: () => state.tokens.clear(),
    tokensIssued: 0,
  });
  Object.defineProperty(api, 'tokensIssued', { get: () => state.issued });
  return api;
}
