// The Office 365 adapter: the Microsoft identity platform's OAuth 2.0 authorization
// code flow with PKCE (v2.0 endpoints) and the Microsoft Graph v1.0 mail calls the product uses.
// Plain HTTP against the documented APIs (undici's request on a keep-alive agent: a send makes two
// Graph calls, and fetch's WHATWG streams cost ~0.8 ms of CPU a call, docs/benchmarks.md 'Sending
// email'), base URLs from configuration (O365_AUTHORITY_URL,
// GRAPH_BASE_URL: the operator's settings, like OPENAI_BASE_URL, so not put through the outbound
// address policy — the loopback fake in tests is reached the same way).
//
// Messages are created with `Prefer: IdType="ImmutableId"`, so a message keeps its id when Exchange
// moves it from Drafts to Sent Items — the outbox asks for the very id it stored to learn whether a
// send went through. Every message carries the outbox id in a single-value extended property.
import { Agent, request } from 'undici';
import type { GraphWorkingHoursZone } from '@dealscout/shared/domain';
import { retryAfterSeconds } from '../../../lib/retry-after';

export const DELEGATED_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'User.Read',
  'Mail.Send',
  'Mail.ReadWrite',
  'MailboxSettings.Read',
];

/** The named property carrying our outbox id on every message (PS_PUBLIC_STRINGS namespace). */
export const OUTBOX_PROPERTY_ID = 'String {00020329-0000-0000-C000-000000000046} Name DealscoutOutboxId';

export interface GraphSettings {
  authorityUrl: string;
  tenant: string;
  graphBaseUrl: string;
  clientId: string;
  clientSecret: string | null;
  redirectUrl: string;
  timeoutMs: number;
}

/** An error answer of the identity platform or Graph. */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    /** Graph's error.code ('InvalidAuthenticationToken', 'ErrorItemNotFound'…) or the token endpoint's `error` ('invalid_grant'). */
    readonly code: string,
    message: string,
    /** Seconds, from Retry-After (429 / 503). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
  get throttled(): boolean {
    return this.status === 429 || (this.status === 503 && this.retryAfter !== null);
  }
  /**
   * Refused for too many requests at once to the mailbox (Exchange's MailboxConcurrency limit), not
   * for its sending rate: the request may simply be made again after Retry-After.
   */
  get concurrencyLimited(): boolean {
    return this.status === 429 && /MailboxConcurrency/i.test(this.message);
  }
  get transient(): boolean {
    return this.status === 429 || this.status >= 500 || this.status === 0;
  }
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** ms since epoch */
  accessExpiresAt: number;
}

export interface GraphMessageInput {
  subject: string;
  html: string;
  to: string[];
  cc: string[];
  outboxId: string;
}

/** What the outbox needs to know of a message: its (immutable) id, whether it is still a draft, its thread. */
export interface MessageRef {
  id: string;
  isDraft: boolean;
  conversationId?: string | null;
}

/** One change of an Inbox delta round: a message added or changed, or removed. */
export interface InboxChange {
  id: string;
  removed: boolean;
  conversationId: string | null;
  receivedDateTime: string | null;
  from: string | null;
}

/** One page of a delta round: its changes, then either the next page or the link of the next round. */
export interface InboxDeltaPage {
  changes: InboxChange[];
  nextLink: string | null;
  deltaLink: string | null;
}

/** The parts of Graph's mailboxSettings we read. workingHours.timeZone is a timeZoneBase ({name}) or a customTimeZone (bias, rules). */
export interface MailboxSettings {
  timeZone: string | null;
  workingHours: { daysOfWeek?: string[]; startTime?: string; endTime?: string; timeZone?: GraphWorkingHoursZone } | null;
}

/** The connections to the identity platform and Graph: kept alive and shared by every mailbox of the process. */
const dispatcher = new Agent({ keepAliveTimeout: 30_000 });

/** An answer read in full (its connection is free again): status, one header, the body as JSON. */
interface HttpAnswer {
  status: number;
  ok: boolean;
  header(name: string): string | null;
  json<T>(): T | undefined;
}

export class GraphClient {
  constructor(private readonly s: GraphSettings) {}

  private authority(path: string): string {
    return `${this.s.authorityUrl.replace(/\/+$/, '')}/${encodeURIComponent(this.s.tenant)}/oauth2/v2.0/${path}`;
  }

  /** The consent page address (authorize endpoint) for a state and PKCE challenge. */
  authorizeUrl(state: string, challenge: string, loginHint?: string): string {
    const q = new URLSearchParams({
      client_id: this.s.clientId,
      response_type: 'code',
      redirect_uri: this.s.redirectUrl,
      response_mode: 'query',
      scope: DELEGATED_SCOPES.join(' '),
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      prompt: 'select_account',
    });
    if (loginHint) q.set('login_hint', loginHint);
    return `${this.authority('authorize')}?${q.toString()}`;
  }

  private async token(params: Record<string, string>): Promise<TokenSet & { refreshToken: string }> {
    const body = new URLSearchParams({ client_id: this.s.clientId, scope: DELEGATED_SCOPES.join(' '), ...params });
    if (this.s.clientSecret) body.set('client_secret', this.s.clientSecret);
    const res = await this.fetch(this.authority('token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    const json = (res.json() ?? {}) as {
      access_token?: string;
      refresh_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
    };
    if (!res.ok || !json.access_token) {
      throw new GraphError(
        res.status,
        json.error ?? 'token_error',
        json.error_description ?? `Token endpoint answered ${res.status}`,
        retryAfterSeconds(res.header('retry-after')),
      );
    }
    return {
      accessToken: json.access_token,
      refreshToken: json.refresh_token ?? params.refresh_token ?? '',
      accessExpiresAt: Date.now() + (json.expires_in ?? 3600) * 1000,
    };
  }

  redeemCode(code: string, verifier: string): Promise<TokenSet> {
    return this.token({ grant_type: 'authorization_code', code, redirect_uri: this.s.redirectUrl, code_verifier: verifier });
  }

  refresh(refreshToken: string): Promise<TokenSet> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  private async fetch(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<HttpAnswer> {
    const unreachable = (err: unknown) => new GraphError(0, 'network', `Microsoft Graph could not be reached: ${(err as Error).message}`);
    try {
      // The timeout covers the answer and its body: each call is capped by GRAPH_TIMEOUT_MS (the send's lease counts on it).
      const res = await request(url, {
        method: init.method as 'GET',
        headers: init.headers,
        body: init.body,
        signal: AbortSignal.timeout(this.s.timeoutMs),
        dispatcher,
      });
      const text = await res.body.text();
      let parsed: unknown;
      let tried = false;
      return {
        status: res.statusCode,
        ok: res.statusCode >= 200 && res.statusCode < 300,
        header: (name) => {
          const h = res.headers[name.toLowerCase()];
          return (Array.isArray(h) ? h[0] : h) ?? null;
        },
        json: <T>() => {
          if (!tried) {
            tried = true;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = undefined;
            }
          }
          return parsed as T | undefined;
        },
      };
    } catch (err) {
      // Connection refused, reset, or no answer in time: the request may or may not have arrived.
      throw unreachable(err);
    }
  }

  private async graph<T>(token: string, method: string, path: string, body?: unknown, prefer: string[] = []): Promise<T> {
    // An absolute address (a delta round's nextLink / deltaLink) is followed as given, but only on Graph itself.
    const url = /^https?:\/\//.test(path) ? path : `${this.s.graphBaseUrl.replace(/\/+$/, '')}${path}`;
    if (new URL(url).origin !== new URL(this.s.graphBaseUrl).origin)
      throw new GraphError(0, 'foreign_link', `Refusing a link outside Microsoft Graph: ${new URL(url).origin}`);
    const res = await this.fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        prefer: ['IdType="ImmutableId"', ...prefer].join(', '),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) {
      const json = (res.json() ?? {}) as { error?: { code?: string; message?: string } };
      throw new GraphError(
        res.status,
        json.error?.code ?? `http_${res.status}`,
        json.error?.message ?? `Microsoft Graph answered ${res.status}`,
        retryAfterSeconds(res.header('retry-after')),
      );
    }
    if (res.status === 202 || res.status === 204) return undefined as T;
    const json = res.json<T>();
    // A success whose body is not JSON: the call's outcome is unknown, like a lost answer.
    if (json === undefined) throw new GraphError(0, 'network', `Microsoft Graph answered ${res.status} without a readable body`);
    return json;
  }

  me(token: string): Promise<{ id: string; displayName: string | null; mail: string | null; userPrincipalName: string }> {
    return this.graph(token, 'GET', '/me?$select=id,displayName,mail,userPrincipalName');
  }

  async mailboxSettings(token: string): Promise<MailboxSettings> {
    const r = await this.graph<{ timeZone?: string; workingHours?: MailboxSettings['workingHours'] }>(token, 'GET', '/me/mailboxSettings');
    return { timeZone: r.timeZone ?? null, workingHours: r.workingHours ?? null };
  }

  /** Creates the message in Drafts (POST /me/messages), carrying the outbox id. */
  createMessage(token: string, m: GraphMessageInput): Promise<MessageRef> {
    return this.graph(token, 'POST', '/me/messages', {
      subject: m.subject,
      body: { contentType: 'HTML', content: m.html },
      toRecipients: m.to.map((address) => ({ emailAddress: { address } })),
      ccRecipients: m.cc.map((address) => ({ emailAddress: { address } })),
      singleValueExtendedProperties: [{ id: OUTBOX_PROPERTY_ID, value: m.outboxId }],
    });
  }

  /** The message with this outbox id, in any folder (Drafts, Outbox, Sent Items…), or null. */
  async findByOutboxId(token: string, outboxId: string): Promise<MessageRef | null> {
    const filter = `singleValueExtendedProperties/Any(ep: ep/id eq '${OUTBOX_PROPERTY_ID}' and ep/value eq '${outboxId}')`;
    const r = await this.graph<{ value: MessageRef[] }>(
      token,
      'GET',
      `/me/messages?$filter=${encodeURIComponent(filter)}&$select=id,isDraft,conversationId&$top=5`,
    );
    return r.value.find((m) => !m.isDraft) ?? r.value[0] ?? null;
  }

  /**
   * A reply to a received message that keeps the thread (POST /me/messages/{id}/createReply: a
   * draft with the original's conversation and quoted headers), with our subject, body and
   * recipients (`message` carries any writable property to set on the reply; Graph's own subject
   * would be 'RE: <original>', ours is the draft's — the reply's unless the user changed it); then
   * the outbox id is set on it (PATCH, the documented way to add a single-value extended property),
   * so a retry finds it like any other message.
   */
  async createReply(token: string, replyToId: string, m: GraphMessageInput): Promise<MessageRef> {
    const draft = await this.graph<MessageRef>(token, 'POST', `/me/messages/${encodeURIComponent(replyToId)}/createReply`, {
      message: {
        ...(m.subject.trim() ? { subject: m.subject } : {}),
        body: { contentType: 'HTML', content: m.html },
        toRecipients: m.to.map((address) => ({ emailAddress: { address } })),
        ccRecipients: m.cc.map((address) => ({ emailAddress: { address } })),
      },
    });
    await this.tagMessage(token, draft.id, m.outboxId);
    return draft;
  }

  /** Sets the outbox id on a message (PATCH /me/messages/{id} with singleValueExtendedProperties). */
  tagMessage(token: string, id: string, outboxId: string): Promise<void> {
    return this.graph(token, 'PATCH', `/me/messages/${encodeURIComponent(id)}`, {
      singleValueExtendedProperties: [{ id: OUTBOX_PROPERTY_ID, value: outboxId }],
    }).then(() => undefined);
  }

  /**
   * One page of the Inbox delta query (GET /me/mailFolders/inbox/messages/delta). `link` null
   * starts a full round (messages received since `since`); otherwise the nextLink (same round) or
   * deltaLink (changes since the last round) stored from an earlier page. A 410 means the state
   * expired: start a new round.
   */
  async inboxDelta(token: string, link: string | null, opts: { since?: Date; pageSize?: number } = {}): Promise<InboxDeltaPage> {
    let path = link;
    if (!path) {
      const q = new URLSearchParams({ $select: 'id,conversationId,receivedDateTime,from,isDraft' });
      if (opts.since) q.set('$filter', `receivedDateTime ge ${opts.since.toISOString().replace(/\.\d{3}Z$/, 'Z')}`);
      path = `/me/mailFolders/inbox/messages/delta?${q.toString()}`;
    }
    type Row = {
      id: string;
      conversationId?: string;
      receivedDateTime?: string;
      from?: { emailAddress?: { address?: string } };
      '@removed'?: { reason?: string };
    };
    const r = await this.graph<{ value: Row[]; '@odata.nextLink'?: string; '@odata.deltaLink'?: string }>(token, 'GET', path, undefined, [
      `odata.maxpagesize=${opts.pageSize ?? 50}`,
    ]);
    return {
      changes: r.value.map((m) => ({
        id: m.id,
        removed: Boolean(m['@removed']),
        conversationId: m.conversationId ?? null,
        receivedDateTime: m.receivedDateTime ?? null,
        from: m.from?.emailAddress?.address ?? null,
      })),
      nextLink: r['@odata.nextLink'] ?? null,
      deltaLink: r['@odata.deltaLink'] ?? null,
    };
  }

  async getMessage(token: string, id: string): Promise<MessageRef | null> {
    try {
      return await this.graph(token, 'GET', `/me/messages/${encodeURIComponent(id)}?$select=id,isDraft,conversationId`);
    } catch (err) {
      if (err instanceof GraphError && err.status === 404) return null;
      throw err;
    }
  }

  /** Sends a draft (POST /me/messages/{id}/send, 202). */
  send(token: string, id: string): Promise<void> {
    return this.graph(token, 'POST', `/me/messages/${encodeURIComponent(id)}/send`);
  }

  /** One-shot send (POST /me/sendMail): the test email to oneself, not kept in Sent Items. */
  sendMail(token: string, m: { subject: string; html: string; to: string[] }): Promise<void> {
    return this.graph(token, 'POST', '/me/sendMail', {
      message: {
        subject: m.subject,
        body: { contentType: 'HTML', content: m.html },
        toRecipients: m.to.map((address) => ({ emailAddress: { address } })),
      },
      saveToSentItems: false,
    });
  }
}

export function graphSettingsFrom(config: {
  O365_AUTHORITY_URL: string;
  O365_TENANT: string;
  GRAPH_BASE_URL: string;
  O365_CLIENT_ID?: string;
  O365_CLIENT_SECRET?: string;
  o365RedirectUrl: string;
  GRAPH_TIMEOUT_MS: number;
}): GraphSettings | null {
  if (!config.O365_CLIENT_ID) return null;
  return {
    authorityUrl: config.O365_AUTHORITY_URL,
    tenant: config.O365_TENANT,
    graphBaseUrl: config.GRAPH_BASE_URL,
    clientId: config.O365_CLIENT_ID,
    clientSecret: config.O365_CLIENT_SECRET ?? null,
    redirectUrl: config.o365RedirectUrl,
    timeoutMs: config.GRAPH_TIMEOUT_MS,
  };
}
