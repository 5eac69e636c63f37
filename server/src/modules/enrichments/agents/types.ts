import type { JsonSchema, LlmPort } from '../../../providers/llm/port';
import type { WebFetchPort } from '../../../providers/web/port';
import type { SearchPort } from '../../../providers/search/port';
import type { CompanyDetailsPort, CompanyDetailsQuery, CompanyInfo } from '../../../providers/company-details/port';

/** A page or search the agent used for its answer. */
export interface AgentSource {
  url: string;
  title: string | null;
}

export interface AgentRunResult<T = unknown> {
  /**
   * The final answer: the parsed JSON of the model's structured answer (valid against the response
   * schema when the provider honours strict schemas); the raw text when it did not parse as JSON
   * (the caller maps a plain string to {answer}).
   */
  result: T;
  /** Every page fetched successfully and every search-result URL the model then fetched, in order, no duplicates. */
  sources: AgentSource[];
}

/** The outside-data ports an agent may use. Build them with createAgentPorts(config). */
export interface AgentPorts {
  web: WebFetchPort;
  search: SearchPort;
  companyDetails: CompanyDetailsPort;
}

export interface AgentLimits {
  /** Model calls with tools before the agent must answer (then one more call without tools). Default 8. */
  maxSteps: number;
  /** Wall time for the whole run; past it the agent answers with what it has. Default 120 000 ms. */
  maxWallMs: number;
  /** The most characters of one tool result handed to the model. Default 12 000. */
  maxToolResultChars: number;
  /** Tool calls carried out per model turn (extra ones are refused). Default 4. */
  maxToolCallsPerStep: number;
}

export interface ResearchAgentOptions {
  llm: LlmPort;
  organizationId: string;
  /** An llmModelId ('default' or one of the organization's models). */
  model: string;
  /** The rendered objective (field and enrich boxes already replaced by values). */
  objective: string;
  /** The enrichment's strict response schema. */
  responseSchema: { name: string; schema: JsonSchema };
  web: WebFetchPort;
  search: SearchPort;
  signal?: AbortSignal;
  /**
   * Every model call is charged with `${chargeKeyPrefix}:${label}` where label is stable for the
   * same step of the same run (e.g. 'r0', 'r1', …, 'final'), so a retried job is not charged twice.
   */
  chargeKeyPrefix: string;
  limits?: Partial<AgentLimits>;
}

export interface DeepResearchLimits extends AgentLimits {
  /** Sub-questions planned at most. Default 4. */
  maxSubQuestions: number;
  /** Steps of the research loop per sub-question. Default 5. */
  stepsPerSubQuestion: number;
}

export interface DeepResearchAgentOptions extends Omit<ResearchAgentOptions, 'limits'> {
  limits?: Partial<DeepResearchLimits>;
}

export interface CompanyDetailsOptions {
  provider: CompanyDetailsPort;
  organizationId: string;
  /** Website / domain and/or LinkedIn URL of the company (the entity's values). */
  query: CompanyDetailsQuery;
  signal?: AbortSignal;
}

export type AgentErrorKind = 'cancelled' | 'timeout' | 'bad_output' | 'not_configured' | 'not_found' | 'bad_query' | 'provider';

/** A failure of an agent run whose message is fit for an execution's statusMessage. LlmError passes through unchanged. */
export class AgentError extends Error {
  constructor(
    readonly kind: AgentErrorKind,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

export type { CompanyInfo, CompanyDetailsQuery };
