// Salesforce adapter over jsforce 3 (REST API, one pinned version): the OAuth 2.0 web-server flow
// with PKCE (S256), the identity of the authorizing user, describe, and SOQL queries read page by
// page through nextRecordsUrl. A Connection carries the refresh token: jsforce refreshes an expired
// session (401 INVALID_SESSION_ID) once and retries; `onRefresh` lets the caller store the new
// access token. Failures become SalesforceError with Salesforce's errorCode.
//
// Writes: sObject Collections create / update / upsert by external ID through jsforce (≤ 200 records
// a request, allOrNone false, one result per record), and Bulk API 2.0 ingest jobs over raw REST
// through the same Connection (`conn.request`), so a session refresh replays the CSV upload and the
// Sforce-Limit-Info header is read on every bulk call — jsforce's own bulk2 module streams the
// upload (a refresh cannot replay it) and bypasses the limit bookkeeping.
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import jsforce from 'jsforce';

/** The one REST API version every call uses (Winter '25). */
export const SALESFORCE_API_VERSION = '62.0';

export interface SalesforceAppConfig {
  clientId: string;
  clientSecret?: string;
  /** https://login.salesforce.com, https://test.salesforce.com, a My Domain, or a fake's URL. */
  loginUrl: string;
  /** Our callback: {PUBLIC_URL}/api/v1/integrations/salesforce/callback. */
  redirectUri: string;
}

export interface SalesforceTokens {
  accessToken: string;
  refreshToken: string | null;
  instanceUrl: string;
  /** The identity URL (…/id/{orgId}/{userId}). */
  identityUrl: string;
}

export interface SalesforceIdentity {
  userId: string;
  organizationId: string;
  username: string;
  displayName: string;
  email: string | null;
}

export class SalesforceError extends Error {
  constructor(
    message: string,
    readonly errorCode: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'SalesforceError';
  }
  /** The org's API request limit is used up (403 REQUEST_LIMIT_EXCEEDED): wait, do not hammer. */
  get rateLimited(): boolean {
    return this.errorCode === 'REQUEST_LIMIT_EXCEEDED';
  }
  /** The refresh token no longer works (revoked, expired): the connection must be authorized again. */
  get authorizationLost(): boolean {
    return this.errorCode === 'invalid_grant' || this.errorCode === 'INVALID_SESSION_ID';
  }
}

function oauth2(cfg: SalesforceAppConfig): InstanceType<typeof jsforce.OAuth2> {
  return new jsforce.OAuth2({
    clientId: cfg.clientId,
    clientSecret: cfg.clientSecret,
    loginUrl: cfg.loginUrl,
    redirectUri: cfg.redirectUri,
  });
}

/** Where the browser goes to authorize: the login server's /services/oauth2/authorize. */
export function authorizationUrl(cfg: SalesforceAppConfig, state: string, codeChallenge: string): string {
  return oauth2(cfg).getAuthorizationUrl({
    scope: 'api refresh_token',
    state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
    prompt: 'login consent',
  });
}

export function toSalesforceError(err: unknown): SalesforceError {
  if (err instanceof SalesforceError) return err;
  const e = err as
    { name?: string; errorCode?: string; message?: string; data?: { error?: string; error_description?: string } } | undefined;
  // A body read as text (the bulk CSV calls ask for text): Salesforce's [{ errorCode, message }] inside.
  if (e?.errorCode && /^ERROR_HTTP_\d+$/.test(e.errorCode) && e.message?.trim().startsWith('[')) {
    try {
      const first = (JSON.parse(e.message) as Array<{ errorCode?: string; message?: string }>)[0];
      if (first?.errorCode) return new SalesforceError(first.message ?? first.errorCode, first.errorCode, Number(e.errorCode.slice(11)));
    } catch {
      /* not JSON */
    }
  }
  const code = e?.errorCode ?? e?.data?.error ?? (e?.name && e.name !== 'Error' ? e.name : undefined);
  if (code) return new SalesforceError(e?.data?.error_description ?? e?.message ?? code, code);
  const msg = e?.message ?? String(err);
  // jsforce's session refresh wraps the token endpoint's refusal in a plain Error.
  if (/^Unable to refresh session/.test(msg)) return new SalesforceError(msg, 'invalid_grant');
  return new SalesforceError(msg, /fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|socket/i.test(msg) ? 'CONNECTION_FAILED' : 'UNKNOWN');
}

/** Exchanges the authorization code (with the PKCE verifier) for tokens. */
export async function exchangeCode(cfg: SalesforceAppConfig, code: string, codeVerifier: string): Promise<SalesforceTokens> {
  try {
    const res = await oauth2(cfg).requestToken(code, { code_verifier: codeVerifier });
    return { accessToken: res.access_token, refreshToken: res.refresh_token ?? null, instanceUrl: res.instance_url, identityUrl: res.id };
  } catch (err) {
    throw toSalesforceError(err);
  }
}

export interface SalesforceQueryPage<T> {
  records: T[];
  totalSize: number;
  done: boolean;
  nextRecordsUrl: string | null;
}

export interface SalesforceField {
  name: string;
  label: string;
  type: string;
  updateable: boolean;
  createable: boolean;
  custom: boolean;
  externalId?: boolean;
  unique?: boolean;
}

/** One record's error in a collections answer (Salesforce's Error: statusCode, message, fields). */
export interface SalesforceRecordError {
  statusCode: string;
  message: string;
  fields: string[];
}
/** SaveResult / UpsertResult: in request order, `created` only for upserts. */
export interface SalesforceSaveResult {
  id: string | null;
  success: boolean;
  errors: SalesforceRecordError[];
  created?: boolean;
}

/** sObject Collections take at most 200 records a request. */
export const SALESFORCE_COLLECTION_LIMIT = 200;

export type IngestOperation = 'insert' | 'update' | 'upsert' | 'delete';
export type IngestJobState = 'Open' | 'UploadComplete' | 'InProgress' | 'JobComplete' | 'Failed' | 'Aborted';
export interface IngestJobInfo {
  id: string;
  object: string;
  operation: IngestOperation;
  state: IngestJobState;
  externalIdFieldName?: string;
  numberRecordsProcessed?: number;
  numberRecordsFailed?: number;
  errorMessage?: string;
}
/** The three result sets of an ingest job, each row the uploaded columns plus sf__ columns. */
export interface IngestJobResults {
  successful: Array<Record<string, string> & { sf__Id: string; sf__Created: string }>;
  failed: Array<Record<string, string> & { sf__Id: string; sf__Error: string }>;
  unprocessed: Array<Record<string, string>>;
}
export type SalesforceWriteValue = string | number | boolean | null | undefined;

/**
 * A record as Bulk API 2.0 CSV: a header of every field used, `#N/A` for null (clears the field),
 * an empty cell for a field this record leaves alone.
 */
export function ingestCsv(records: Array<Record<string, SalesforceWriteValue>>): string {
  const header: string[] = [];
  const seen = new Set<string>();
  for (const r of records)
    for (const k of Object.keys(r))
      if (!seen.has(k)) {
        seen.add(k);
        header.push(k);
      }
  const rows = records.map((r) =>
    header.map((h) => {
      const v = r[h];
      if (v === undefined) return '';
      if (v === null) return '#N/A';
      return String(v);
    }),
  );
  return stringifyCsv([header, ...rows], { record_delimiter: 'unix' });
}

/** "CODE:message:fields --" (Bulk API 2.0 sf__Error) → the code and the message. */
export function parseIngestError(value: string): SalesforceRecordError {
  const m = /^([A-Z_]+):(.*?)(?::([^:]*?))?\s*--\s*$/s.exec(value.trim());
  if (!m) return { statusCode: 'UNKNOWN', message: value, fields: [] };
  return { statusCode: m[1], message: m[2], fields: m[3] ? m[3].split(',').filter(Boolean) : [] };
}

export class SalesforceClient {
  private readonly conn: InstanceType<typeof jsforce.Connection>;

  constructor(
    cfg: SalesforceAppConfig,
    tokens: { accessToken: string | null; refreshToken: string | null; instanceUrl: string },
    onRefresh?: (accessToken: string) => void | Promise<void>,
  ) {
    this.conn = new jsforce.Connection({
      oauth2: oauth2(cfg),
      instanceUrl: tokens.instanceUrl,
      accessToken: tokens.accessToken ?? undefined,
      refreshToken: tokens.refreshToken ?? undefined,
      version: SALESFORCE_API_VERSION,
    });
    if (onRefresh) this.conn.on('refresh', (accessToken: string) => void onRefresh(accessToken));
  }

  get accessToken(): string | null {
    return this.conn.accessToken ?? null;
  }
  /** The latest Sforce-Limit-Info header (api-usage=used/limit), as jsforce read it. */
  get limitInfo(): { used: number; limit: number } | null {
    return this.conn.limitInfo?.apiUsage ?? null;
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toSalesforceError(err);
    }
  }

  /** The authorizing user (the identity URL from the token answer). */
  async identity(identityUrl: string): Promise<SalesforceIdentity> {
    const id = await this.call(() => this.conn.request<Record<string, unknown>>({ method: 'GET', url: identityUrl }));
    return {
      userId: String(id.user_id),
      organizationId: String(id.organization_id),
      username: String(id.username),
      displayName: String(id.display_name ?? id.username),
      email: typeof id.email === 'string' ? id.email : null,
    };
  }

  async describe(sobject: string): Promise<SalesforceField[]> {
    const res = await this.call(() =>
      this.conn.request<{ fields: SalesforceField[] }>(
        `/services/data/v${SALESFORCE_API_VERSION}/sobjects/${encodeURIComponent(sobject)}/describe`,
      ),
    );
    return res.fields.map((f) => ({
      name: f.name,
      label: f.label,
      type: f.type,
      updateable: Boolean(f.updateable),
      createable: Boolean(f.createable),
      custom: Boolean(f.custom),
      externalId: Boolean(f.externalId),
      unique: Boolean(f.unique),
    }));
  }

  /** One page of a SOQL query; pass `nextRecordsUrl` of the previous page to go on. */
  async queryPage<T extends Record<string, unknown>>(
    soqlOrNext: { soql: string } | { nextRecordsUrl: string },
  ): Promise<SalesforceQueryPage<T>> {
    const url =
      'soql' in soqlOrNext
        ? `/services/data/v${SALESFORCE_API_VERSION}/query?q=${encodeURIComponent(soqlOrNext.soql)}`
        : soqlOrNext.nextRecordsUrl;
    const res = await this.call(() => this.conn.request<{ records: T[]; totalSize: number; done: boolean; nextRecordsUrl?: string }>(url));
    return {
      records: res.records.map(stripAttributes),
      totalSize: res.totalSize,
      done: res.done,
      nextRecordsUrl: res.nextRecordsUrl ?? null,
    };
  }

  /** The Salesforce user with this username (Username is unique across Salesforce), or null. */
  async findUserByUsername(username: string): Promise<{ id: string; username: string; name: string; active: boolean } | null> {
    const page = await this.queryPage<{ Id: string; Username: string; Name: string; IsActive: boolean }>({
      soql: `SELECT Id, Username, Name, IsActive FROM User WHERE Username = '${soqlString(username)}' LIMIT 1`,
    });
    const u = page.records[0];
    return u ? { id: u.Id, username: u.Username, name: u.Name, active: Boolean(u.IsActive) } : null;
  }

  // ---- writes: sObject Collections (through jsforce) ------------------------------------------

  /**
   * One sObject Collections request (≤ 200 records, one type): create (POST /composite/sobjects),
   * update by Id (PATCH /composite/sobjects) or upsert by an External ID field (PATCH
   * /composite/sobjects/{type}/{field}). allOrNone false: every record answers on its own.
   * Request-level failures (limit, session, unknown field) throw SalesforceError.
   */
  async collection(
    kind: 'create' | 'update' | 'upsert',
    sobject: string,
    records: Array<Record<string, SalesforceWriteValue>>,
    opts: { externalIdField?: string; allOrNone?: boolean } = {},
  ): Promise<SalesforceSaveResult[]> {
    if (records.length === 0) return [];
    if (records.length > SALESFORCE_COLLECTION_LIMIT)
      throw new SalesforceError(`At most ${SALESFORCE_COLLECTION_LIMIT} records per collections request`, 'EXCEEDED_ID_LIMIT');
    const options = { allOrNone: opts.allOrNone ?? false };
    const input = records.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined))) as Array<
      Record<string, string | number | boolean | null>
    >;
    const res = await this.call(async () => {
      if (kind === 'create') return this.conn.create(sobject, input, options);
      if (kind === 'update')
        return this.conn.update(sobject, input as Array<Record<string, string | number | boolean | null> & { Id: string }>, options);
      if (!opts.externalIdField) throw new SalesforceError('An upsert needs an External ID field', 'MISSING_ARGUMENT');
      return this.conn.upsert(sobject, input, opts.externalIdField, options);
    });
    return (
      res as unknown as Array<{
        id?: string | null;
        success: boolean;
        created?: boolean;
        errors?: Array<{ statusCode?: string; errorCode?: string; message: string; fields?: string[] }>;
      }>
    ).map((r) => ({
      id: r.id ?? null,
      success: Boolean(r.success),
      errors: (r.errors ?? []).map((e) => ({
        statusCode: e.statusCode ?? e.errorCode ?? 'UNKNOWN',
        message: e.message,
        fields: e.fields ?? [],
      })),
      ...(kind === 'upsert' ? { created: Boolean(r.created) } : {}),
    }));
  }

  // ---- writes: Bulk API 2.0 ingest (raw REST through the Connection) ----------------------------

  private ingestUrl(path = ''): string {
    return `/services/data/v${SALESFORCE_API_VERSION}/jobs/ingest${path}`;
  }

  async createIngestJob(job: { object: string; operation: IngestOperation; externalIdFieldName?: string }): Promise<IngestJobInfo> {
    return this.call(() =>
      this.conn.request<IngestJobInfo>({
        method: 'POST',
        url: this.ingestUrl(),
        body: JSON.stringify({ ...job, contentType: 'CSV', lineEnding: 'LF', columnDelimiter: 'COMMA' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }),
    );
  }

  /** PUT …/batches (one upload per job, ≤ 100 MB of CSV). */
  async uploadIngestData(jobId: string, csv: string): Promise<void> {
    await this.call(() =>
      this.conn.request(
        { method: 'PUT', url: this.ingestUrl(`/${encodeURIComponent(jobId)}/batches`), body: csv, headers: { 'content-type': 'text/csv' } },
        { responseType: 'text/plain' },
      ),
    );
  }

  async setIngestJobState(jobId: string, state: 'UploadComplete' | 'Aborted'): Promise<IngestJobInfo> {
    return this.call(() =>
      this.conn.request<IngestJobInfo>({
        method: 'PATCH',
        url: this.ingestUrl(`/${encodeURIComponent(jobId)}`),
        body: JSON.stringify({ state }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }),
    );
  }

  async ingestJobInfo(jobId: string): Promise<IngestJobInfo> {
    return this.call(() => this.conn.request<IngestJobInfo>(this.ingestUrl(`/${encodeURIComponent(jobId)}`)));
  }

  async deleteIngestJob(jobId: string): Promise<void> {
    await this.call(() =>
      this.conn.request({ method: 'DELETE', url: this.ingestUrl(`/${encodeURIComponent(jobId)}`) }, { responseType: 'text/plain' }),
    );
  }

  /** successfulResults, failedResults and unprocessedrecords of a finished (or failed, aborted) job. */
  async ingestJobResults(jobId: string): Promise<IngestJobResults> {
    const get = async (name: string) => {
      const text = await this.call(() =>
        this.conn.request<string>(
          { method: 'GET', url: this.ingestUrl(`/${encodeURIComponent(jobId)}/${name}`), headers: { accept: 'text/csv' } },
          { responseType: 'text/plain' },
        ),
      );
      return typeof text === 'string' && text.trim()
        ? (parseCsv(text, { columns: true, skip_empty_lines: true, bom: true }) as Array<Record<string, string>>)
        : [];
    };
    const successful = await get('successfulResults');
    const failed = await get('failedResults');
    const unprocessed = await get('unprocessedrecords');
    return { successful: successful as IngestJobResults['successful'], failed: failed as IngestJobResults['failed'], unprocessed };
  }

  /** Polls the job until JobComplete, Failed or Aborted (or the timeout: SalesforceError JOB_POLL_TIMEOUT). */
  async waitForIngestJob(jobId: string, opts: { pollIntervalMs?: number; timeoutMs?: number } = {}): Promise<IngestJobInfo> {
    const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
    for (;;) {
      const info = await this.ingestJobInfo(jobId);
      if (info.state === 'JobComplete' || info.state === 'Failed' || info.state === 'Aborted') return info;
      if (info.state === 'Open') throw new SalesforceError(`Ingest job ${jobId} is still open`, 'INVALIDJOBSTATE');
      if (Date.now() > deadline) throw new SalesforceError(`Ingest job ${jobId} did not finish in time`, 'JOB_POLL_TIMEOUT');
      await new Promise((r) => setTimeout(r, opts.pollIntervalMs ?? 2000));
    }
  }

  /**
   * A whole ingest job: create, upload the CSV, close (UploadComplete), poll, read the results.
   * `onJob` hears the job id as soon as it exists, so a caller can resume after a crash
   * (waitForIngestJob + ingestJobResults with that id) instead of loading the records again.
   */
  async runIngestJob(
    job: { object: string; operation: IngestOperation; externalIdFieldName?: string },
    records: Array<Record<string, SalesforceWriteValue>>,
    opts: { pollIntervalMs?: number; timeoutMs?: number; onJob?: (jobId: string) => void | Promise<void> } = {},
  ): Promise<{ info: IngestJobInfo; results: IngestJobResults }> {
    const created = await this.createIngestJob(job);
    await opts.onJob?.(created.id);
    try {
      await this.uploadIngestData(created.id, ingestCsv(records));
    } catch (err) {
      await this.setIngestJobState(created.id, 'Aborted').catch(() => undefined);
      throw err;
    }
    await this.setIngestJobState(created.id, 'UploadComplete');
    const info = await this.waitForIngestJob(created.id, opts);
    return { info, results: await this.ingestJobResults(created.id) };
  }

  /** Every record of a query, page after page. */
  async queryAll<T extends Record<string, unknown>>(soql: string): Promise<T[]> {
    const out: T[] = [];
    let page = await this.queryPage<T>({ soql });
    out.push(...page.records);
    while (!page.done && page.nextRecordsUrl) {
      page = await this.queryPage<T>({ nextRecordsUrl: page.nextRecordsUrl });
      out.push(...page.records);
    }
    return out;
  }
}

/** A SOQL string literal's content: backslash and quote escaped (SOQL reserved characters). */
export function soqlString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function stripAttributes<T extends Record<string, unknown>>(r: T): T {
  const { attributes: _attributes, ...rest } = r as T & { attributes?: unknown };
  return rest as T;
}
