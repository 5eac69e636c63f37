// Affinity adapter: the v1 REST API (https://api.affinity.co), HTTP basic auth with an empty user
// name and the API key as password. v1 is the version that offers every operation we use on an API
// key (whoami, organizations and persons with page_token paging, fields, field values, notes) but
// one: reading the global field values of many records. v1 answers them one record at a time (GET
// /field-values?organization_id=), v2 (same host, /v2/…, the key as a bearer token) with the
// records themselves: GET /v2/companies|persons?ids=…&fieldIds=field-<id>, 100 a page, so the sync
// reads a page of 500 organizations' mapped values in 5 requests instead of 500.
// 429 answers are waited out as Retry-After says (up to `maxRetryWaitMs`, `maxAttempts` in all);
// a longer wait fails as `rateLimited` so a job's own retry takes it later.
import type { OutboundFetch } from '../../../providers/web/outbound';
import { retryAfterMs } from '../../../lib/retry-after';
import { withRetries } from '../../../lib/retry';

export const AFFINITY_DEFAULT_BASE_URL = 'https://api.affinity.co';

export interface AffinityOptions {
  apiKey: string;
  baseUrl?: string;
  fetch?: OutboundFetch;
  maxAttempts?: number;
  maxRetryWaitMs?: number;
  timeoutMs?: number;
}

export interface AffinityWhoAmI {
  tenant: { id: number; name: string; subdomain: string };
  user: { id: number; firstName: string; lastName: string; email: string };
}

export interface AffinityOrganization {
  id: number;
  name: string;
  domain: string | null;
  domains: string[];
  crm_owner_ids?: number[];
}
export interface AffinityPerson {
  id: number;
  first_name: string;
  last_name: string;
  primary_email: string | null;
  emails: string[];
  organization_ids?: number[];
}
export interface AffinityPage<T> {
  items: T[];
  nextPageToken: string | null;
}
/** A field value (v1): `list_entry_id` null for a global field. */
export interface AffinityFieldValue {
  id: number;
  field_id: number;
  entity_id: number;
  list_entry_id: number | null;
  value: string | number | boolean | null | { id: number; text: string } | Record<string, unknown>;
}
/** A field's value as v2 answers it: `{ type: 'text', data: 'Energy' }`, `{ type: 'dropdown', data: { dropdownOptionId, text } }`, … */
export interface AffinityV2Value {
  type: string;
  data: unknown;
}
interface AffinityV2Page {
  data?: Array<{ id: number; fields?: Array<{ id: string; name?: string; type?: string; value?: AffinityV2Value | null }> }>;
  pagination?: { prevUrl?: string | null; nextUrl?: string | null };
}

/**
 * A v2 field value as the plain value a mapping compares and stores: text, numbers and dates as
 * they are; a dropdown (ranked or not) as its option's text; a location as its parts joined; a
 * person or company as their name; several values joined with ', '; none as null.
 */
export function affinityPlainValue(v: AffinityV2Value | null | undefined): string | number | boolean | null {
  if (!v || v.data === null || v.data === undefined) return null;
  const one = (d: unknown): string | number | boolean | null => {
    if (d === null || d === undefined) return null;
    if (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean') return d;
    if (typeof d !== 'object') return null;
    const o = d as Record<string, unknown>;
    if (typeof o.text === 'string') return o.text;
    if (typeof o.name === 'string') return o.name;
    if ('firstName' in o || 'lastName' in o) return [o.firstName, o.lastName].filter((x) => typeof x === 'string' && x).join(' ') || null;
    const parts = ['streetAddress', 'city', 'state', 'country'].map((k) => o[k]).filter((x): x is string => typeof x === 'string' && !!x);
    return parts.length ? parts.join(', ') : null;
  };
  if (Array.isArray(v.data)) {
    const all = v.data.map(one).filter((x) => x !== null && x !== '');
    return all.length ? all.join(', ') : null;
  }
  return one(v.data);
}

export interface AffinityNote {
  id: number;
  creator_id: number;
  person_ids: number[];
  organization_ids: number[];
  opportunity_ids: number[];
  content: string;
  type: number;
  created_at: string;
  updated_at: string | null;
}

export class AffinityError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterMs: number | null = null,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AffinityError';
  }
  get unauthorized(): boolean {
    return this.status === 401 || this.status === 403;
  }
  get rateLimited(): boolean {
    return this.status === 429;
  }
}

export class AffinityClient {
  private readonly baseUrl: string;
  private readonly fetch: OutboundFetch;
  private readonly auth: string;
  /** v2 takes the same key as a bearer token. */
  private readonly bearer: string;

  constructor(private readonly opts: AffinityOptions) {
    this.baseUrl = (opts.baseUrl ?? AFFINITY_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.auth = `Basic ${Buffer.from(`:${opts.apiKey}`).toString('base64')}`;
    this.bearer = `Bearer ${opts.apiKey}`;
  }

  private async request<T>(method: string, path: string, body?: unknown, auth = this.auth): Promise<T> {
    // A 429 is tried again after the server's Retry-After (1 s when it names none), while that is short.
    return withRetries(
      () => this.once<T>(method, path, body, auth),
      (e) => ({ retry: e instanceof AffinityError && e.rateLimited, waitMs: e instanceof AffinityError ? (e.retryAfterMs ?? 1000) : null }),
      { attempts: this.opts.maxAttempts ?? 3, maxWaitMs: this.opts.maxRetryWaitMs ?? 10_000 },
    );
  }

  private async once<T>(method: string, path: string, body: unknown, auth: string): Promise<T> {
    let res: Response;
    try {
      res = await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: auth,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw new AffinityError(`Could not reach Affinity: ${(err as Error).message}`, null, null, err);
    }
    if (res.ok) return (await res.json()) as T;
    const text = await res.text();
    throw new AffinityError(errorText(text) ?? `Affinity answered ${res.status}`, res.status, retryAfterMs(res.headers.get('retry-after')));
  }

  async whoami(): Promise<AffinityWhoAmI> {
    const r = await this.request<{
      tenant: AffinityWhoAmI['tenant'];
      user: { id: number; first_name: string; last_name: string; email: string };
    }>('GET', '/auth/whoami');
    return { tenant: r.tenant, user: { id: r.user.id, firstName: r.user.first_name, lastName: r.user.last_name, email: r.user.email } };
  }

  async organizationsPage(pageToken: string | null, pageSize = 500): Promise<AffinityPage<AffinityOrganization>> {
    const q = new URLSearchParams({ page_size: String(pageSize) });
    if (pageToken) q.set('page_token', pageToken);
    const r = await this.request<{ organizations: AffinityOrganization[]; next_page_token: string | null }>('GET', `/organizations?${q}`);
    return { items: r.organizations, nextPageToken: r.next_page_token };
  }

  async personsPage(pageToken: string | null, pageSize = 500): Promise<AffinityPage<AffinityPerson>> {
    const q = new URLSearchParams({ page_size: String(pageSize) });
    if (pageToken) q.set('page_token', pageToken);
    const r = await this.request<{ persons: AffinityPerson[]; next_page_token: string | null }>('GET', `/persons?${q}`);
    return { items: r.persons, nextPageToken: r.next_page_token };
  }

  /**
   * The internal person (a user of the Affinity instance, `type` 1) with this email, or null:
   * GET /persons?term= searches names and emails.
   */
  async findInternalPerson(email: string): Promise<AffinityPerson | null> {
    const q = new URLSearchParams({ term: email, page_size: '50' });
    const r = await this.request<{ persons: Array<AffinityPerson & { type?: number }>; next_page_token: string | null }>(
      'GET',
      `/persons?${q}`,
    );
    const wanted = email.trim().toLowerCase();
    return (
      r.persons.find((p) => p.type === 1 && (p.emails ?? []).concat(p.primary_email ?? []).some((e) => e.toLowerCase() === wanted)) ?? null
    );
  }

  // ---- writes --------------------------------------------------------------------------------

  /** POST /organizations { name, domain, person_ids }. */
  async createOrganization(org: { name: string; domain: string | null; person_ids?: number[] }): Promise<AffinityOrganization> {
    return this.request('POST', '/organizations', org);
  }

  /** PUT /organizations/{id}: only the attributes given change. */
  async updateOrganization(
    id: number,
    org: { name?: string; domain?: string | null; person_ids?: number[] },
  ): Promise<AffinityOrganization> {
    return this.request('PUT', `/organizations/${id}`, org);
  }

  /** GET /organizations?term=domain, keeping the organization that has exactly this domain. */
  async findOrganizationByDomain(domain: string): Promise<AffinityOrganization | null> {
    const wanted = domain.trim().toLowerCase();
    const r = await this.request<{ organizations: AffinityOrganization[] }>(
      'GET',
      `/organizations?${new URLSearchParams({ term: wanted, page_size: '100' })}`,
    );
    return r.organizations.find((o) => [o.domain, ...(o.domains ?? [])].some((d) => d?.toLowerCase() === wanted)) ?? null;
  }

  async getPerson(id: number): Promise<AffinityPerson> {
    return this.request('GET', `/persons/${id}`);
  }

  /** POST /persons { first_name, last_name, emails, organization_ids }. */
  async createPerson(p: { first_name: string; last_name: string; emails: string[]; organization_ids?: number[] }): Promise<AffinityPerson> {
    return this.request('POST', '/persons', p);
  }

  /** PUT /persons/{id}: emails and organization_ids, when given, replace the current lists. */
  async updatePerson(
    id: number,
    p: { first_name?: string; last_name?: string; emails?: string[]; organization_ids?: number[] },
  ): Promise<AffinityPerson> {
    return this.request('PUT', `/persons/${id}`, p);
  }

  /** GET /persons?term=email, keeping the person with exactly this email. */
  async findPersonByEmail(email: string): Promise<AffinityPerson | null> {
    const wanted = email.trim().toLowerCase();
    const r = await this.request<{ persons: AffinityPerson[] }>(
      'GET',
      `/persons?${new URLSearchParams({ term: wanted, page_size: '100' })}`,
    );
    return r.persons.find((p) => (p.emails ?? []).concat(p.primary_email ?? []).some((e) => e.toLowerCase() === wanted)) ?? null;
  }

  /** GET /field-values?person_id= | organization_id= (global and list field values of an entity). */
  async fieldValues(entity: { person_id: number } | { organization_id: number }): Promise<AffinityFieldValue[]> {
    const [k, v] = Object.entries(entity)[0] as [string, number];
    return this.request('GET', `/field-values?${new URLSearchParams({ [k]: String(v) })}`);
  }

  async createFieldValue(fv: { field_id: number; entity_id: number; value: unknown; list_entry_id?: number }): Promise<AffinityFieldValue> {
    return this.request('POST', '/field-values', fv);
  }

  async updateFieldValue(id: number, value: unknown): Promise<AffinityFieldValue> {
    return this.request('PUT', `/field-values/${id}`, { value });
  }

  async deleteFieldValue(id: number): Promise<void> {
    await this.request<{ success: boolean }>('DELETE', `/field-values/${id}`);
  }

  /** POST /notes: plain text (type 0) on persons and / or organizations. */
  async createNote(n: { person_ids?: number[]; organization_ids?: number[]; content: string; created_at?: string }): Promise<AffinityNote> {
    return this.request('POST', '/notes', { ...n, type: 0 });
  }

  async notesPage(
    about: { person_id: number } | { organization_id: number },
    pageToken: string | null,
    pageSize = 500,
  ): Promise<AffinityPage<AffinityNote>> {
    const [k, v] = Object.entries(about)[0] as [string, number];
    const q = new URLSearchParams({ [k]: String(v), page_size: String(pageSize) });
    if (pageToken) q.set('page_token', pageToken);
    const r = await this.request<{ notes: AffinityNote[]; next_page_token: string | null }>('GET', `/notes?${q}`);
    return { items: r.notes, nextPageToken: r.next_page_token };
  }

  /** The note of this person / organization whose content contains `marker`, or null (every page read). */
  async findNote(about: { person_id: number } | { organization_id: number }, marker: string): Promise<AffinityNote | null> {
    let token: string | null = null;
    do {
      const page = await this.notesPage(about, token);
      const hit = page.items.find((n) => n.content.includes(marker));
      if (hit) return hit;
      token = page.nextPageToken;
    } while (token);
    return null;
  }

  /**
   * The values of global fields of many organizations or persons at once (v2: GET /v2/companies or
   * /v2/persons with `ids` and `fieldIds`, at most 100 records a request; `pagination.nextUrl`
   * followed on this client's base URL). By record id, then by the field's v1 id (`1234` for v2's
   * `field-1234`), each value as v2 answers it ({ type, data }); a field without a value has data null.
   */
  async globalFieldValues(
    kind: 'organizations' | 'persons',
    ids: readonly number[],
    fieldIds: readonly number[],
  ): Promise<Map<number, Map<number, AffinityV2Value>>> {
    const out = new Map<number, Map<number, AffinityV2Value>>();
    if (ids.length === 0 || fieldIds.length === 0) return out;
    const path = kind === 'organizations' ? '/v2/companies' : '/v2/persons';
    for (let i = 0; i < ids.length; i += 100) {
      const q = new URLSearchParams({ limit: '100' });
      for (const id of ids.slice(i, i + 100)) q.append('ids', String(id));
      for (const f of fieldIds) q.append('fieldIds', `field-${f}`);
      let next: string | null = `${path}?${q}`;
      while (next) {
        const r: AffinityV2Page = await this.request<AffinityV2Page>('GET', next, undefined, this.bearer);
        for (const rec of r.data ?? []) {
          const values = new Map<number, AffinityV2Value>();
          for (const f of rec.fields ?? []) {
            const m = /^field-(\d+)$/.exec(f.id);
            if (m) values.set(Number(m[1]), f.value ?? { type: 'text', data: null });
          }
          out.set(rec.id, values);
        }
        // nextUrl is absolute (Affinity's host): its path and query are asked of this base URL.
        const url = r.pagination?.nextUrl ? new URL(r.pagination.nextUrl, this.baseUrl) : null;
        next = url ? `${url.pathname}${url.search}` : null;
      }
    }
    return out;
  }

  /** The global and list fields offered for organizations or persons (GET /organizations/fields, /persons/fields). */
  async fields(kind: 'organizations' | 'persons'): Promise<{ id: number; name: string; value_type: number; allows_multiple: boolean }[]> {
    return this.request('GET', `/${kind}/fields`);
  }
}

function errorText(body: string): string | null {
  try {
    const j = JSON.parse(body) as { message?: string; errors?: Array<{ message?: string } | string> };
    if (j.message) return j.message;
    const first = j.errors?.[0];
    if (typeof first === 'string') return first;
    if (first?.message) return first.message;
  } catch {
    /* not JSON */
  }
  return body.trim() ? body.trim().slice(0, 300) : null;
}
