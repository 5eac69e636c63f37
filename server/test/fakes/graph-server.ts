// A fake Microsoft identity platform + Microsoft Graph on loopback, for tests, e2e
// journeys and the bench. It follows Microsoft's documented requests and answers:
//   identity (v2.0): GET /{tenant}/oauth2/v2.0/authorize (a consent page), POST …/token
//     (authorization_code with PKCE S256, refresh_token with rotation; errors as
//     {error, error_description, error_codes}: invalid_grant, invalid_client, invalid_request)
//   Graph v1.0: GET /me, GET /me/mailboxSettings, POST /me/messages (201, the message), GET
//     /me/messages?$filter=singleValueExtendedProperties/Any(...), GET /me/messages/{id},
//     POST /me/messages/{id}/send (202, no body), POST /me/sendMail (202),
//     POST /me/messages/{id}/createReply (201, a draft in the thread: 'RE: ' subject unless
//     `message.subject` sets one, the sender (or replyTo) as recipient, the same conversationId;
//     `comment` or `message.body`, not both; the fake records the answered message as `replyToId`),
//     PATCH /me/messages/{id} (writable properties; single-value extended properties are merged),
//     GET /me/mailFolders/inbox/messages/delta (also mailFolders('inbox')): the delta query as
//     documented — an initial round lists the folder's messages (optionally `$filter=
//     receivedDateTime ge …`), pages of `Prefer: odata.maxpagesize` (default 10) chained by
//     `@odata.nextLink` ($skiptoken), the last page carrying `@odata.deltaLink` ($deltatoken);
//     following a deltaLink answers what was added, changed or removed since (removed as
//     `{id, @removed: {reason: 'deleted'}}`); an unknown or foreign token is 410 SyncStateNotFound.
//   errors as {error: {code, message, innerError}}: 401 InvalidAuthenticationToken (missing or
//     expired token), 404 ErrorItemNotFound, 429 ApplicationThrottled with Retry-After (Exchange
//     Online's per-mailbox limits: 30 messages a minute, 10,000 recipients a day, 4 concurrent requests).
// Faults on request: `fault({ match, kind })` — 'status' (e.g. 503), 'hang' (never answers),
// 'lostAnswer' (does the work, then drops the connection: a send that succeeded but whose answer
// was lost), 'doneThenHang' (does the work and never answers), 'expireToken' (the caller's access token is expired from now on).
//
// Usage:
//   const fake = await FakeGraphServer.start();
//   fake.addUser({ mail: 'rep@contoso.com', workingHours: {...} });
//   env: O365_CLIENT_ID: fake.clientId, O365_CLIENT_SECRET: fake.clientSecret, O365_AUTHORITY_URL: fake.url, GRAPH_BASE_URL: `${fake.url}/v1.0`
//   const callback = await fake.consent(authorizeUrl, 'rep@contoso.com');   // the redirect (code + state)
//   fake.sent('rep@contoso.com') → the messages sent from that mailbox
import http from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';

/** Graph's timeZoneBase or customTimeZone (with '@odata.type': '#microsoft.graph.customTimeZone'). */
export type FakeZone =
  | { name: string }
  | {
      '@odata.type': '#microsoft.graph.customTimeZone';
      name: string;
      bias: number;
      standardOffset: { time: string; dayOccurrence: number; dayOfWeek: string; month: number; year: number };
      daylightOffset: { time: string; dayOccurrence: number; dayOfWeek: string; month: number; year: number; daylightBias: number };
    };

export interface FakeMailUser {
  id: string;
  mail: string;
  displayName: string;
  timeZone: string;
  /** As Graph answers it: timeZone is a timeZoneBase ({name}) or a customTimeZone (Windows-style bias, standard/daylight rules). */
  workingHours: { daysOfWeek: string[]; startTime: string; endTime: string; timeZone: FakeZone } | null;
}

export interface FakeMessage {
  id: string;
  mailbox: string;
  subject: string;
  body: { contentType: string; content: string };
  toRecipients: { emailAddress: { address: string } }[];
  ccRecipients: { emailAddress: { address: string } }[];
  singleValueExtendedProperties: { id: string; value: string }[];
  isDraft: boolean;
  folder: 'drafts' | 'sentitems' | 'inbox';
  sentDateTime: string | null;
  conversationId: string;
  receivedDateTime: string | null;
  from: { emailAddress: { address: string; name?: string } } | null;
  replyTo: { emailAddress: { address: string } }[];
  /** The Inbox change sequence of its last change (delta query). */
  changeSeq: number;
  /** The fake's own record (not a Graph property): the message a createReply draft answers. */
  replyToId?: string;
}

export type FakeFault =
  | { kind: 'status'; status: number; retryAfter?: number; code?: string; message?: string }
  | { kind: 'hang' }
  | { kind: 'lostAnswer' }
  /** Does the work, then never answers (the caller waits: a process killed in that moment). */
  | { kind: 'doneThenHang' }
  | { kind: 'expireToken' };

interface Token {
  user: string;
  expiresAt: number;
}

export class FakeGraphServer {
  readonly clientId = randomUUID();
  readonly clientSecret = `secret-${randomBytes(8).toString('hex')}`;
  readonly users = new Map<string, FakeMailUser>();
  readonly messages = new Map<string, FakeMessage>();
  readonly requests: { method: string; path: string; at: number }[] = [];
  /** Seconds an access token lives (Microsoft: 60–90 minutes). */
  accessTokenSeconds = 3600;
  limits = { messagesPerMinute: 30, recipientsPerDay: 10_000, concurrentRequests: 4 };
  /** How many requests the limits refused with 429 (concurrency, message rate, recipients). */
  throttledCount = 0;
  /** How long each Graph request takes (0: answered on the next turn). */
  latencyMs = 0;
  /** The most requests a mailbox had in flight at once. */
  readonly peakInFlight = new Map<string, number>();
  private readonly codes = new Map<string, { user: string; challenge: string; redirectUri: string; clientId: string }>();
  private readonly accessTokens = new Map<string, Token>();
  private readonly refreshTokens = new Map<string, string>();
  private readonly faults: { match: RegExp; fault: FakeFault; skip: number }[] = [];
  private readonly sends = new Map<string, number[]>();
  private readonly recipients = new Map<string, { at: number; n: number }[]>();
  private readonly inFlight = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  /** Inbox change tracking: a global sequence, and the messages removed from an Inbox (id, mailbox, seq). */
  private seq = 0;
  private readonly removed: { id: string; mailbox: string; changeSeq: number }[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeGraphServer> {
    let self: FakeGraphServer | null = null;
    const server = http.createServer((req, res) => void self!.handle(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    self = new FakeGraphServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (s) => {
      self!.sockets.add(s);
      s.on('close', () => self!.sockets.delete(s));
    });
    return self;
  }

  addUser(u: Partial<FakeMailUser> & { mail: string }): FakeMailUser {
    const user: FakeMailUser = {
      id: randomUUID(),
      displayName: u.mail.split('@')[0],
      timeZone: 'UTC',
      workingHours: {
        daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
        startTime: '08:00:00.0000000',
        endTime: '17:00:00.0000000',
        timeZone: { name: 'UTC' },
      },
      ...u,
    };
    this.users.set(user.mail.toLowerCase(), user);
    return user;
  }

  /** The next request whose "METHOD path" matches gets this fault (once); `skip` lets that many matching requests through first. */
  fault(match: RegExp, fault: FakeFault, skip = 0): void {
    this.faults.push({ match, fault, skip });
  }

  /** Revokes every refresh token of a user (their next refresh answers invalid_grant). */
  revoke(mail: string): void {
    for (const [rt, user] of this.refreshTokens) if (user === mail.toLowerCase()) this.refreshTokens.delete(rt);
  }

  /** Expires every access token of a user now. */
  expireAccessTokens(mail: string): void {
    for (const t of this.accessTokens.values()) if (t.user === mail.toLowerCase()) t.expiresAt = 0;
  }

  sent(mail?: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.folder === 'sentitems' && (!mail || m.mailbox === mail.toLowerCase()));
  }

  /**
   * A message arrives in a mailbox's Inbox: a new conversation, or — `inReplyTo` the id of a message
   * of that mailbox (one it sent) — a reply in that message's conversation.
   */
  receive(
    mail: string,
    m: { from: string; subject?: string; html?: string; inReplyTo?: string; conversationId?: string; receivedAt?: Date },
  ): FakeMessage {
    const mailbox = mail.toLowerCase();
    const original = m.inReplyTo ? this.messages.get(m.inReplyTo) : undefined;
    if (m.inReplyTo && (!original || original.mailbox !== mailbox)) throw new Error(`no message ${m.inReplyTo} in ${mailbox}`);
    const msg: FakeMessage = {
      id: newId(),
      mailbox,
      subject: m.subject ?? (original ? `RE: ${original.subject}` : 'Hello'),
      body: { contentType: 'HTML', content: m.html ?? '<p>Thanks!</p>' },
      toRecipients: [{ emailAddress: { address: mailbox } }],
      ccRecipients: [],
      singleValueExtendedProperties: [],
      isDraft: false,
      folder: 'inbox',
      sentDateTime: (m.receivedAt ?? new Date()).toISOString(),
      conversationId: original?.conversationId ?? m.conversationId ?? newConversationId(),
      receivedDateTime: (m.receivedAt ?? new Date()).toISOString(),
      from: { emailAddress: { address: m.from } },
      replyTo: [],
      changeSeq: ++this.seq,
    };
    this.messages.set(msg.id, msg);
    return msg;
  }

  /** The user reads a message of their Inbox (an update the delta query reports). */
  markRead(id: string): void {
    const m = this.messages.get(id);
    if (m) m.changeSeq = ++this.seq;
  }

  /** The user deletes a message of their Inbox (the delta query reports it as @removed). */
  remove(id: string): void {
    const m = this.messages.get(id);
    if (!m) return;
    this.messages.delete(id);
    if (m.folder === 'inbox') this.removed.push({ id, mailbox: m.mailbox, changeSeq: ++this.seq });
  }

  inbox(mail: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.folder === 'inbox' && m.mailbox === mail.toLowerCase());
  }

  drafts(mail?: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.isDraft && (!mail || m.mailbox === mail.toLowerCase()));
  }

  /** Accepts the consent page for a user: answers the redirect back to the app (with code and state). */
  async consent(authorizeUrl: string, mail: string): Promise<string> {
    const u = new URL(authorizeUrl);
    const res = await fetch(`${this.url}${u.pathname}/consent${u.search}`, {
      method: 'POST',
      body: new URLSearchParams({ mail }),
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) throw new Error(`consent failed: ${res.status} ${await res.text()}`);
    return location;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  // ---------------------------------------------------------------------------------------------

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const line = `${req.method} ${url.pathname}`;
    this.requests.push({ method: req.method ?? '', path: url.pathname + url.search, at: Date.now() });
    const fi = this.faults.findIndex((f) => f.match.test(line) && f.skip-- <= 0);
    const fault = fi >= 0 ? this.faults.splice(fi, 1)[0].fault : null;
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'status') {
      return json(
        res,
        fault.status,
        {
          error: {
            code: fault.code ?? (fault.status === 429 ? 'ApplicationThrottled' : 'ServiceUnavailable'),
            message: fault.message ?? 'Injected fault.',
            innerError: innerError(),
          },
        },
        fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {},
      );
    }

    const auth = /^\/([^/]+)\/oauth2\/v2\.0\/(authorize|authorize\/consent|token)$/.exec(url.pathname);
    if (auth) return this.identity(auth[2], url, req, raw, res);
    if (!url.pathname.startsWith('/v1.0/')) return json(res, 404, { error: { code: 'NotFound', message: 'Resource not found.' } });

    // Graph: a bearer token first.
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? this.accessTokens.get(bearer) : undefined;
    if (!bearer || !token)
      return json(res, 401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty.', innerError: innerError() } });
    if (fault?.kind === 'expireToken') token.expiresAt = 0;
    if (token.expiresAt <= Date.now())
      return json(res, 401, {
        error: {
          code: 'InvalidAuthenticationToken',
          message: 'Lifetime validation failed, the token is expired.',
          innerError: innerError(),
        },
      });
    const user = this.users.get(token.user)!;
    const mailbox = user.mail.toLowerCase();
    const active = this.inFlight.get(mailbox) ?? 0;
    if (active >= this.limits.concurrentRequests) {
      this.throttledCount += 1;
      return json(
        res,
        429,
        { error: { code: 'ApplicationThrottled', message: 'Application is over its MailboxConcurrency limit.', innerError: innerError() } },
        { 'retry-after': '1' },
      );
    }
    this.inFlight.set(mailbox, active + 1);
    this.peakInFlight.set(mailbox, Math.max(active + 1, this.peakInFlight.get(mailbox) ?? 0));
    try {
      await new Promise((r) => (this.latencyMs > 0 ? setTimeout(r, this.latencyMs) : setImmediate(r)));
      const answer = this.graph(req.method ?? 'GET', url, raw, user, String(req.headers.prefer ?? ''));
      if (fault?.kind === 'lostAnswer') {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'doneThenHang') return;
      return json(res, answer.status, answer.body, answer.headers);
    } finally {
      this.inFlight.set(mailbox, (this.inFlight.get(mailbox) ?? 1) - 1);
    }
  }

  private identity(kind: string, url: URL, req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    const q = url.searchParams;
    if (kind === 'authorize' || kind === 'authorize/consent') {
      if (q.get('client_id') !== this.clientId)
        return html(res, 400, `<h1>AADSTS700016: Application with identifier '${esc(q.get('client_id') ?? '')}' was not found.</h1>`);
      if (q.get('response_type') !== 'code' || !q.get('redirect_uri'))
        return html(
          res,
          400,
          '<h1>AADSTS900144: The request body must contain the following parameter: response_type / redirect_uri.</h1>',
        );
      if (!q.get('code_challenge') || q.get('code_challenge_method') !== 'S256')
        return html(res, 400, '<h1>AADSTS9002325: Proof Key for Code Exchange is required.</h1>');
      if (kind === 'authorize') {
        const hint = q.get('login_hint') ?? [...this.users.values()][0]?.mail ?? '';
        return html(
          res,
          200,
          `<!doctype html><html><head><title>Permissions requested</title></head><body style="font-family:Segoe ` +
            `UI,sans-serif;max-width:420px;margin:40px auto">
<h1>Permissions requested</h1><p>Dealscout would like to: send mail as you, read and write your mail, read ` +
            `your mailbox settings, maintain access to data you have given it access to.</p>
<form method="post" action="${esc(url.pathname)}/consent${esc(url.search)}"><label>Account <input name="mail" value="${esc(hint)}"></label>
<p><button type="submit" name="accept" value="yes">Accept</button></p></form></body></html>`,
        );
      }
      const mail = new URLSearchParams(raw).get('mail')?.toLowerCase() ?? '';
      if (!this.users.has(mail)) return html(res, 400, `<h1>AADSTS50034: The user account ${esc(mail)} does not exist.</h1>`);
      const code = randomBytes(24).toString('base64url');
      this.codes.set(code, {
        user: mail,
        challenge: q.get('code_challenge')!,
        redirectUri: q.get('redirect_uri')!,
        clientId: this.clientId,
      });
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('code', code);
      if (q.get('state')) back.searchParams.set('state', q.get('state')!);
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    // token
    if (req.method !== 'POST')
      return json(res, 405, { error: 'invalid_request', error_description: 'AADSTS900561: The endpoint only accepts POST requests.' });
    const f = new URLSearchParams(raw);
    const tokenError = (status: number, error: string, description: string, codes: number[]) =>
      json(res, status, {
        error,
        error_description: description,
        error_codes: codes,
        timestamp: new Date().toISOString(),
        trace_id: randomUUID(),
        correlation_id: randomUUID(),
      });
    if (f.get('client_id') !== this.clientId)
      return tokenError(
        400,
        'unauthorized_client',
        `AADSTS700016: Application with identifier '${f.get('client_id')}' was not found in the directory.`,
        [700016],
      );
    if (f.get('client_secret') !== this.clientSecret)
      return tokenError(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.', [7000215]);
    let user: string;
    if (f.get('grant_type') === 'authorization_code') {
      const c = this.codes.get(f.get('code') ?? '');
      if (!c) return tokenError(400, 'invalid_grant', 'AADSTS70000: The provided value for the code parameter is not valid.', [70000]);
      this.codes.delete(f.get('code')!);
      if (c.redirectUri !== f.get('redirect_uri'))
        return tokenError(
          400,
          'invalid_grant',
          'AADSTS70000: The redirect URI does not match the one in the authorization request.',
          [70000],
        );
      const verifier = f.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== c.challenge)
        return tokenError(
          400,
          'invalid_grant',
          'AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.',
          [501481],
        );
      user = c.user;
    } else if (f.get('grant_type') === 'refresh_token') {
      const rt = f.get('refresh_token') ?? '';
      const u = this.refreshTokens.get(rt);
      if (!u)
        return tokenError(
          400,
          'invalid_grant',
          'AADSTS70008: The provided authorization code or refresh token has expired due to inactivity. Send a new ' +
            'interactive authorization request for this user and resource.',
          [70008],
        );
      this.refreshTokens.delete(rt);
      user = u;
    } else {
      return tokenError(400, 'unsupported_grant_type', 'AADSTS70003: The app requested an unsupported grant type.', [70003]);
    }
    const access = randomBytes(24).toString('base64url');
    const refresh = randomBytes(32).toString('base64url');
    this.accessTokens.set(access, { user, expiresAt: Date.now() + this.accessTokenSeconds * 1000 });
    this.refreshTokens.set(refresh, user);
    return json(res, 200, {
      token_type: 'Bearer',
      scope: f.get('scope') ?? '',
      expires_in: this.accessTokenSeconds,
      ext_expires_in: this.accessTokenSeconds,
      access_token: access,
      refresh_token: refresh,
    });
  }

  private graph(
    method: string,
    url: URL,
    raw: string,
    user: FakeMailUser,
    prefer: string,
  ): { status: number; body?: unknown; headers?: Record<string, string> } {
    const path = url.pathname.slice('/v1.0'.length);
    const mailbox = user.mail.toLowerCase();
    const notFound = {
      status: 404,
      body: { error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.', innerError: innerError() } },
    };
    if (method === 'GET' && path === '/me') {
      return {
        status: 200,
        body: {
          '@odata.context': `${this.url}/v1.0/$metadata#users/$entity`,
          id: user.id,
          displayName: user.displayName,
          mail: user.mail,
          userPrincipalName: user.mail,
        },
      };
    }
    if (method === 'GET' && path === '/me/mailboxSettings') {
      return {
        status: 200,
        body: {
          '@odata.context': `${this.url}/v1.0/$metadata#users('${user.id}')/mailboxSettings`,
          timeZone: user.timeZone,
          workingHours: user.workingHours,
        },
      };
    }
    if (method === 'POST' && path === '/me/messages') {
      const b = JSON.parse(raw || '{}') as Partial<FakeMessage>;
      const m: FakeMessage = {
        id: `AAkALg${randomBytes(18).toString('base64url')}`,
        mailbox,
        subject: b.subject ?? '',
        body: b.body ?? { contentType: 'Text', content: '' },
        toRecipients: b.toRecipients ?? [],
        ccRecipients: b.ccRecipients ?? [],
        singleValueExtendedProperties: b.singleValueExtendedProperties ?? [],
        isDraft: true,
        folder: 'drafts',
        sentDateTime: null,
        conversationId: newConversationId(),
        receivedDateTime: null,
        from: { emailAddress: { address: mailbox } },
        replyTo: [],
        changeSeq: 0,
      };
      this.messages.set(m.id, m);
      return { status: 201, body: present(m) };
    }
    if (method === 'GET' && path === '/me/messages') {
      const filter = url.searchParams.get('$filter') ?? '';
      const f = /singleValueExtendedProperties\/Any\(ep: ep\/id eq '([^']+)' and ep\/value eq '([^']+)'\)/i.exec(filter);
      if (filter && !f)
        return {
          status: 400,
          body: { error: { code: 'ErrorInvalidUrlQueryFilter', message: 'The query filter contains one or more invalid nodes.' } },
        };
      const list = [...this.messages.values()].filter(
        (m) =>
          m.mailbox === mailbox &&
          (!f || m.singleValueExtendedProperties.some((p) => p.id.toLowerCase() === f[1].toLowerCase() && p.value === f[2])),
      );
      return { status: 200, body: { value: list.map(present) } };
    }
    if (method === 'GET' && /^\/me\/mailFolders(\/inbox|\('inbox'\))\/messages\/delta(\(\))?$/i.test(path))
      return this.delta(url, mailbox, prefer);
    const one = /^\/me\/messages\/([^/]+)(\/send|\/createReply)?$/.exec(path);
    if (one) {
      const m = this.messages.get(decodeURIComponent(one[1]));
      if (!m || m.mailbox !== mailbox) return notFound;
      if (method === 'GET' && !one[2]) return { status: 200, body: selectOf(present(m), url.searchParams.get('$select')) };
      if (method === 'PATCH' && !one[2]) {
        const b = JSON.parse(raw || '{}') as Partial<FakeMessage>;
        if (!m.isDraft && (b.body || b.toRecipients || b.ccRecipients || b.subject !== undefined))
          return {
            status: 400,
            body: { error: { code: 'ErrorInvalidOperation', message: 'Only draft messages can be changed this way.' } },
          };
        if (b.subject !== undefined) m.subject = b.subject;
        if (b.body) m.body = b.body;
        if (b.toRecipients) m.toRecipients = b.toRecipients;
        if (b.ccRecipients) m.ccRecipients = b.ccRecipients;
        for (const p of b.singleValueExtendedProperties ?? []) {
          const at = m.singleValueExtendedProperties.findIndex((x) => x.id.toLowerCase() === p.id.toLowerCase());
          if (at >= 0) m.singleValueExtendedProperties[at] = p;
          else m.singleValueExtendedProperties.push(p);
        }
        if (m.folder === 'inbox') m.changeSeq = ++this.seq;
        return { status: 200, body: present(m) };
      }
      if (method === 'POST' && one[2] === '/createReply') {
        const b = JSON.parse(raw || '{}') as { comment?: string; message?: Partial<FakeMessage> };
        if (b.comment !== undefined && b.message?.body)
          return {
            status: 400,
            body: {
              error: {
                code: 'ErrorInvalidRequest',
                message: 'Specify either a comment or the body property of the message parameter, not both.',
              },
            },
          };
        const reply: FakeMessage = {
          id: newId(),
          mailbox,
          subject: b.message?.subject ?? (/^re:/i.test(m.subject) ? m.subject : `RE: ${m.subject}`),
          body: b.message?.body ?? { contentType: 'HTML', content: `${esc(b.comment ?? '')}<hr><div>${m.body.content}</div>` },
          toRecipients: b.message?.toRecipients ?? (m.replyTo.length ? m.replyTo : m.from ? [m.from] : []),
          ccRecipients: b.message?.ccRecipients ?? [],
          singleValueExtendedProperties: [],
          isDraft: true,
          folder: 'drafts',
          sentDateTime: null,
          conversationId: m.conversationId,
          receivedDateTime: null,
          from: { emailAddress: { address: mailbox } },
          replyTo: [],
          changeSeq: 0,
          replyToId: m.id,
        };
        this.messages.set(reply.id, reply);
        return { status: 201, body: present(reply) };
      }
      if (method === 'POST' && one[2] === '/send') {
        if (!m.isDraft)
          return { status: 400, body: { error: { code: 'ErrorInvalidOperation', message: 'The message has already been sent.' } } };
        const limited = this.admit(mailbox, m.toRecipients.length + m.ccRecipients.length);
        if (limited) return limited;
        m.isDraft = false;
        m.folder = 'sentitems';
        m.sentDateTime = new Date().toISOString();
        return { status: 202 };
      }
    }
    if (method === 'POST' && path === '/me/sendMail') {
      const b = JSON.parse(raw || '{}') as { message?: Partial<FakeMessage>; saveToSentItems?: boolean };
      if (!b.message?.toRecipients?.length)
        return { status: 400, body: { error: { code: 'ErrorInvalidRecipients', message: 'At least one recipient is not valid.' } } };
      const limited = this.admit(mailbox, b.message.toRecipients.length);
      if (limited) return limited;
      const m: FakeMessage = {
        id: `AAkALg${randomBytes(18).toString('base64url')}`,
        mailbox,
        subject: b.message.subject ?? '',
        body: b.message.body ?? { contentType: 'Text', content: '' },
        toRecipients: b.message.toRecipients,
        ccRecipients: [],
        singleValueExtendedProperties: [],
        isDraft: false,
        folder: 'sentitems',
        sentDateTime: new Date().toISOString(),
        conversationId: newConversationId(),
        receivedDateTime: null,
        from: { emailAddress: { address: mailbox } },
        replyTo: [],
        changeSeq: 0,
      };
      this.messages.set(m.id, m);
      return { status: 202 };
    }
    return { status: 400, body: { error: { code: 'BadRequest', message: `Unsupported request: ${method} ${path}` } } };
  }

  /** The Inbox delta query (see the header): state tokens are opaque to the caller. */
  private delta(url: URL, mailbox: string, prefer: string): { status: number; body?: unknown; headers?: Record<string, string> } {
    interface State {
      m: string;
      from: number;
      to: number;
      off: number;
      since: string | null;
      select: string | null;
    }
    const gone = {
      status: 410,
      body: {
        error: {
          code: 'SyncStateNotFound',
          message: 'The sync state generation is not found. Please do a full sync.',
          innerError: innerError(),
        },
      },
    };
    const skip = url.searchParams.get('$skiptoken');
    const deltaToken = url.searchParams.get('$deltatoken');
    let st: State;
    if (skip || deltaToken) {
      try {
        st = JSON.parse(Buffer.from((skip ?? deltaToken)!, 'base64url').toString('utf8')) as State;
      } catch {
        return gone;
      }
      if (st.m !== mailbox) return gone;
      if (deltaToken) st = { ...st, to: this.seq, off: 0 };
    } else {
      const filter = url.searchParams.get('$filter');
      let since: string | null = null;
      if (filter) {
        const f = /^receivedDateTime (ge|gt) (\S+)$/.exec(filter.trim());
        if (!f || !Number.isFinite(Date.parse(f[2])))
          return {
            status: 400,
            body: {
              error: { code: 'ErrorInvalidUrlQueryFilter', message: 'Only receivedDateTime ge/gt is supported in a delta $filter.' },
            },
          };
        since = new Date(Date.parse(f[2])).toISOString();
      }
      st = { m: mailbox, from: -1, to: this.seq, off: 0, since, select: url.searchParams.get('$select') };
    }
    const pageSize = Math.max(1, Number(/odata\.maxpagesize=(\d+)/i.exec(prefer)?.[1] ?? 10));
    const inRange = (seq: number) => (st.from < 0 ? seq <= st.to : seq > st.from && seq <= st.to);
    const changes: { seq: number; item: Record<string, unknown> }[] = [
      ...[...this.messages.values()]
        .filter(
          (m) =>
            m.mailbox === mailbox && m.folder === 'inbox' && inRange(m.changeSeq) && (!st.since || (m.receivedDateTime ?? '') >= st.since),
        )
        .map((m) => ({
          seq: m.changeSeq,
          item: { '@odata.type': '#microsoft.graph.message', '@odata.etag': `W/"${m.changeSeq}"`, ...selectOf(present(m), st.select) },
        })),
      ...(st.from < 0
        ? []
        : this.removed
            .filter((r) => r.mailbox === mailbox && inRange(r.changeSeq))
            .map((r) => ({
              seq: r.changeSeq,
              item: { '@odata.type': '#microsoft.graph.message', id: r.id, '@removed': { reason: 'deleted' } },
            }))),
    ].sort((a, b) => a.seq - b.seq);
    const page = changes.slice(st.off, st.off + pageSize).map((c) => c.item);
    const base = `${this.url}/v1.0/me/mailFolders('inbox')/messages/delta`;
    const token = (x: State) => Buffer.from(JSON.stringify(x)).toString('base64url');
    const more = st.off + pageSize < changes.length;
    const link = more
      ? { '@odata.nextLink': `${base}?$skiptoken=${token({ ...st, off: st.off + pageSize })}` }
      : { '@odata.deltaLink': `${base}?$deltatoken=${token({ ...st, from: st.to, off: 0 })}` };
    return {
      status: 200,
      body: { '@odata.context': `${this.url}/v1.0/$metadata#Collection(message)`, ...link, value: page },
      headers: { 'preference-applied': `odata.maxpagesize=${pageSize}` },
    };
  }

  /** Exchange Online's per-mailbox sending limits: a send over them is refused with 429 and Retry-After. */
  private admit(mailbox: string, recipients: number): { status: number; body: unknown; headers: Record<string, string> } | null {
    const now = Date.now();
    const sends = (this.sends.get(mailbox) ?? []).filter((t) => t > now - 60_000);
    if (sends.length >= this.limits.messagesPerMinute) {
      const wait = Math.max(1, Math.ceil((sends[0] + 60_000 - now) / 1000));
      this.throttledCount += 1;
      return {
        status: 429,
        body: {
          error: { code: 'ApplicationThrottled', message: 'Mailbox has exceeded its message rate limit.', innerError: innerError() },
        },
        headers: { 'retry-after': String(wait) },
      };
    }
    const day = (this.recipients.get(mailbox) ?? []).filter((r) => r.at > now - 86_400_000);
    if (day.reduce((s, r) => s + r.n, 0) + recipients > this.limits.recipientsPerDay) {
      const wait = Math.max(1, Math.ceil((day[0].at + 86_400_000 - now) / 1000));
      this.throttledCount += 1;
      return {
        status: 429,
        body: {
          error: { code: 'ApplicationThrottled', message: 'Mailbox has exceeded its recipient rate limit.', innerError: innerError() },
        },
        headers: { 'retry-after': String(wait) },
      };
    }
    sends.push(now);
    day.push({ at: now, n: recipients });
    this.sends.set(mailbox, sends);
    this.recipients.set(mailbox, day);
    return null;
  }
}

function present(m: FakeMessage) {
  return {
    id: m.id,
    subject: m.subject,
    body: m.body,
    toRecipients: m.toRecipients,
    ccRecipients: m.ccRecipients,
    isDraft: m.isDraft,
    sentDateTime: m.sentDateTime,
    parentFolderId: m.folder,
    conversationId: m.conversationId,
    receivedDateTime: m.receivedDateTime,
    from: m.from,
    replyTo: m.replyTo,
  };
}
/** Graph's $select: the id always, then the properties asked for (all when none). */
function selectOf(m: Record<string, unknown>, select: string | null): Record<string, unknown> {
  if (!select) return m;
  const keep = new Set([
    'id',
    ...select
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  ]);
  return Object.fromEntries(Object.entries(m).filter(([k]) => keep.has(k)));
}
function newId(): string {
  return `AAkALg${randomBytes(18).toString('base64url')}`;
}
function newConversationId(): string {
  return `AAQkAD${randomBytes(15).toString('base64url')}=`;
}
function innerError() {
  return { date: new Date().toISOString(), 'request-id': randomUUID(), 'client-request-id': randomUUID() };
}
function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
function html(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
}
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
