// The one real LLM adapter: the openai SDK (chat.completions) against any OpenAI-compatible
// endpoint. The SDK's own retries are off (maxRetries: 0); this module retries 429, 5xx and
// connection failures through lib/retry.ts, as every adapter does, waiting what Retry-After / retry-after-ms asks (else exponential
// backoff with jitter), with a timeout per attempt and the caller's AbortSignal honoured throughout.
import OpenAI from 'openai';
import type {
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
   * own base URL; none (Node's fetch) for the system provider, whose URL the operator sets.
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

const clientsByFetch = new Map<OutboundFetch | undefined, Map<string, OpenAI>>();
function clientFor(t: OpenAiTarget): OpenAI {
  let clients = clientsByFetch.get(t.fetch);
  if (!clients) {
    clients = new Map();
    clientsByFetch.set(t.fetch, clients);
  }
  const key = `${t.baseURL ?? ''}\u0000${t.apiKey}`;
  let c = clients.get(key);
  if (!c) {
    if (clients.size > 500) clients.clear();
    c = new OpenAI({ apiKey: t.apiKey, baseURL: t.baseURL ?? undefined, maxRetries: 0, ...(t.fetch ? { fetch: t.fetch } : {}) });
    clients.set(key, c);
  }
  return c;
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
export const retryAfterOf = (headers: Headers | undefined, now = Date.now()): number | null =>
  headers ? retryAfterMs(headers.get('retry-after'), now, headers.get('retry-after-ms')) : null;

function providerMessage(err: InstanceType<typeof OpenAI.APIError>): string {
  const detail =
    err.error && typeof err.error === 'object' && 'message' in err.error
      ? String((err.error as { message: unknown }).message)
      : err.message;
  return detail.slice(0, 300);
}

function requestOutcome(err: unknown): string {
  if (err instanceof OpenAI.APIUserAbortError) return 'cancelled';
  if (err instanceof OpenAI.APIConnectionTimeoutError) return 'timeout';
  if (err instanceof OpenAI.APIConnectionError) return 'connection_error';
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0;
    if (status === 429) return 'rate_limited';
    if (status >= 500) return 'server_error';
    return 'rejected';
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
  const client = clientFor(target);
  const params = buildParams(req, target.model);
  const timeout = req.timeoutMs ?? policy.timeoutMs;
  // The failures worth another attempt here (a dropped connection, 429, 5xx), with the wait the server asked for.
  const again = new WeakMap<LlmError, number | null>();
  const cancelled = () => new LlmError('cancelled', 'The AI request was cancelled.');
  return withRetries(
    async () => {
      if (req.signal?.aborted) throw cancelled();
      try {
        return await once(client, params, target, req, timeout, provider);
      } catch (err) {
        throw failure(err, req, timeout, again);
      }
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

/** One request, its answer checked. */
async function once(
  client: OpenAI,
  params: ChatCompletionCreateParamsNonStreaming,
  target: OpenAiTarget,
  req: LlmRequest,
  timeout: number,
  provider: string,
): Promise<LlmResponse> {
  let completion;
  try {
    completion = await client.chat.completions.create(params, { signal: req.signal, timeout, maxRetries: 0 });
    llmRequests.inc({ provider, outcome: 'ok' });
  } catch (err) {
    llmRequests.inc({ provider, outcome: requestOutcome(err) });
    throw err;
  }
  const choice = completion.choices?.[0];
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

/** The error a failed request is (an LlmError, or an unknown error as it is); a retryable one is marked in `again` with the server's wait. */
function failure(err: unknown, req: LlmRequest, timeout: number, again: WeakMap<LlmError, number | null>): unknown {
  const retryable = (e: LlmError, wait: number | null) => (again.set(e, wait), e);
  if (err instanceof LlmError) return err;
  if (err instanceof OpenAI.APIUserAbortError || req.signal?.aborted) return new LlmError('cancelled', 'The AI request was cancelled.');
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmError('timeout', `The AI provider did not answer within ${Math.round(timeout / 1000)} s.`, true);
  }
  const refused = outboundRefusal(err);
  if (refused) return new LlmError('provider', `The AI provider's base URL cannot be used: ${refused.message}`);
  if (err instanceof OpenAI.APIConnectionError) return retryable(new LlmError('provider', 'Could not reach the AI provider.', true), null);
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0;
    if (status === 429)
      return retryable(
        new LlmError('rate_limited', 'The AI provider is rate limiting requests; try again in a moment.', true),
        retryAfterOf(err.headers),
      );
    if (status >= 500) return retryable(new LlmError('provider', `The AI provider failed (${status}).`, true), retryAfterOf(err.headers));
    if (status === 401 || status === 403)
      return new LlmError('provider', 'The AI provider refused the API key. Check the key in the AI provider settings.');
    // A 2xx whose body did not parse.
    if (status === 200) return new LlmError('bad_output', 'The AI provider returned a malformed answer.', true);
    return new LlmError('provider', `The AI provider rejected the request (${status}): ${providerMessage(err)}`);
  }
  if (err instanceof SyntaxError) return new LlmError('bad_output', 'The AI provider returned a malformed answer.', true);
  return err;
}
