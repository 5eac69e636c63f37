// A fake Affinity API (v1) on loopback, following the documented requests and answers: HTTP basic
// auth with the API key as password (401 { message } otherwise); GET /auth/whoami → { tenant, user,
// grant }; GET /organizations and /persons with page_size / page_token → { organizations | persons,
// next_page_token }; GET /organizations/fields, /persons/fields; 429 with Retry-After (seconds) when
// a rate limit is scripted (`limitNext(n, seconds)`), with the X-Ratelimit-Limit-User-* headers.
// Writes: POST /organizations, GET|PUT /organizations/{id}; POST /persons, GET|PUT /persons/{id}
// (emails unique across persons; PUT replaces emails / organization_ids); GET /field-values?
// person_id|organization_id, POST /field-values, PUT|DELETE /field-values/{id} (value checked
// against the field's value_type; one value per entity for a single-value field); POST /notes, GET
// /notes?person_id|organization_id with page_token. Validation errors are 422 { message }, unknown
// ids 404 { message }. Inspection: `organizations`, `persons`, `fieldValues`, `notes`; `seed()` for
// benches. And v2's reads of records with their global field values (bearer auth): GET /v2/companies,
// /v2/persons with ids, fieldIds, limit and cursor (v2List).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export class FakeAffinity {
  url = '';
  readonly requests: { method: string; path: string; query: URLSearchParams; authorization?: string }[] = [];
  readonly organizations: Array<{
    id: number;
    name: string;
    domain: string | null;
    domains: string[];
    global?: boolean;
    crm_owner_ids?: number[];
  }> = [];
  /** type 0: an external person; 1: an internal person (a user of the Affinity instance). */
  readonly persons: Array<{
    id: number;
    type: number;
    first_name: string;
    last_name: string;
    primary_email: string | null;
    emails: string[];
    organization_ids: number[];
  }> = [];
  /** Global fields per kind (value_type 2 dropdown (text), 3 number, 4 date, 6 text, 7 ranked dropdown (option id)). */
  readonly fieldDefs: Record<'organizations' | 'persons', FakeAffinityField[]> = {
    organizations: [
      { id: 101, name: 'Industry', value_type: 2, allows_multiple: false, list_id: null },
      {
        id: 102,
        name: 'Stage',
        value_type: 7,
        allows_multiple: false,
        list_id: null,
        dropdown_options: [
          { id: 1, text: 'Lead', rank: 0, color: 0 },
          { id: 2, text: 'Qualified', rank: 1, color: 0 },
        ],
      },
      { id: 103, name: 'Dealscout Score', value_type: 3, allows_multiple: false, list_id: null },
      { id: 104, name: 'Description', value_type: 6, allows_multiple: false, list_id: null },
      { id: 105, name: 'Tags', value_type: 6, allows_multiple: true, list_id: null },
    ],
    persons: [
      { id: 101, name: 'Industry', value_type: 2, allows_multiple: false, list_id: null },
      {
        id: 102,
        name: 'Stage',
        value_type: 7,
        allows_multiple: false,
        list_id: null,
        dropdown_options: [
          { id: 1, text: 'Lead', rank: 0, color: 0 },
          { id: 2, text: 'Qualified', rank: 1, color: 0 },
        ],
      },
      { id: 201, name: 'Job Title', value_type: 6, allows_multiple: false, list_id: null },
      { id: 202, name: 'Last Contacted', value_type: 4, allows_multiple: false, list_id: null },
    ],
  };
  readonly fieldValues: Array<{
    id: number;
    field_id: number;
    entity_id: number;
    entity_type: 'organization' | 'person';
    list_entry_id: number | null;
    value: unknown;
  }> = [];
  readonly notes: Array<{
    id: number;
    creator_id: number;
    person_ids: number[];
    organization_ids: number[];
    opportunity_ids: number[];
    content: string;
    type: number;
    created_at: string;
    updated_at: string | null;
  }> = [];
  readonly tenant = { id: 4242, name: 'Acme Capital', subdomain: 'acmecapital' };
  readonly user = { id: 77, first_name: 'Alex', last_name: 'Partner', email: 'alex@acmecapital.example.com' };
  private readonly server: http.Server;
  private readonly tokens = new Map<string, { kind: 'organizations' | 'persons' | 'notes' | 'companies'; offset: number }>();
  /**
   * The v2 reads' indexes (records by id, global values by record and field), built when first
   * asked and again when the array they index has changed length or last element (records and
   * values are added by push and removed by splice — a removal then an addition changes the last
   * element; a value changed in place is seen through its object). Built per
   * request, they made the fake — not the sync — most of a bench's second Affinity sync.
   */
  private readonly v2Indexes = new Map<string, { length: number; last: unknown; index: Map<unknown, unknown> }>();
  private limited: { remaining: number; seconds: number } | null = null;
  private nextId = 1000;

  private constructor(readonly apiKeys: string[]) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    this.persons.push({
      id: this.user.id,
      type: 1,
      first_name: this.user.first_name,
      last_name: this.user.last_name,
      primary_email: this.user.email,
      emails: [this.user.email],
      organization_ids: [],
    });
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
    const p = {
      id: this.nextId++,
      type,
      first_name: first,
      last_name: last,
      primary_email: email,
      emails: email ? [email] : [],
      organization_ids: organizationIds,
    };
    this.persons.push(p);
    return p;
  }

  /**
   * Fast in-memory seed for benches: `organizations` organizations (org{i}.example.com) and `persons` persons
   * (person{i}@org{i % organizations}.example.com).
   */
  seed(counts: { organizations?: number; persons?: number }): void {
    const orgStart = this.nextId;
    const orgs = counts.organizations ?? 0;
    for (let i = 0; i < orgs; i += 1)
      this.organizations.push({ id: this.nextId++, name: `Org ${i}`, domain: `org${i}.example.com`, domains: [`org${i}.example.com`] });
    for (let i = 0; i < (counts.persons ?? 0); i += 1) {
      const email = `person${i}@org${orgs ? i % orgs : 0}.example.com`;
      this.persons.push({
        id: this.nextId++,
        type: 0,
        first_name: 'Person',
        last_name: String(i),
        primary_email: email,
        emails: [email],
        organization_ids: orgs ? [orgStart + (i % orgs)] : [],
      });
    }
  }
  /** Field values of an entity (inspection). */
  valuesOf(entityType: 'organization' | 'person', entityId: number): Record<number, unknown> {
    return Object.fromEntries(
      this.fieldValues.filter((v) => v.entity_type === entityType && v.entity_id === entityId).map((v) => [v.field_id, v.value]),
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const u = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, authorization: req.headers.authorization });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    // v1 takes the key as a basic-auth password, v2 (/v2/…) as a bearer token; each refuses the other.
    const v2 = u.pathname.startsWith('/v2/');
    const m = v2 ? /^Bearer (.+)$/.exec(req.headers.authorization ?? '') : /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const key = m
      ? v2
        ? m[1]
        : Buffer.from(m[1], 'base64')
            .toString('utf8')
            .replace(/^[^:]*:/, '')
      : null;
    if (!key || !this.apiKeys.includes(key)) {
      return v2
        ? send(401, { errors: [{ code: 'authentication', message: 'Invalid API key' }] })
        : send(401, { message: 'Authentication failed' });
    }
    const limitHeaders = {
      'X-Ratelimit-Limit-User': '900',
      'X-Ratelimit-Limit-User-Remaining': String(this.limited ? 0 : 899),
      'X-Ratelimit-Limit-User-Reset': '60',
    };
    if (this.limited && this.limited.remaining > 0) {
      this.limited.remaining -= 1;
      const seconds = this.limited.seconds;
      if (this.limited.remaining === 0) this.limited = null;
      return send(429, { message: 'Too many requests' }, { ...limitHeaders, 'Retry-After': String(seconds) });
    }
    const v2List = /^\/v2\/(companies|persons)$/.exec(u.pathname);
    if (v2List && (req.method ?? 'GET') === 'GET') {
      const [status, out] = this.v2List(v2List[1] as 'companies' | 'persons', u);
      return send(status, out, limitHeaders);
    }
    if (u.pathname === '/auth/whoami') {
      return send(
        200,
        {
          tenant: this.tenant,
          user: this.user,
          grant: { type: 'api_key', scope: 'external_api', created_at: '2024-01-01T00:00:00.000-08:00' },
        },
        limitHeaders,
      );
    }
    if (u.pathname === '/organizations/fields' || u.pathname === '/persons/fields') {
      return send(200, this.fieldDefs[u.pathname === '/organizations/fields' ? 'organizations' : 'persons'], limitHeaders);
    }
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(400, { message: 'Malformed JSON body' }, limitHeaders);
      }
    }
    const method = req.method ?? 'GET';
    const written = this.write(method, u, body);
    if (written) return send(written[0], written[1], limitHeaders);
    const list = /^\/(organizations|persons)$/.exec(u.pathname);
    if (list && method === 'GET') {
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
      const all = term ? source.filter((r) => JSON.stringify(r).toLowerCase().includes(term)) : source;
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

  /**
   * v2 GET /v2/companies | /v2/persons: `ids` and `fieldIds` (repeated), `limit` 1–100 (default
   * 100), `cursor`; { data, pagination: { prevUrl, nextUrl } } with each requested global field as
   * { id: 'field-<id>', name, type: 'global', enrichmentSource: 'none', value: { type, data } }.
   * Errors as v2 answers them: 400 { errors: [{ code: 'bad-request', message }] }.
   */
  private v2List(kind: 'companies' | 'persons', u: URL): [number, unknown] {
    const bad = (message: string): [number, unknown] => [400, { errors: [{ code: 'bad-request', message }] }];
    const limit = u.searchParams.has('limit') ? Number(u.searchParams.get('limit')) : 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return bad('limit must be between 1 and 100');
    const ids = u.searchParams.getAll('ids').map(Number);
    if (ids.some((id) => !Number.isInteger(id) || id < 1)) return bad('ids must be positive integers');
    const defs = this.fieldDefs[kind === 'companies' ? 'organizations' : 'persons'];
    const fieldIds = u.searchParams.getAll('fieldIds');
    const wanted: FakeAffinityField[] = [];
    for (const f of fieldIds) {
      const def = /^field-(\d+)$/.exec(f) ? defs.find((d) => `field-${d.id}` === f) : undefined;
      if (!def) return bad(`Field ${f} not found`);
      wanted.push(def);
    }
    let offset = 0;
    const cursor = u.searchParams.get('cursor');
    if (cursor) {
      const t = this.tokens.get(cursor);
      if (!t || t.kind !== kind) return bad('Invalid cursor');
      offset = t.offset;
    }
    const base: Array<{ id: number }> = kind === 'companies' ? this.organizations : this.persons;
    const byId = this.v2Index<number, { id: number }>(`${kind}:records`, base, (index) => {
      for (const r of base) index.set(r.id, r);
    });
    const all = ids.length ? [...new Set(ids)].map((id) => byId.get(id)).filter((r): r is { id: number } => !!r) : base;
    const entityType = kind === 'companies' ? 'organization' : 'person';
    type Fv = FakeAffinity['fieldValues'][number];
    const stored = this.v2Index<string, Fv[]>(`${kind}:values`, this.fieldValues, (index) => {
      for (const v of this.fieldValues) {
        if (v.entity_type !== entityType || v.list_entry_id !== null) continue;
        const k = `${v.entity_id}:${v.field_id}`;
        const list = index.get(k) ?? [];
        list.push(v);
        index.set(k, list);
      }
    });
    const valueOf = (def: FakeAffinityField, entityId: number): { type: string; data: unknown } => {
      const vals = (stored.get(`${entityId}:${def.id}`) ?? []).map((v) => v.value);
      const one = (v: unknown): unknown =>
        def.value_type === 7
          ? (() => {
              const o = v as { id: number; text: string; rank: number; color: number };
              return { dropdownOptionId: o.id, text: o.text, rank: o.rank, color: o.color };
            })()
          : def.value_type === 2
            ? { dropdownOptionId: null, text: v }
            : v;
      const type = { 2: 'dropdown', 3: 'number', 4: 'datetime', 6: 'text', 7: 'ranked-dropdown' }[def.value_type] ?? 'text';
      if (def.allows_multiple)
        return { type: type === 'text' ? 'filterable-text-multi' : `${type}-multi`, data: vals.length ? vals.map(one) : null };
      return { type, data: vals.length ? one(vals[0]) : null };
    };
    const shape = (r: { id: number }): Record<string, unknown> => {
      if (kind === 'companies') {
        const o = r as FakeAffinity['organizations'][number];
        return { id: o.id, name: o.name, domain: o.domain, domains: o.domains, isGlobal: o.global ?? false };
      }
      const p = r as FakeAffinity['persons'][number];
      return {
        id: p.id,
        firstName: p.first_name,
        lastName: p.last_name,
        primaryEmailAddress: p.primary_email,
        emailAddresses: p.emails,
        type: p.type === 1 ? 'internal' : 'external',
      };
    };
    const page = all.slice(offset, offset + limit).map((r) =>
      wanted.length === 0
        ? shape(r)
        : {
            ...shape(r),
            fields: wanted.map((def) => ({
              id: `field-${def.id}`,
              name: def.name,
              type: 'global',
              enrichmentSource: 'none',
              value: valueOf(def, r.id),
            })),
          },
    );
    let nextUrl: string | null = null;
    if (offset + limit < all.length) {
      const token = randomBytes(12).toString('base64url');
      this.tokens.set(token, { kind, offset: offset + limit });
      const q = new URLSearchParams(u.searchParams);
      q.set('cursor', token);
      nextUrl = `${this.url}${u.pathname}?${q}`;
    }
    return [200, { data: page, pagination: { prevUrl: null, nextUrl } }];
  }

  private v2Index<K, V>(name: string, source: readonly unknown[], build: (index: Map<K, V>) => void): Map<K, V> {
    const cached = this.v2Indexes.get(name);
    const last = source[source.length - 1];
    if (cached && cached.length === source.length && cached.last === last) return cached.index as Map<K, V>;
    const index = new Map<K, V>();
    build(index);
    this.v2Indexes.set(name, { length: source.length, last, index });
    return index;
  }

  /** The write endpoints; null when the path is not one of them. */
  private write(method: string, u: URL, b: Record<string, unknown>): [number, unknown] | null {
    const invalid = (message: string): [number, unknown] => [422, { message }];
    const notFound = (what: string): [number, unknown] => [404, { message: `${what} not found` }];
    const now = new Date().toISOString();
    const ids = (v: unknown): number[] | null =>
      v === undefined ? [] : Array.isArray(v) && v.every((x) => Number.isInteger(x)) ? (v as number[]) : null;
    const path = u.pathname;

    if (path === '/organizations' && method === 'POST') {
      if (typeof b.name !== 'string' || !b.name.trim()) return invalid('name is required');
      const domain = typeof b.domain === 'string' && b.domain.trim() ? b.domain.trim().toLowerCase() : null;
      if (domain && !/^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain)) return invalid(`Domain ${domain} is invalid`);
      if (domain && this.organizations.some((o) => o.domains.includes(domain)))
        return invalid(`An organization with domain ${domain} already exists`);
      const o = {
        id: this.nextId++,
        name: b.name.trim(),
        domain,
        domains: domain ? [domain] : [],
        global: false,
        crm_owner_ids: [] as number[],
      };
      this.organizations.push(o);
      return [200, o];
    }
    const org = /^\/organizations\/(\d+)$/.exec(path);
    if (org) {
      const o = this.organizations.find((x) => x.id === Number(org[1]));
      if (!o) return notFound('Organization');
      if (method === 'GET')
        return [200, { ...o, person_ids: this.persons.filter((p) => p.organization_ids.includes(o.id)).map((p) => p.id) }];
      if (method === 'PUT') {
        if (b.name !== undefined && (typeof b.name !== 'string' || !b.name.trim())) return invalid('name cannot be blank');
        if (b.domain !== undefined && b.domain !== null) {
          const d = String(b.domain).trim().toLowerCase();
          if (!/^[a-z0-9.-]+\.[a-z]{2,}$/.test(d)) return invalid(`Domain ${d} is invalid`);
          if (this.organizations.some((x) => x !== o && x.domains.includes(d)))
            return invalid(`An organization with domain ${d} already exists`);
        }
        if (typeof b.name === 'string') o.name = b.name.trim();
        if (b.domain !== undefined) {
          o.domain = b.domain === null ? null : String(b.domain).trim().toLowerCase();
          o.domains = o.domain ? [o.domain] : [];
        }
        return [200, o];
      }
    }
    const checkPerson = (self: number | null): [number, unknown] | null => {
      const emails = b.emails === undefined ? [] : b.emails;
      if (!Array.isArray(emails) || emails.some((e) => typeof e !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e)))
        return invalid('emails must be a list of valid email addresses');
      for (const e of emails as string[]) {
        if (this.persons.some((p) => p.id !== self && p.emails.some((x) => x.toLowerCase() === e.toLowerCase())))
          return invalid(`An entity with email ${e} already exists`);
      }
      const orgIds = ids(b.organization_ids);
      if (!orgIds) return invalid('organization_ids must be a list of integers');
      const unknown = orgIds.find((id) => !this.organizations.some((o) => o.id === id));
      if (unknown !== undefined) return invalid(`Organization ${unknown} not found`);
      return null;
    };
    if (path === '/persons' && method === 'POST') {
      if (typeof b.first_name !== 'string' || !b.first_name.trim()) return invalid('first_name is required');
      if (typeof b.last_name !== 'string' || !b.last_name.trim()) return invalid('last_name is required');
      const bad = checkPerson(null);
      if (bad) return bad;
      const emails = ((b.emails as string[] | undefined) ?? []).map((e) => e.toLowerCase());
      const p = {
        id: this.nextId++,
        type: 0,
        first_name: b.first_name.trim(),
        last_name: b.last_name.trim(),
        primary_email: emails[0] ?? null,
        emails,
        organization_ids: ids(b.organization_ids) ?? [],
      };
      this.persons.push(p);
      return [200, p];
    }
    const person = /^\/persons\/(\d+)$/.exec(path);
    if (person) {
      const p = this.persons.find((x) => x.id === Number(person[1]));
      if (!p) return notFound('Person');
      if (method === 'GET') return [200, p];
      if (method === 'PUT') {
        for (const k of ['first_name', 'last_name'] as const)
          if (b[k] !== undefined && (typeof b[k] !== 'string' || !String(b[k]).trim())) return invalid(`${k} cannot be blank`);
        const bad = checkPerson(p.id);
        if (bad) return bad;
        if (typeof b.first_name === 'string') p.first_name = b.first_name.trim();
        if (typeof b.last_name === 'string') p.last_name = b.last_name.trim();
        if (b.emails !== undefined) {
          p.emails = (b.emails as string[]).map((e) => e.toLowerCase());
          p.primary_email = p.emails.includes(p.primary_email ?? '') ? p.primary_email : (p.emails[0] ?? null);
        }
        if (b.organization_ids !== undefined) p.organization_ids = ids(b.organization_ids) ?? [];
        return [200, p];
      }
    }
    if (path === '/field-values' && method === 'GET') {
      const keys = ['person_id', 'organization_id', 'opportunity_id', 'list_entry_id'].filter((k) => u.searchParams.has(k));
      if (keys.length !== 1) return invalid('Exactly one of person_id, organization_id, opportunity_id, list_entry_id is required');
      const id = Number(u.searchParams.get(keys[0]));
      const type = keys[0] === 'person_id' ? 'person' : keys[0] === 'organization_id' ? 'organization' : null;
      return [200, this.fieldValues.filter((v) => v.entity_type === type && v.entity_id === id).map(({ entity_type: _t, ...v }) => v)];
    }
    const checkValue = (def: FakeAffinityField, value: unknown): string | null => {
      if (value === null || value === undefined) return 'value is required';
      if (def.value_type === 3 && typeof value !== 'number') return `${def.name} expects a number`;
      if ((def.value_type === 2 || def.value_type === 6) && typeof value !== 'string') return `${def.name} expects text`;
      if (def.value_type === 4 && (typeof value !== 'string' || Number.isNaN(Date.parse(value)))) return `${def.name} expects a date`;
      if (def.value_type === 7 && !(def.dropdown_options ?? []).some((o) => o.id === value))
        return `${def.name} expects one of its dropdown option ids`;
      return null;
    };
    if (path === '/field-values' && method === 'POST') {
      const entityId = Number(b.entity_id);
      const isOrg = this.organizations.some((o) => o.id === entityId);
      const isPerson = this.persons.some((p) => p.id === entityId);
      if (!isOrg && !isPerson) return invalid(`Entity ${String(b.entity_id)} not found`);
      const kind = isOrg ? 'organizations' : 'persons';
      const def = this.fieldDefs[kind].find((f) => f.id === Number(b.field_id));
      if (!def) return invalid(`Field ${String(b.field_id)} not found`);
      const bad = checkValue(def, b.value);
      if (bad) return invalid(bad);
      const entityType = isOrg ? 'organization' : 'person';
      const listEntry = b.list_entry_id === undefined || b.list_entry_id === null ? null : Number(b.list_entry_id);
      if (
        !def.allows_multiple &&
        this.fieldValues.some(
          (v) => v.field_id === def.id && v.entity_id === entityId && v.entity_type === entityType && v.list_entry_id === listEntry,
        )
      ) {
        return invalid(`${def.name} already has a value for this entity; update it instead`);
      }
      const value = def.value_type === 7 ? def.dropdown_options?.find((o) => o.id === b.value) : b.value;
      const fv = {
        id: this.nextId++,
        field_id: def.id,
        entity_id: entityId,
        entity_type: entityType as 'organization' | 'person',
        list_entry_id: listEntry,
        value,
      };
      this.fieldValues.push(fv);
      const { entity_type: _t, ...out } = fv;
      return [200, out];
    }
    const fvm = /^\/field-values\/(\d+)$/.exec(path);
    if (fvm) {
      const fv = this.fieldValues.find((v) => v.id === Number(fvm[1]));
      if (!fv) return notFound('Field value');
      if (method === 'DELETE') {
        this.fieldValues.splice(this.fieldValues.indexOf(fv), 1);
        return [200, { success: true }];
      }
      if (method === 'PUT') {
        const def = this.fieldDefs[fv.entity_type === 'organization' ? 'organizations' : 'persons'].find(
          (f) => f.id === fv.field_id,
        ) as FakeAffinityField;
        const bad = checkValue(def, b.value);
        if (bad) return invalid(bad);
        fv.value = def.value_type === 7 ? def.dropdown_options?.find((o) => o.id === b.value) : b.value;
        const { entity_type: _t, ...out } = fv;
        return [200, out];
      }
    }
    if (path === '/notes' && method === 'POST') {
      const personIds = ids(b.person_ids);
      const orgIds = ids(b.organization_ids);
      const oppIds = ids(b.opportunity_ids);
      if (!personIds || !orgIds || !oppIds) return invalid('person_ids, organization_ids and opportunity_ids must be lists of integers');
      if (!personIds.length && !orgIds.length && !oppIds.length)
        return invalid('A note must be associated with at least one person, organization or opportunity');
      if (typeof b.content !== 'string' || !b.content.trim()) return invalid('content is required');
      const missingPerson = personIds.find((id) => !this.persons.some((p) => p.id === id));
      if (missingPerson !== undefined) return invalid(`Person ${missingPerson} not found`);
      const missingOrg = orgIds.find((id) => !this.organizations.some((o) => o.id === id));
      if (missingOrg !== undefined) return invalid(`Organization ${missingOrg} not found`);
      const note = {
        id: this.nextId++,
        creator_id: this.user.id,
        person_ids: personIds,
        organization_ids: orgIds,
        opportunity_ids: oppIds,
        content: b.content,
        type: typeof b.type === 'number' ? b.type : 0,
        created_at: typeof b.created_at === 'string' ? b.created_at : now,
        updated_at: null,
      };
      this.notes.push(note);
      return [200, note];
    }
    if (path === '/notes' && method === 'GET') {
      const pid = u.searchParams.get('person_id');
      const oid = u.searchParams.get('organization_id');
      const all = this.notes.filter(
        (n) => (pid ? n.person_ids.includes(Number(pid)) : true) && (oid ? n.organization_ids.includes(Number(oid)) : true),
      );
      const size = Math.min(Number(u.searchParams.get('page_size') ?? 500) || 500, 500);
      const token = u.searchParams.get('page_token');
      let offset = 0;
      if (token) {
        const t = this.tokens.get(token);
        if (!t || t.kind !== 'notes') return invalid('Invalid page_token');
        offset = t.offset;
      }
      let next: string | null = null;
      if (offset + size < all.length) {
        next = randomBytes(12).toString('base64url');
        this.tokens.set(next, { kind: 'notes', offset: offset + size });
      }
      return [200, { notes: all.slice(offset, offset + size), next_page_token: next }];
    }
    return null;
  }
}

export interface FakeAffinityField {
  id: number;
  name: string;
  value_type: number;
  allows_multiple: boolean;
  list_id: number | null;
  dropdown_options?: Array<{ id: number; text: string; rank: number; color: number }>;
}
