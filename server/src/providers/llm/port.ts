// The language-model port: what the rest of the server asks of an LLM. One real adapter
// (openai SDK against any OpenAI-compatible endpoint) implements it; tests run that adapter against
// a fake OpenAI-compatible server on loopback, never an in-process stand-in for this interface.

/** A JSON schema object (as produced by z.toJSONSchema or written by hand). */
export type JsonSchema = Record<string, unknown>;

export interface LlmToolCall {
  id: string;
  name: string;
  /** The raw JSON text of the arguments, as the model produced it. */
  arguments: string;
}

export type LlmMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface LlmTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface LlmRequest {
  organizationId: string;
  /** An llmModelId: 'default' (the organization's default model) or one of its model ids. */
  model: string;
  messages: LlmMessage[];
  /** Structured output: the answer must be JSON valid against this schema (sent strict). */
  responseSchema?: { name: string; schema: JsonSchema };
  /**
   * With responseSchema: an answer that is not JSON is returned as it is (the caller keeps the text,
   * e.g. an idea enrichment's plain answer — spec 002 §4) instead of failing with 'bad_output'.
   */
  textAnswer?: boolean;
  tools?: LlmTool[];
  signal?: AbortSignal;
  /** Per call; the adapter has a default from configuration. */
  timeoutMs?: number;
  /**
   * Credits are charged once per key: a retried job that repeats a call with the same key is not
   * charged again (e.g. `${executionId}:${step}`).
   */
  chargeKey?: string;
  /**
   * Order among this organization's calls waiting for the concurrency limit: lower first (default:
   * the time of the call). Execution handlers pass their batch's claim time.
   */
  priority?: number;
}

export interface LlmResponse {
  /** The text of the answer (JSON text when responseSchema was given), null when only tool calls. */
  content: string | null;
  toolCalls: LlmToolCall[];
  /** The provider's model name actually used. */
  model: string;
  finishReason: string | null;
  usage?: { promptTokens: number; completionTokens: number };
}

export type LlmErrorKind =
  | 'not_configured' // no provider for this organization (message says where to configure one)
  | 'credits_exhausted' // credits.ai used up
  | 'rate_limited' // 429 after our retries
  | 'timeout'
  | 'cancelled'
  | 'provider' // 4xx/5xx from the provider after retries
  | 'bad_output'; // the answer did not parse / match the schema

/** A failure whose message is fit to show the user (execution statusMessage, toast). */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface LlmPort {
  complete(req: LlmRequest): Promise<LlmResponse>;
  /**
   * Optional: starts reading what the organization's calls need (its provider, models and credits)
   * so a first call soon after does not wait for it; errors are left to that call.
   */
  prepare?(organizationId: string): void;
}
