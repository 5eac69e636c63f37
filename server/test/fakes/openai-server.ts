// A fake OpenAI-compatible server on loopback, for every test, e2e journey and bench that needs a
// language model. It speaks the documented Chat Completions API (POST /v1/chat/completions, GET
// /v1/models) so the real adapter (openai SDK, server/src/providers/llm) runs against it unchanged.
//
// Usage:
//   const fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });   // any key when omitted
//   const ctx = await createTestApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.url, OPENAI_MODELS: 'gpt-test,gpt-test-mini' } });
//   fake.reply({ json: { answer: 'Paris' } });            // next request answers this (FIFO script)
//   fake.reply({ toolCalls: [{ name: 'search', arguments: { q: 'x' } }] }, { content: 'done' });
//   fake.when((r) => lastUserText(r).includes('Acme'), { json: { answer: 'Acme Inc' } }); // by content (concurrent calls)
//   fake.reply({ status: 429, headers: { 'retry-after': '1' } });   // rate limited once
//   fake.reply({ status: 500 }); fake.reply({ hang: true }); fake.reply({ raw: '{not json' });
//   fake.reply({ json: {...}, latencyMs: 200 });          // or FakeOpenAiServer.start({ latencyMs })
//   const gate = new AnswerGate(12); fake.otherwise(gate.reply({ json: {...} })); … gate.allow(2); gate.open();
//   fake.requests → every request: { body, authorization, path, at }
//   await fake.close();
// Without a scripted reply, a request with response_format json_schema gets the smallest object
// valid against that schema (strings 'fake <name>', first enum value, 0, false, one array item),
// so benches and e2e journeys work without scripting every call; otherwise the answer is 'ok'.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeChatMessage {
  role: string;
  content?: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface FakeChatBody {
  model: string;
  messages: FakeChatMessage[];
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> } };
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean } }>;
  [k: string]: unknown;
}

export interface FakeRequest {
  method: string;
  path: string;
  /** The Authorization header (e.g. 'Bearer sk-test'). */
  authorization: string | undefined;
  body: FakeChatBody;
  at: number;
}

export type FakeReply =
  /** A JSON answer (sent as the message content, stringified). */
  | { json: unknown; latencyMs?: number; model?: string }
  /** A text answer. */
  | { content: string; latencyMs?: number; model?: string }
  /** Tool calls (arguments given as an object are stringified); content null. */
  | { toolCalls: Array<{ name: string; arguments: unknown; id?: string }>; latencyMs?: number }
  /** An HTTP error (OpenAI's error body unless `body` is given), e.g. 429 with retry-after. */
  | { status: number; headers?: Record<string, string>; body?: unknown; latencyMs?: number }
  /** Never answers (until the client gives up or the server closes): for timeouts and cancel. */
  | { hang: true }
  /** A 200 whose body is this text as is (malformed JSON). */
  | { raw: string; latencyMs?: number }
  /** Computed from the request. */
  | ((req: FakeRequest) => FakeReply | Promise<FakeReply>);

export interface FakeOpenAiOptions {
  /** Accepted API keys; others get 401. Any key when omitted. */
  apiKeys?: string[];
  /** Delay before every answer (ms). */
  latencyMs?: number;
  /** Model ids listed by GET /v1/models. */
  models?: string[];
}

/** The text of the last user message of a request (helper for `when`). */
export function lastUserText(req: FakeRequest): string {
  const users = req.body.messages.filter((m) => m.role === 'user');
  return contentText(users.at(-1)?.content);
}

/** All message texts of a request joined (helper for `when`). */
export function allText(req: FakeRequest): string {
  return req.body.messages.map((m) => contentText(m.content)).join('\n');
}

function contentText(c: FakeChatMessage['content']): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => p.text ?? '').join('');
  return '';
}

/** The smallest value valid against a (strict) JSON schema. */
export function sampleForSchema(schema: Record<string, unknown>, name = 'value', defs: Record<string, unknown> = {}): unknown {
  const s = schema;
  const allDefs = { ...defs, ...((s.$defs as Record<string, unknown>) ?? {}), ...((s.definitions as Record<string, unknown>) ?? {}) };
  if (typeof s.$ref === 'string') {
    const target = allDefs[s.$ref.split('/').at(-1) ?? ''];
    return target ? sampleForSchema(target as Record<string, unknown>, name, allDefs) : null;
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('const' in s) return s.const;
  const anyOf = (s.anyOf ?? s.oneOf) as Record<string, unknown>[] | undefined;
  if (anyOf?.length) return sampleForSchema(anyOf.find((x) => x.type !== 'null') ?? anyOf[0], name, allDefs);
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Record<string, unknown>>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sampleForSchema(v, k, allDefs)]));
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      return Array.from({ length: Math.max(min, 1) }, () => sampleForSchema((s.items ?? {}) as Record<string, unknown>, name, allDefs));
    }
    case 'string':
      return `fake ${name}`;
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return `fake ${name}`;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Model answers given when the test says so, instead of a latency long enough to watch a run under
 * way: a reply from `gate.reply(...)` is sent once the gate has room (`new AnswerGate(n)` lets n
 * through, `allow(n)` n more, `open()` all); the others wait, their requests already received.
 */
export class AnswerGate {
  private waiting: (() => void)[] = [];

  constructor(private allowance = 0) {}

  /** Lets `n` more answers through. */
  allow(n: number): void {
    this.allowance += n;
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Lets every answer through from now on. */
  open(): void {
    this.allow(Infinity);
  }

  /** Requests waiting for room. */
  get held(): number {
    return this.waiting.length;
  }

  /** Resolves when the gate lets one more answer through (and counts it). */
  async pass(): Promise<void> {
    while (this.allowance <= 0) await new Promise<void>((wake) => this.waiting.push(wake));
    this.allowance -= 1;
  }

  /** `reply`, sent when the gate lets it through. */
  reply(reply: Exclude<FakeReply, (req: FakeRequest) => unknown>): FakeReply {
    return async () => {
      await this.pass();
      return reply;
    };
  }
}

export class FakeOpenAiServer {
  readonly requests: FakeRequest[] = [];
  private script: FakeReply[] = [];
  private rules: Array<{ match: (r: FakeRequest) => boolean; reply: FakeReply; once: boolean }> = [];
  private fallback: FakeReply | null = null;
  private sockets = new Set<Socket>();
  private seq = 0;

  private constructor(
    private readonly server: http.Server,
    private readonly opts: FakeOpenAiOptions,
  ) {}

  static async start(opts: FakeOpenAiOptions = {}): Promise<FakeOpenAiServer> {
    let fake: FakeOpenAiServer | null = null;
    const server = http.createServer((req, res) => {
      void fake!.handle(req, res);
    });
    fake = new FakeOpenAiServer(server, opts);
    server.on('connection', (s) => {
      fake!.sockets.add(s);
      s.on('close', () => fake!.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** Base URL for the SDK / OPENAI_BASE_URL, e.g. http://127.0.0.1:41234/v1 */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Chat completion requests only (GET /models excluded). */
  get chatRequests(): FakeRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  /** Queues replies, answered in order by the next requests (after any matching `when` rule). */
  reply(...replies: FakeReply[]): this {
    this.script.push(...replies);
    return this;
  }

  /** Answers requests that match with this reply (every time, or once). Checked before the script. */
  when(match: (r: FakeRequest) => boolean, reply: FakeReply, opts: { once?: boolean } = {}): this {
    this.rules.push({ match, reply, once: opts.once ?? false });
    return this;
  }

  /** The answer when nothing is scripted (default: sample of the schema, or 'ok'). */
  otherwise(reply: FakeReply | null): this {
    this.fallback = reply;
    return this;
  }

  /** Forgets scripts, rules and the request log. */
  reset(): void {
    this.script = [];
    this.rules = [];
    this.fallback = null;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0];
    const authorization = req.headers.authorization;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const error = (status: number, message: string, type: string, headers: Record<string, string> = {}) =>
      send(status, { error: { message, type, param: null, code: null } }, headers);

    if (this.opts.apiKeys && !this.opts.apiKeys.some((k) => authorization === `Bearer ${k}`)) {
      this.requests.push({ method: req.method ?? '', path, authorization, body: { model: '', messages: [] }, at: Date.now() });
      error(401, 'Incorrect API key provided.', 'invalid_request_error');
      return;
    }
    if (req.method === 'GET' && path.endsWith('/models')) {
      this.requests.push({ method: 'GET', path, authorization, body: { model: '', messages: [] }, at: Date.now() });
      send(200, {
        object: 'list',
        data: (this.opts.models ?? ['gpt-test']).map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
      });
      return;
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      error(404, `Unknown request URL: ${req.method} ${path}`, 'invalid_request_error');
      return;
    }
    let body: FakeChatBody;
    try {
      body = JSON.parse(text) as FakeChatBody;
    } catch {
      error(400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
      return;
    }
    const request: FakeRequest = { method: 'POST', path, authorization, body, at: Date.now() };
    this.requests.push(request);
    if (!Array.isArray(body.messages) || typeof body.model !== 'string') {
      error(400, "Missing required parameter: 'messages'.", 'invalid_request_error');
      return;
    }

    let reply = this.pick(request);
    while (typeof reply === 'function') reply = await reply(request);
    if ('hang' in reply) return; // leave the request open; close() destroys the socket
    const latency = reply.latencyMs ?? this.opts.latencyMs ?? 0;
    if (latency > 0) await sleep(latency);

    if ('status' in reply) {
      if (reply.body !== undefined) send(reply.status, reply.body, reply.headers);
      else
        error(
          reply.status,
          reply.status === 429 ? 'Rate limit reached for requests' : `Fake error ${reply.status}`,
          reply.status === 429 ? 'requests' : 'server_error',
          reply.headers,
        );
      return;
    }
    if ('raw' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply.raw);
      return;
    }
    this.seq += 1;
    const id = `chatcmpl-fake${this.seq}`;
    const model = ('model' in reply && reply.model) || body.model;
    let message: Record<string, unknown>;
    let finish = 'stop';
    if ('toolCalls' in reply) {
      finish = 'tool_calls';
      message = {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: reply.toolCalls.map((t, i) => ({
          id: t.id ?? `call_${this.seq}_${i}`,
          type: 'function',
          function: { name: t.name, arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments) },
        })),
      };
    } else {
      message = { role: 'assistant', content: 'json' in reply ? JSON.stringify(reply.json) : reply.content, refusal: null };
    }
    const promptTokens = Math.ceil(text.length / 4);
    const completionTokens = Math.ceil(JSON.stringify(message).length / 4);
    send(200, {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  }

  private pick(request: FakeRequest): FakeReply {
    const i = this.rules.findIndex((r) => r.match(request));
    if (i >= 0) {
      const rule = this.rules[i];
      if (rule.once) this.rules.splice(i, 1);
      return rule.reply;
    }
    const next = this.script.shift();
    if (next) return next;
    if (this.fallback) return this.fallback;
    const schema = request.body.response_format?.json_schema?.schema;
    return schema ? { json: sampleForSchema(schema) } : { content: 'ok' };
  }
}
