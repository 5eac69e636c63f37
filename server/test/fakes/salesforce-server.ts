// A fake Salesforce on loopback following the documented REST API, for the adapter's contract tests,
// route tests and the Chromium journey:
// - OAuth 2.0 web-server flow with PKCE: GET /services/oauth2/authorize shows a consent page (Allow /
//   Deny) and redirects to redirect_uri with ?code&state (or ?error=access_denied); POST
//   /services/oauth2/token (grant_type authorization_code with code_verifier checked against the
//   S256 code_challenge, or refresh_token) answers { access_token, refresh_token, instance_url, id,
//   token_type, issued_at, signature, scope }; errors { error: 'invalid_grant', error_description }.
// - The identity URL /id/{orgId}/{userId}.
// - REST /services/data/vXX.X: sobjects/{Object}/describe, query?q=SOQL with nextRecordsUrl paging
//   (query/{locator}-{offset}); the Sforce-Limit-Info header on every answer.
// - Errors in Salesforce's shape ([{ message, errorCode }]): 401 INVALID_SESSION_ID for an expired or
//   unknown token, 403 REQUEST_LIMIT_EXCEEDED when the org's API request limit is used up.
// - Writes (see salesforce-write.ts): sObject Collections create / update / upsert by external ID
//   (≤ 200 records, allOrNone, per-record SaveResult / UpsertResult with { statusCode, message,
//   fields } errors) and Bulk API 2.0 ingest jobs (Open → UploadComplete → InProgress → JobComplete
//   | Failed | Aborted; successfulResults / failedResults / unprocessedrecords as CSV).
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SfWriteStore, type SfRule } from './salesforce-write';

export interface FakeSfField {
  name: string;
  label: string;
  type: string;
  updateable?: boolean;
  createable?: boolean;
  custom?: boolean;
  nillable?: boolean;
  /** An External ID field (upsert key); `unique` refuses a second record with the same value. */
  externalId?: boolean;
  unique?: boolean;
  /** Restricted picklist values. */
  picklistValues?: string[];
  /** Required on create (not nillable, no default): REQUIRED_FIELD_MISSING. */
  required?: boolean;
  /** Value given on create when the record leaves it out. */
  defaultValue?: unknown;
  /** For reference fields: the sObjects the id may point at. */
  referenceTo?: string[];
}
export type FakeSfRecord = Record<string, unknown> & { Id: string; LastModifiedDate: string; SystemModstamp?: string };

export interface FakeSalesforceOptions {
  clientId: string;
  clientSecret?: string;
  username?: string;
  /** REST API requests allowed before REQUEST_LIMIT_EXCEEDED (default 15000). */
  requestLimit?: number;
  /** Records per query page (Salesforce: 2000 by default). */
  pageSize?: number;
  /** Job-info polls a Bulk API 2.0 ingest job spends InProgress before it completes (default 1). */
  bulkPollsInProgress?: number;
}

interface CodeGrant {
  redirectUri: string;
  challenge: string | null;
  used: boolean;
  expiresAt: number;
}

const DEFAULT_FIELDS: Record<string, FakeSfField[]> = {
  Account: [
    { name: 'Id', label: 'Account ID', type: 'id' },
    { name: 'Name', label: 'Account Name', type: 'string', updateable: true, createable: true, required: true },
    { name: 'Website', label: 'Website', type: 'url', updateable: true, createable: true, nillable: true },
    { name: 'Industry', label: 'Industry', type: 'picklist', updateable: true, createable: true, nillable: true },
    { name: 'NumberOfEmployees', label: 'Employees', type: 'int', updateable: true, createable: true, nillable: true },
    { name: 'AnnualRevenue', label: 'Annual Revenue', type: 'currency', updateable: true, createable: true, nillable: true },
    { name: 'OwnerId', label: 'Owner ID', type: 'reference', updateable: true, createable: true, referenceTo: ['User'] },
    {
      name: 'Dealscout_Id__c',
      label: 'Dealscout ID',
      type: 'string',
      updateable: true,
      createable: true,
      nillable: true,
      custom: true,
      externalId: true,
      unique: true,
    },
    { name: 'LastModifiedDate', label: 'Last Modified Date', type: 'datetime' },
    { name: 'SystemModstamp', label: 'System Modstamp', type: 'datetime' },
  ],
  Contact: [
    { name: 'Id', label: 'Contact ID', type: 'id' },
    { name: 'FirstName', label: 'First Name', type: 'string', updateable: true, createable: true, nillable: true },
    { name: 'LastName', label: 'Last Name', type: 'string', updateable: true, createable: true, required: true },
    { name: 'Email', label: 'Email', type: 'email', updateable: true, createable: true, nillable: true },
    { name: 'Title', label: 'Title', type: 'string', updateable: true, createable: true, nillable: true },
    {
      name: 'AccountId',
      label: 'Account ID',
      type: 'reference',
      updateable: true,
      createable: true,
      nillable: true,
      referenceTo: ['Account'],
    },
    { name: 'OwnerId', label: 'Owner ID', type: 'reference', updateable: true, createable: true, referenceTo: ['User'] },
    {
      name: 'Dealscout_Id__c',
      label: 'Dealscout ID',
      type: 'string',
      updateable: true,
      createable: true,
      nillable: true,
      custom: true,
      externalId: true,
      unique: true,
    },
    { name: 'LastModifiedDate', label: 'Last Modified Date', type: 'datetime' },
    { name: 'SystemModstamp', label: 'System Modstamp', type: 'datetime' },
  ],
  Task: [
    { name: 'Id', label: 'Activity ID', type: 'id' },
    { name: 'Subject', label: 'Subject', type: 'combobox', updateable: true, createable: true, nillable: true },
    { name: 'Description', label: 'Description', type: 'textarea', updateable: true, createable: true, nillable: true },
    { name: 'ActivityDate', label: 'Due Date Only', type: 'date', updateable: true, createable: true, nillable: true },
    {
      name: 'Status',
      label: 'Status',
      type: 'picklist',
      updateable: true,
      createable: true,
      defaultValue: 'Not Started',
      picklistValues: ['Not Started', 'In Progress', 'Completed', 'Waiting on someone else', 'Deferred'],
    },
    {
      name: 'Priority',
      label: 'Priority',
      type: 'picklist',
      updateable: true,
      createable: true,
      defaultValue: 'Normal',
      picklistValues: ['High', 'Normal', 'Low'],
    },
    // TaskSubtype is set when the task is created and cannot be changed afterwards.
    {
      name: 'TaskSubtype',
      label: 'Task Subtype',
      type: 'picklist',
      updateable: false,
      createable: true,
      nillable: true,
      picklistValues: ['Task', 'Email', 'ListEmail', 'Cadence', 'Call', 'LinkedIn'],
    },
    {
      name: 'WhoId',
      label: 'Name ID',
      type: 'reference',
      updateable: true,
      createable: true,
      nillable: true,
      referenceTo: ['Contact', 'Lead'],
    },
    {
      name: 'WhatId',
      label: 'Related To ID',
      type: 'reference',
      updateable: true,
      createable: true,
      nillable: true,
      referenceTo: ['Account', 'Opportunity'],
    },
    { name: 'OwnerId', label: 'Assigned To ID', type: 'reference', updateable: true, createable: true, referenceTo: ['User'] },
    {
      name: 'Dealscout_Id__c',
      label: 'Dealscout ID',
      type: 'string',
      updateable: true,
      createable: true,
      nillable: true,
      custom: true,
      externalId: true,
      unique: true,
    },
    { name: 'LastModifiedDate', label: 'Last Modified Date', type: 'datetime' },
    { name: 'SystemModstamp', label: 'System Modstamp', type: 'datetime' },
  ],
  User: [
    { name: 'Id', label: 'User ID', type: 'id' },
    { name: 'Username', label: 'Username', type: 'string' },
    { name: 'Name', label: 'Full Name', type: 'string' },
    { name: 'Email', label: 'Email', type: 'email' },
    { name: 'IsActive', label: 'Active', type: 'boolean' },
    { name: 'LastModifiedDate', label: 'Last Modified Date', type: 'datetime' },
  ],
};

export class FakeSalesforce {
  url = '';
  readonly orgId = '00D000000000001EAA';
  readonly userId = '005000000000001AAA';
  readonly username: string;
  /** Every request: method, path, query, authorization header. */
  readonly requests: { method: string; path: string; query: URLSearchParams; authorization?: string }[] = [];
  readonly fields: Record<string, FakeSfField[]> = structuredClone(DEFAULT_FIELDS);
  readonly records: Record<string, FakeSfRecord[]> = { Account: [], Contact: [], Task: [], User: [] };
  /** Record writes, Bulk API 2.0 jobs, scripted per-record failures (see salesforce-write.ts). */
  readonly writes: SfWriteStore;
  apiRequests = 0;
  requestLimit: number;
  pageSize: number;
  private readonly server: http.Server;
  private readonly codes = new Map<string, CodeGrant>();
  private readonly accessTokens = new Map<string, { expired: boolean }>();
  private readonly refreshTokens = new Set<string>();
  private readonly cursors = new Map<string, Record<string, unknown>[]>();
  private expireAt: number | null = null;

  private constructor(private readonly opts: FakeSalesforceOptions) {
    this.username = opts.username ?? 'admin@acme.example.com';
    this.requestLimit = opts.requestLimit ?? 15000;
    this.pageSize = opts.pageSize ?? 2000;
    this.writes = new SfWriteStore(this.fields, this.records, this.userId, opts.bulkPollsInProgress ?? 1);
    this.addUser(this.username, 'Ada Admin', this.userId);
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ message: String(err), errorCode: 'UNKNOWN_EXCEPTION' }]));
      });
    });
  }

  static async start(opts: FakeSalesforceOptions): Promise<FakeSalesforce> {
    const f = new FakeSalesforce(opts);
    await new Promise<void>((resolve) => f.server.listen(0, '127.0.0.1', resolve));
    f.url = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}`;
    return f;
  }

  /** Every access token issued so far answers 401 INVALID_SESSION_ID (refresh tokens stay valid). */
  expireAccessTokens(): void {
    for (const t of this.accessTokens.values()) t.expired = true;
  }
  /** Refresh tokens revoked (the user or an admin revoked the connected app). */
  revokeRefreshTokens(): void {
    this.refreshTokens.clear();
    this.expireAccessTokens();
  }
  /** A Salesforce user of the org (Username is unique across Salesforce). */
  addUser(
    username: string,
    name: string,
    id = `005${randomBytes(6).toString('hex').toUpperCase().slice(0, 12)}AAA`,
    active = true,
  ): FakeSfRecord {
    const rec: FakeSfRecord = {
      Id: id,
      Username: username,
      Name: name,
      Email: username,
      IsActive: active,
      LastModifiedDate: new Date().toISOString().replace('Z', '+0000'),
    };
    this.records.User.push(rec);
    return rec;
  }
  /** The access tokens issued so far expire after `count` more REST API requests (a session ending mid-batch). */
  expireAccessTokensAfter(count: number): void {
    this.expireAt = this.apiRequests + count;
  }
  /** Records of an sObject whose fields match `where` (inspection for tests). */
  find(sobject: string, where: Record<string, unknown> = {}): FakeSfRecord[] {
    return (this.records[sobject] ?? []).filter((r) => Object.entries(where).every(([k, v]) => r[k] === v));
  }
  /** Makes matching record writes fail with a Salesforce error (a validation rule, a trigger, a lock). */
  rejectWrites(rule: SfRule): void {
    this.writes.rules.push(rule);
  }
  /**
   * Bulk seeding for benches and big tests (100,000 accounts, 200,000 contacts): `count` records
   * made by `make(i)`, with sequential Ids (001/003/00T + S + 11 digits + AAA). Their modification
   * stamps end now and are `spreadMs` apart (a bulk load into Salesforce spreads over time too; 0
   * gives them all one stamp).
   */
  seed(sobject: 'Account' | 'Contact' | 'Task', count: number, make: (i: number) => Record<string, unknown>, spreadMs = 0): FakeSfRecord[] {
    const prefix = sobject === 'Account' ? '001' : sobject === 'Contact' ? '003' : '00T';
    const base = this.records[sobject].length;
    const end = Date.now();
    const out: FakeSfRecord[] = [];
    for (let i = 0; i < count; i += 1) {
      const now = new Date(end - (count - 1 - i) * spreadMs).toISOString().replace('Z', '+0000');
      const rec: FakeSfRecord = {
        Id: `${prefix}S${String(base + i).padStart(11, '0')}AAA`,
        LastModifiedDate: now,
        SystemModstamp: now,
        OwnerId: this.userId,
        ...make(i),
      };
      this.records[sobject].push(rec);
      out.push(rec);
    }
    return out;
  }
  /** Changes a record as an edit in Salesforce would: the fields, then LastModifiedDate and SystemModstamp moved to now. */
  touch(sobject: 'Account' | 'Contact', id: string, fields: Record<string, unknown>): FakeSfRecord {
    const rec = this.writes.byId(sobject, id);
    if (!rec) throw new Error(`no ${sobject} ${id}`);
    const now = new Date().toISOString().replace('Z', '+0000');
    this.writes.changeInPlace(sobject, rec, { ...fields, LastModifiedDate: now, SystemModstamp: now });
    return rec;
  }
  addRecord(sobject: 'Account' | 'Contact', fields: Record<string, unknown> & { Id?: string }): FakeSfRecord {
    const prefix = sobject === 'Account' ? '001' : '003';
    const now = new Date().toISOString().replace('Z', '+0000');
    const rec: FakeSfRecord = {
      Id: fields.Id ?? `${prefix}${randomBytes(6).toString('hex').toUpperCase().slice(0, 12)}AAA`,
      LastModifiedDate: now,
      SystemModstamp: now,
      OwnerId: this.userId,
      ...fields,
    };
    this.records[sobject].push(rec);
    return rec;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, authorization: req.headers.authorization });
    const body = await readBody(req);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', ...headers });
      res.end(JSON.stringify(value));
    };

    if (u.pathname === '/services/oauth2/authorize') return this.authorize(req, u, body, res);
    if (u.pathname === '/services/oauth2/token' && req.method === 'POST') return this.token(new URLSearchParams(body), json);
    if (u.pathname === '/services/oauth2/revoke' && req.method === 'POST') {
      const token = new URLSearchParams(body).get('token') ?? '';
      this.refreshTokens.delete(token);
      this.accessTokens.delete(token);
      res.writeHead(200);
      res.end();
      return;
    }

    // Everything else needs a valid access token.
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const session = token ? this.accessTokens.get(token) : undefined;
    if (!session || session.expired) return json(401, [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);

    const idMatch = /^\/id\/([^/]+)\/([^/]+)$/.exec(u.pathname);
    if (idMatch) {
      return json(200, {
        id: `${this.url}/id/${this.orgId}/${this.userId}`,
        asserted_user: true,
        user_id: this.userId,
        organization_id: this.orgId,
        username: this.username,
        nick_name: 'admin',
        display_name: 'Ada Admin',
        email: this.username,
        first_name: 'Ada',
        last_name: 'Admin',
        timezone: 'Europe/London',
        active: true,
        user_type: 'STANDARD',
        language: 'en_US',
        locale: 'en_GB',
        urls: {
          rest: `${this.url}/services/data/v{version}/`,
          sobjects: `${this.url}/services/data/v{version}/sobjects/`,
          query: `${this.url}/services/data/v{version}/query/`,
        },
      });
    }

    const m = /^\/services\/data\/v(\d+\.\d)\/(.*)$/.exec(u.pathname);
    if (!m) return json(404, [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }]);
    this.apiRequests += 1;
    if (this.expireAt !== null && this.apiRequests > this.expireAt) {
      this.expireAt = null;
      this.expireAccessTokens();
      this.apiRequests -= 1;
      return json(401, [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
    }
    const limitHeader = { 'Sforce-Limit-Info': `api-usage=${Math.min(this.apiRequests, this.requestLimit)}/${this.requestLimit}` };
    if (this.apiRequests > this.requestLimit) {
      return json(403, [{ message: `TotalRequests Limit exceeded.`, errorCode: 'REQUEST_LIMIT_EXCEEDED' }], limitHeader);
    }
    const rest = m[2];
    const describe = /^sobjects\/([A-Za-z_]+)\/describe\/?$/.exec(rest);
    if (describe) {
      const fields = this.fields[describe[1]];
      if (!fields) return json(404, [{ errorCode: 'NOT_FOUND', message: `The requested resource does not exist` }], limitHeader);
      return json(
        200,
        {
          name: describe[1],
          label: describe[1],
          queryable: true,
          createable: true,
          updateable: true,
          custom: false,
          fields: fields.map((f) => ({
            name: f.name,
            label: f.label,
            type: f.type,
            updateable: f.updateable ?? false,
            createable: f.createable ?? false,
            custom: f.custom ?? f.name.endsWith('__c'),
            nillable: f.nillable ?? false,
            externalId: f.externalId ?? false,
            unique: f.unique ?? false,
            idLookup: f.name === 'Id' || (f.externalId ?? false),
            defaultedOnCreate: f.defaultValue !== undefined,
            referenceTo: f.referenceTo ?? [],
            picklistValues: (f.picklistValues ?? []).map((v) => ({ value: v, label: v, active: true, defaultValue: v === f.defaultValue })),
          })),
        },
        limitHeader,
      );
    }
    if (rest === 'query' || rest === 'query/') {
      const q = u.searchParams.get('q');
      if (!q) return json(400, [{ errorCode: 'MALFORMED_QUERY', message: 'q parameter is required' }], limitHeader);
      const parsed = parseSoql(q);
      if ('error' in parsed) return json(400, [{ errorCode: 'MALFORMED_QUERY', message: parsed.error }], limitHeader);
      const source = this.records[parsed.from];
      if (!source)
        return json(400, [{ errorCode: 'INVALID_TYPE', message: `sObject type '${parsed.from}' is not supported.` }], limitHeader);
      const known = new Set((this.fields[parsed.from] ?? []).map((f) => f.name));
      const bad = parsed.fields.find((f) => !known.has(f));
      if (bad)
        return json(400, [{ errorCode: 'INVALID_FIELD', message: `No such column '${bad}' on entity '${parsed.from}'.` }], limitHeader);
      let rows = source.filter((r) => parsed.where.every((w) => compare(r[w.field], w.op, w.value)));
      if (parsed.orderBy) {
        const key = parsed.orderBy;
        // Binary order (as Salesforce orders Ids and ISO stamps), ties by Id.
        const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
        rows = [...rows].sort((a, b) => cmp(String(a[key] ?? ''), String(b[key] ?? '')) || cmp(a.Id, b.Id));
      }
      if (parsed.limit !== null) rows = rows.slice(0, parsed.limit);
      const shaped = rows.map((r) => project(parsed.from, r, parsed.fields));
      const locator = `01g${randomBytes(6).toString('hex')}`;
      this.cursors.set(locator, shaped);
      return json(200, this.page(m[1], locator, 0), limitHeader);
    }
    const written = this.writes.handle(req.method ?? 'GET', rest, body, m[1], req.headers['content-type'] ?? '');
    if (written) {
      if (written.csv !== undefined) {
        res.writeHead(written.status, { 'content-type': 'text/csv', ...limitHeader });
        res.end(written.csv);
        return;
      }
      if (written.body === undefined) {
        res.writeHead(written.status, limitHeader);
        res.end();
        return;
      }
      return json(written.status, written.body, limitHeader);
    }
    const more = /^query\/(01g[0-9a-f]+)-(\d+)$/.exec(rest);
    if (more) {
      if (!this.cursors.has(more[1]))
        return json(400, [{ errorCode: 'INVALID_QUERY_LOCATOR', message: 'invalid query locator' }], limitHeader);
      return json(200, this.page(m[1], more[1], Number(more[2])), limitHeader);
    }
    return json(404, [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }], limitHeader);
  }

  private page(version: string, locator: string, offset: number) {
    const all = this.cursors.get(locator) ?? [];
    const records = all.slice(offset, offset + this.pageSize);
    const next = offset + this.pageSize;
    const done = next >= all.length;
    return {
      totalSize: all.length,
      done,
      ...(done ? {} : { nextRecordsUrl: `/services/data/v${version}/query/${locator}-${next}` }),
      records,
    };
  }

  private authorize(req: http.IncomingMessage, u: URL, body: string, res: http.ServerResponse): void {
    const params = req.method === 'POST' ? new URLSearchParams(body) : u.searchParams;
    const clientId = params.get('client_id');
    const redirectUri = params.get('redirect_uri');
    if (clientId !== this.opts.clientId || !redirectUri) {
      res.writeHead(400, { 'content-type': 'text/html' });
      res.end('<h1>error=invalid_client_id</h1><p>client identifier invalid</p>');
      return;
    }
    const state = params.get('state');
    if (req.method === 'POST') {
      const target = new URL(redirectUri);
      if (params.get('decision') !== 'allow') {
        target.searchParams.set('error', 'access_denied');
        target.searchParams.set('error_description', 'end-user denied authorization');
      } else {
        const code = `aPrx${randomBytes(16).toString('base64url')}`;
        this.codes.set(code, { redirectUri, challenge: params.get('code_challenge'), used: false, expiresAt: Date.now() + 15 * 60_000 });
        target.searchParams.set('code', code);
      }
      if (state) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.toString() });
      res.end();
      return;
    }
    const hidden = ['client_id', 'redirect_uri', 'state', 'code_challenge', 'scope']
      .map((k) => (params.get(k) !== null ? `<input type="hidden" name="${k}" value="${escapeHtml(params.get(k) ?? '')}">` : ''))
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Allow Access? | Salesforce (fake)</title></head>
<body style="font-family:sans-serif;max-width:480px;margin:40px auto">
<h1>Allow Access?</h1><p>Dealscout is requesting access to your Salesforce data as <b>${escapeHtml(this.username)}</b>.</p>
<form method="post" action="/services/oauth2/authorize">${hidden}
<button name="decision" value="deny" type="submit">Deny</button>
<button name="decision" value="allow" type="submit" id="oaapprove">Allow</button>
</form></body></html>`);
  }

  private token(p: URLSearchParams, json: (status: number, value: unknown) => void): void {
    const invalid = (description: string) => json(400, { error: 'invalid_grant', error_description: description });
    if (p.get('client_id') !== this.opts.clientId)
      return json(400, { error: 'invalid_client_id', error_description: 'client identifier invalid' });
    if (this.opts.clientSecret && p.get('client_secret') !== this.opts.clientSecret)
      return json(400, { error: 'invalid_client', error_description: 'invalid client credentials' });
    const grant = p.get('grant_type');
    if (grant === 'authorization_code') {
      const code = this.codes.get(p.get('code') ?? '');
      if (!code || code.used || code.expiresAt < Date.now()) return invalid('expired authorization code');
      code.used = true;
      if (code.redirectUri !== p.get('redirect_uri'))
        return json(400, { error: 'redirect_uri_mismatch', error_description: 'redirect_uri must match configuration' });
      if (code.challenge) {
        const verifier = p.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge) return invalid('invalid code verifier');
      }
      const refresh = `5Aep${randomBytes(24).toString('base64url')}`;
      this.refreshTokens.add(refresh);
      return json(200, { ...this.issue(), refresh_token: refresh });
    }
    if (grant === 'refresh_token') {
      if (!this.refreshTokens.has(p.get('refresh_token') ?? '')) return invalid('expired access/refresh token');
      return json(200, this.issue());
    }
    return json(400, { error: 'unsupported_grant_type', error_description: 'grant type not supported' });
  }

  private issue() {
    const access = `00D!${randomBytes(24).toString('base64url')}`;
    this.accessTokens.set(access, { expired: false });
    return {
      access_token: access,
      signature: randomBytes(24).toString('base64'),
      scope: 'api refresh_token',
      instance_url: this.url,
      id: `${this.url}/id/${this.orgId}/${this.userId}`,
      token_type: 'Bearer',
      issued_at: String(Date.now()),
    };
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface Soql {
  fields: string[];
  from: string;
  where: { field: string; op: string; value: string }[];
  orderBy: string | null;
  limit: number | null;
}

/** SELECT a, b FROM Obj [WHERE f op v [AND ...]] [ORDER BY f [ASC]] [LIMIT n] — the subset the adapter sends. */
function parseSoql(q: string): Soql | { error: string } {
  // ORDER BY one field, optionally followed by Id (`ORDER BY SystemModstamp ASC, Id ASC`): ties are always broken by Id.
  const m =
    /^\s*SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+(\w+)(?:\s+ASC)?(?:\s*,\s*Id(?:\s+ASC)?)?)?(?:\s+LIMIT\s+(\d+))?\s*$/is.exec(
      q,
    );
  if (!m) return { error: `unexpected token in query: ${q.slice(0, 80)}` };
  const where: Soql['where'] = [];
  if (m[3]) {
    for (const part of m[3].split(/\s+AND\s+/i)) {
      const w = /^\s*(\w+)\s*(=|!=|>=|<=|>|<)\s*(.+?)\s*$/.exec(part);
      if (!w) return { error: `unexpected token in WHERE: ${part}` };
      const quoted = /^'(.*)'$/s.exec(w[3]);
      where.push({
        field: w[1],
        op: w[2],
        value: quoted ? quoted[1].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c)) : w[3],
      });
    }
  }
  return { fields: m[1].split(',').map((f) => f.trim()), from: m[2], where, orderBy: m[4] ?? null, limit: m[5] ? Number(m[5]) : null };
}

function compare(actual: unknown, op: string, raw: string): boolean {
  // String comparisons are case-insensitive in SOQL.
  const isDate = /^\d{4}-\d{2}-\d{2}T/.test(raw);
  const a = isDate ? Date.parse(String(actual ?? '').replace(/\+0000$/, 'Z')) : String(actual ?? '');
  const b = isDate ? Date.parse(raw.replace(/\+0000$/, 'Z')) : raw;
  switch (op) {
    case '=':
      return typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '>=':
      return a >= b;
    default:
      return a <= b;
  }
}

function project(sobject: string, r: FakeSfRecord, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { attributes: { type: sobject, url: `/services/data/v62.0/sobjects/${sobject}/${r.Id}` } };
  for (const f of fields) out[f] = r[f] ?? null;
  return out;
}
