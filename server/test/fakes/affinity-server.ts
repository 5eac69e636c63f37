// A fake Affinity API (v1) on loopback, following the documented requests and answers: HTTP basic
// auth with the API key as password (401 { message } otherwise); GET /auth/whoami → { tenant, user,
// grant }; GET /organizations and /persons with page_size / page_token → { organizations | persons,
// next_page_token }; GET /organizations/fields, /persons/fields; 429 with Retry-After (seconds) when
// a rate limit is scripted (`limitNext(n, seconds)`), with the X-Ratelimit-Limit-User-* headers.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export class FakeAffinity {
  url = '';
  readonly requests: { method: string; path: string; query: URLSearchParams; authorization?: string }[] = [];
  readonly organizations: Array<{ id: number; name: string; domain: string | null; domains: string[] }> = [];
  /** type 0: an external person; 1: an internal person (a user of the Affinity instance). */
  readonly persons: Array<{ id: number; type: number; first_name: string; last_name: string; primary_email: string | null; emails: string[]; organization_ids: number[] }> = [];
  readonly tenant = { id: 4242, name: 'Acme Capital', subdomain: 'acmecapital' };
  readonly user = { id: 77, first_name: 'Alex', last_name: 'Partner', email: 'alex@acmecapital.example.com' };
  private readonly server: http.Server;
  private readonly tokens = new Map<string, { kind: 'organizations' | 'persons'; offset: number }>();
  private limited: { remaining: number; seconds: number } | null = null;
  private nextId = 1000;

  private constructor(readonly apiKeys: string[]) {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.persons.push({ id: this.user.id, type: 1, first_name: this.user.first_name, last_name: this.user.last_name, primary_email: this.user.email, emails: [this.user.email], organization_ids: [] });
  }

  static async start(opts: { apiKeys: string[] }): Promise<FakeAffinity> {
    const f = new FakeAffinity(opts.apiKeys);
    await new Promise<void>((resolve) => f.server.listen(0, '127.0.0.1', resolve));
    f.url = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}`;
    return f;
  }

  /** The next `count` authenticated requests answer 429 with Retry-After: `seconds`. */
  limitNext(count: number, seconds: number): void {
    this.limited = { remaining: count, seconds };
  }
  addOrganization(name: string, domain: string | null): { id: number } {
    const o = { id: this.nextId++, name, domain, domains: domain ? [domain] : [] };
    this.organizations.push(o);
    return o;
  }
  addPerson(first: string, last: string, email: string | null, organizationIds: number[] = [], type = 0): { id: number } {
    const p = { id: this.nextId++, type, first_name: first, last_name: last, primary_email: email, emails: email ? [email] : [], organization_ids: organizationIds };
    this.persons.push(p);
    return p;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const u = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, authorization: req.headers.authorization });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const key = m ? Buffer.from(m[1], 'base64').toString('utf8').replace(/^[^:]*:/, '') : null;
    if (!key || !this.apiKeys.includes(key)) return send(401, { message: 'Authentication failed' });
    const limitHeaders = { 'X-Ratelimit-Limit-User': '900', 'X-Ratelimit-Limit-User-Remaining': String(this.limited ? 0 : 899), 'X-Ratelimit-Limit-User-Reset': '60' };
    if (this.limited && this.limited.remaining > 0) {
      this.limited.remaining -= 1;
      const seconds = this.limited.seconds;
      if (this.limited.remaining === 0) this.limited = null;
      return send(429, { message: 'Too many requests' }, { ...limitHeaders, 'Retry-After': String(seconds) });
    }
    if (u.pathname === '/auth/whoami') {
      return send(200, { tenant: this.tenant, user: this.user, grant: { type: 'api_key', scope: 'external_api', created_at: '2024-01-01T00:00:00.000-08:00' } }, limitHeaders);
    }
    if (u.pathname === '/organizations/fields' || u.pathname === '/persons/fields') {
      return send(200, [
        { id: 101, name: 'Industry', value_type: 2, allows_multiple: false, list_id: null },
        { id: 102, name: 'Stage', value_type: 7, allows_multiple: false, list_id: null },
      ], limitHeaders);
    }
    const list = /^\/(organizations|persons)$/.exec(u.pathname);
    if (list) {
      const kind = list[1] as 'organizations' | 'persons';
      const size = Math.min(Number(u.searchParams.get('page_size') ?? 500) || 500, 500);
      const token = u.searchParams.get('page_token');
      let offset = 0;
      if (token) {
        const t = this.tokens.get(token);
        if (!t || t.kind !== kind) return send(422, { message: 'Invalid page_token' }, limitHeaders);
        offset = t.offset;
      }
      const term = u.searchParams.get('term')?.toLowerCase() ?? null;
      const source = kind === 'organizations' ? this.organizations : this.persons;
      const all = term
        ? source.filter((r) => JSON.stringify(r).toLowerCase().includes(term))
        : source;
      const items = all.slice(offset, offset + size);
      let next: string | null = null;
      if (offset + size < all.length) {
        next = randomBytes(12).toString('base64url');
        this.tokens.set(next, { kind, offset: offset + size });
      }
      return send(200, { [kind]: items, next_page_token: next }, limitHeaders);
    }
    return send(404, { message: 'Not found' }, limitHeaders);
  }
}
