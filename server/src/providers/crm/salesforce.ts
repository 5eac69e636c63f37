// Salesforce adapter over jsforce 3 (REST API, one pinned version): the OAuth 2.0 web-server flow
// with PKCE (S256), the identity of the authorizing user, describe, and SOQL queries read page by
// page through nextRecordsUrl. A Connection carries the refresh token: jsforce refreshes an expired
// session (401 INVALID_SESSION_ID) once and retries; `onRefresh` lets the caller store the new
// access token. Failures become SalesforceError with Salesforce's errorCode.
import { createHash, randomBytes } from 'node:crypto';
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
  constructor(message: string, readonly errorCode: string, readonly status: number | null = null) {
    super(message);
    this.name = 'SalesforceError';
  }
  /** The org's API request limit is used up (403 REQUEST_LIMIT_EXCEEDED): wait, do not hammer. */
  get rateLimited(): boolean { return this.errorCode === 'REQUEST_LIMIT_EXCEEDED'; }
  /** The refresh token no longer works (revoked, expired): the connection must be authorized again. */
  get authorizationLost(): boolean { return this.errorCode === 'invalid_grant' || this.errorCode === 'INVALID_SESSION_ID'; }
}

function oauth2(cfg: SalesforceAppConfig): InstanceType<typeof jsforce.OAuth2> {
  return new jsforce.OAuth2({ clientId: cfg.clientId, clientSecret: cfg.clientSecret, loginUrl: cfg.loginUrl, redirectUri: cfg.redirectUri });
}

/** A fresh PKCE verifier (43–128 characters of base64url) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(64).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Where the browser goes to authorize: the login server's /services/oauth2/authorize. */
export function authorizationUrl(cfg: SalesforceAppConfig, state: string, codeChallenge: string): string {
  return oauth2(cfg).getAuthorizationUrl({ scope: 'api refresh_token', state, code_challenge: codeChallenge, code_challenge_method: 'S256', prompt: 'login consent' });
}

export function toSalesforceError(err: unknown): SalesforceError {
  if (err instanceof SalesforceError) return err;
  const e = err as { name?: string; errorCode?: string; message?: string; data?: { error?: string; error_description?: string } } | undefined;
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

export interface SalesforceQueryPage<T> { records: T[]; totalSize: number; done: boolean; nextRecordsUrl: string | null }

export interface SalesforceField { name: string; label: string; type: string; updateable: boolean; createable: boolean; custom: boolean }

export class SalesforceClient {
  private readonly conn: InstanceType<typeof jsforce.Connection>;

  constructor(cfg: SalesforceAppConfig, tokens: { accessToken: string | null; refreshToken: string | null; instanceUrl: string }, onRefresh?: (accessToken: string) => void | Promise<void>) {
    this.conn = new jsforce.Connection({
      oauth2: oauth2(cfg), instanceUrl: tokens.instanceUrl, accessToken: tokens.accessToken ?? undefined,
      refreshToken: tokens.refreshToken ?? undefined, version: SALESFORCE_API_VERSION,
    });
    if (onRefresh) this.conn.on('refresh', (accessToken: string) => void onRefresh(accessToken));
  }

  get accessToken(): string | null { return this.conn.accessToken ?? null; }
  /** The latest Sforce-Limit-Info header (api-usage=used/limit), as jsforce read it. */
  get limitInfo(): { used: number; limit: number } | null { return this.conn.limitInfo?.apiUsage ?? null; }

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
      userId: String(id.user_id), organizationId: String(id.organization_id), username: String(id.username),
      displayName: String(id.display_name ?? id.username), email: typeof id.email === 'string' ? id.email : null,
    };
  }

  async describe(sobject: string): Promise<SalesforceField[]> {
    const res = await this.call(() => this.conn.request<{ fields: SalesforceField[] }>(`/services/data/v${SALESFORCE_API_VERSION}/sobjects/${encodeURIComponent(sobject)}/describe`));
    return res.fields.map((f) => ({ name: f.name, label: f.label, type: f.type, updateable: Boolean(f.updateable), createable: Boolean(f.createable), custom: Boolean(f.custom) }));
  }

  /** One page of a SOQL query; pass `nextRecordsUrl` of the previous page to go on. */
  async queryPage<T extends Record<string, unknown>>(soqlOrNext: { soql: string } | { nextRecordsUrl: string }): Promise<SalesforceQueryPage<T>> {
    const url = 'soql' in soqlOrNext
      ? `/services/data/v${SALESFORCE_API_VERSION}/query?q=${encodeURIComponent(soqlOrNext.soql)}`
      : soqlOrNext.nextRecordsUrl;
    const res = await this.call(() => this.conn.request<{ records: T[]; totalSize: number; done: boolean; nextRecordsUrl?: string }>(url));
    return { records: res.records.map(stripAttributes), totalSize: res.totalSize, done: res.done, nextRecordsUrl: res.nextRecordsUrl ?? null };
  }

  /** The Salesforce user with this username (Username is unique across Salesforce), or null. */
  async findUserByUsername(username: string): Promise<{ id: string; username: string; name: string; active: boolean } | null> {
    const page = await this.queryPage<{ Id: string; Username: string; Name: string; IsActive: boolean }>({
      soql: `SELECT Id, Username, Name, IsActive FROM User WHERE Username = '${soqlString(username)}' LIMIT 1`,
    });
    const u = page.records[0];
    return u ? { id: u.Id, username: u.Username, name: u.Name, active: Boolean(u.IsActive) } : null;
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
