// The one real LLM adapter: the Chat Completions API of any OpenAI-compatible endpoint, over plain
// HTTP (undici's `request` for the operator's provider; the outbound-policy fetch for an
// organization's own base URL). Not the openai SDK on Node's fetch: that path cost about 1 ms of
// CPU per call more than the whole request does here (docs/benchmarks.md, 'Enrichments'), and an
// enrichment or play row is one call. The SDK's types describe the wire format. This module retries
// 429, 5xx and connection failures through lib/retry.ts, as every adapter does, waiting what
// Retry-After / retry-after-ms asks (else exponential backoff with jitter), with a timeout per
// attempt and the caller's AbortSignal honoured throughout.
import { Agent, request } from 'undici';
import type {
  ChatCompletion,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';
import { LlmError, type LlmMessage, type LlmRequest, type LlmResponse } from './port';
import { outboundRefusal, type OutboundFetch } from '../web/outbound';
import { retryAfterMs } from '../../lib/retry-after';
import { withRetries } from '../../lib/retry';
import { llmCallDuration, llmCalls, llmRequests, llmRetries } from '../../lib/metrics';

export interface OpenAiTarget {
  apiKey: string;
  baseURL?: string | null;
  /** The provider's model name. */
  model: string;
  /**
   * The fetch to use: the outbound-policy fetch (providers/web/outbound.ts) for an organization's
   * own base URL; none (undici's request on the process's pool) for the system provider, whose URL
   * the operator sets.
   */
  fetch?: OutboundFetch;
  /** The metrics' provider label: 'system' (the operator's) or 'organization' (its own key). */
  source?: string;
}

export interface RetryPolicy {
  timeoutMs: number;
  maxAttempts: number;
  /** A server-requested wait longer than this is not waited out: the call fails as retryable. */
  maxRetryWaitMs: number;
  /** First backoff step when the server gives no Retry-After (doubles per attempt). */
  baseDelayMs?: number;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The connection pool of the operator's provider (keep-alive connections, reused by every call). */
const pool = new Agent({ keepAliveTimeout: 30_000, connections: 256 });

const completionsUrls = new Map<string, string>();
function completionsUrl(baseURL: string | null | undefined): string {
  const base = baseURL || DEFAULT_BASE_URL;
  let url = completionsUrls.get(base);
  if (!url) {
    if (completionsUrls.size > 500) completionsUrls.clear();
    url = `${base.replace(/\/+$/, '')}/chat/completions`;
    completionsUrls.set(base, url);
  }
  return url;
}

/** An HTTP answer as this adapter reads it. */
interface HttpAnswer {
  status: number;
  header(name: string): string | null;
  text: string;
}

/** The request failed before an answer (connection refused, reset, aborted): `cause` is what the transport threw. */
class TransportError extends Error {
  constructor(readonly cause: unknown) {
    super('transport failure');
  }
}

async function post(target: OpenAiTarget, url: string, body: string, signal: AbortSignal): Promise<HttpAnswer> {
  const headers = {
    authorization: `Bearer ${target.apiKey}`,
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'dealscout',
  };
  try {
    if (target.fetch) {
      const res = await target.fetch(url, { method: 'POST', headers, body, signal });
      return { status: res.status, header: (n) => res.headers.get(n), text: await res.text() };
    }
    const res = await request(url, { method: 'POST', headers, body, signal, dispatcher: pool, headersTimeout: 0, bodyTimeout: 0 });
    const text = await res.body.text();
    return {
      status: res.statusCode,
      header: (n) => {
        const v = res.headers[n];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
      },
      text,
    };
  } catch (err) {
    throw new TransportError(err);
  }
}

/** A failed HTTP answer (not 2xx), or a 2xx whose body is not a completion. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly answer: HttpAnswer,
  ) {
    super(`HTTP ${status}`);
  }
}

function toOpenAiMessage(m: LlmMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls?.length
          ? {
              tool_calls: m.toolCalls.map((t) => ({
                id: t.id,
                type: 'function' as const,
                function: { name: t.name, arguments: t.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

export function buildParams(req: LlmRequest, model: string): ChatCompletionCreateParamsNonStreaming {
  const params: ChatCompletionCreateParamsNonStreaming = { model, messages: req.messages.map(toOpenAiMessage) };
  if (req.responseSchema) {
    params.response_format = {
      type: 'json_schema',
      json_schema: { name: req.responseSchema.name, strict: true, schema: req.responseSchema.schema },
    };
  }
  if (req.tools?.length) {
    params.tools = req.tools.map((t): ChatCompletionTool => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  return params;
}

/** Milliseconds the server asked us to wait (retry-after-ms, Retry-After seconds or HTTP date), or null. */
export const retryAfterOf = (headers: Pick<Headers, 'get'> | undefined, now = Date.now()): number | null =>
  headers ? retryAfterMs(headers.get('retry-after'), now, headers.get('retry-after-ms')) : null;

/** The provider's own words about a failed request: its error body's message, else the body. */
function providerMessage(e: HttpError): string {
  let detail = e.answer.text.trim() || `${e.status} status code (no body)`;
  try {
    const body = JSON.parse(e.answer.text) as { error?: unknown };
    if (body.error && typeof body.error === 'object' && 'message' in body.error)
      detail = String((body.error as { message: unknown }).message);
  } catch {
    /* not JSON: the text as it is */
  }
  return detail.slice(0, 300);
}

function requestOutcome(err: unknown, cancelled: boolean, timedOut: boolean): string {
  if (cancelled) return 'cancelled';
  if (timedOut) return 'timeout';
  if (err instanceof TransportError) return 'connection_error';
  if (err instanceof HttpError) {
    if (err.status === 429) return 'rate_limited';
    if (err.status >= 500) return 'server_error';
    return err.status >= 200 && err.status < 300 ? 'ok' : 'rejected';
  }
  return 'other';
}

/**
 * One completion with our retries. Throws LlmError: rate_limited / provider (retryable when the
 * failure was 429 or 5xx), timeout (retryable), cancelled, bad_output (not JSON with a schema).
 */
export async function completeWithOpenAi(target: OpenAiTarget, req: LlmRequest, policy: RetryPolicy): Promise<LlmResponse> {
  const provider = target.source ?? 'system';
  const started = performance.now();
  try {
    const res = await attempts(target, req, policy, provider);
    llmCalls.inc({ provider, result: 'ok' });
    return res;
  } catch (err) {
    llmCalls.inc({ provider, result: err instanceof LlmError ? err.kind : 'error' });
    throw err;
  } finally {
    llmCallDuration.observe({ provider }, (performance.now() - started) / 1000);
  }
}

async function attempts(target: OpenAiTarget, req: LlmRequest, policy: RetryPolicy, provider: string): Promise<LlmResponse> {
  const url = completionsUrl(target.baseURL);
  const body = JSON.stringify(buildParams(req, target.model));
  const timeout = req.timeoutMs ?? policy.timeoutMs;
  // The failures worth another attempt here (a dropped connection, 429, 5xx), with the wait the server asked for.
  const again = new WeakMap<LlmError, number | null>();
  const cancelled = () => new LlmError('cancelled', 'The AI request was cancelled.');
  return withRetries(
    async () => {
      if (req.signal?.aborted) throw cancelled();
      return once(target, url, body, req, { timeout, provider, again });
    },
    (e) => ({ retry: e instanceof LlmError && again.has(e), waitMs: e instanceof LlmError ? (again.get(e) ?? null) : null }),
    {
      attempts: policy.maxAttempts,
      maxWaitMs: policy.maxRetryWaitMs,
      baseDelayMs: policy.baseDelayMs ?? 500,
      signal: req.signal,
      cancelled,
      onRetry: () => llmRetries.inc({ provider }),
    },
  );
}

/** One request, its answer checked; throws the LlmError it failed with (marked in `again` when worth another attempt). */
async function once(
  target: OpenAiTarget,
  url: string,
  body: string,
  req: LlmRequest,
  opts: { timeout: number; provider: string; again: WeakMap<LlmError, number | null> },
): Promise<LlmResponse> {
  // One signal for the caller's cancel and this attempt's timeout, told apart by what fired.
  const ac = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort();
  }, opts.timeout);
  const onAbort = () => ac.abort();
  req.signal?.addEventListener('abort', onAbort, { once: true });
  let completion: ChatCompletion;
  try {
    const answer = await post(target, url, body, ac.signal);
    if (answer.status < 200 || answer.status > 299) throw new HttpError(answer.status, answer);
    try {
      completion = JSON.parse(answer.text) as ChatCompletion;
    } catch {
      throw new HttpError(answer.status, answer);
    }
    llmRequests.inc({ provider: opts.provider, outcome: 'ok' });
  } catch (err) {
    const cancelled = !timedOut && !!req.signal?.aborted;
    llmRequests.inc({ provider: opts.provider, outcome: requestOutcome(err, cancelled, timedOut) });
    throw failure(err, { cancelled, timedOut, timeout: opts.timeout }, opts.again);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }
  return answerOf(completion, target, req);
}

/** The completion's first choice as an LlmResponse, checked against what the request asked for. */
function answerOf(completion: ChatCompletion, target: OpenAiTarget, req: LlmRequest): LlmResponse {
  const choice = completion?.choices?.[0];
  if (!choice?.message) throw new LlmError('bad_output', 'The AI provider returned no answer.', true);
  const message = choice.message;
  const toolCalls = (message.tool_calls ?? []).flatMap((t) =>
    t.type === 'function' ? [{ id: t.id, name: t.function.name, arguments: t.function.arguments }] : [],
  );
  const content = message.content ?? null;
  if (req.responseSchema && toolCalls.length === 0) {
    if (content === null)
      throw new LlmError(
        'bad_output',
        message.refusal ? `The AI model refused: ${message.refusal.slice(0, 300)}` : 'The AI model returned an empty answer.',
      );
    try {
      JSON.parse(content);
    } catch {
      if (!req.textAnswer || content.trim() === '')
        throw new LlmError('bad_output', 'The AI model returned an answer that is not valid JSON.');
    }
  }
  return {
    content,
    toolCalls,
    model: completion.model ?? target.model,
    finishReason: choice.finish_reason ?? null,
    usage: completion.usage
      ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens }
      : undefined,
  };
}

/** The LlmError a failed request is; a retryable one is marked in `again` with the server's wait. */
function failure(
  err: unknown,
  how: { cancelled: boolean; timedOut: boolean; timeout: number },
  again: WeakMap<LlmError, number | null>,
): LlmError {
  const retryable = (e: LlmError, wait: number | null) => (again.set(e, wait), e);
  if (err instanceof LlmError) return err;
  if (how.cancelled) return new LlmError('cancelled', 'The AI request was cancelled.');
  if (how.timedOut) return new LlmError('timeout', `The AI provider did not answer within ${Math.round(how.timeout / 1000)} s.`, true);
  const refused = outboundRefusal(err);
  if (refused) return new LlmError('provider', `The AI provider's base URL cannot be used: ${refused.message}`);
  if (!(err instanceof HttpError)) return retryable(new LlmError('provider', 'Could not reach the AI provider.', true), null);
  const status = err.status;
  const wait = () => retryAfterMs(err.answer.header('retry-after'), Date.now(), err.answer.header('retry-after-ms'));
  if (status === 429)
    return retryable(new LlmError('rate_limited', 'The AI provider is rate limiting requests; try again in a moment.', true), wait());
  if (status >= 500) return retryable(new LlmError('provider', `The AI provider failed (${status}).`, true), wait());
  if (status === 401 || status === 403)
    return new LlmError('provider', 'The AI provider refused the API key. Check the key in the AI provider settings.');
  // A 2xx whose body did not parse.
  if (status >= 200 && status < 300) return new LlmError('bad_output', 'The AI provider returned a malformed answer.', true);
  return new LlmError('provider', `The AI provider rejected the request (${status}): ${providerMessage(err)}`);
}
