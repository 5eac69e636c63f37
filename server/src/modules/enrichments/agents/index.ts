// What the enrichment execution handler calls for the agent, deepresearchagent and
// mixrankCompanyDetails types. Each returns { result, sources }:
//
//   runResearchAgent(opts: ResearchAgentOptions): Promise<AgentRunResult>
//   runDeepResearchAgent(opts: DeepResearchAgentOptions): Promise<AgentRunResult>
//   lookupCompanyDetails(opts: CompanyDetailsOptions): Promise<AgentRunResult<CompanyInfo>>
//
// `result` is the parsed JSON answer (the raw text when the model's answer was not JSON: map it to
// {answer}); for lookupCompanyDetails it is the CompanyInfo object (the built-in company info fields).
// Failures: LlmError from the LLM port passes through unchanged; everything else the agents raise is
// an AgentError whose message is fit for the execution's statusMessage (`retryable` says whether a
// job retry may help). Fetch and search failures never fail a run: the model sees them as tool
// results. Model calls are charged with `${chargeKeyPrefix}:<step label>`, stable per step, so use
// e.g. `${executionId}` as the prefix and a retried job is not charged again for steps it repeats.
//
// The outside-data ports (web fetch, search, company details) come from createAgentPorts(config),
// built once per process from the configuration; agentLimitsFromConfig(config, type) gives the limits
// (AGENT_MAX_STEPS, AGENT_MAX_SECONDS). Tests pass their own ports (e.g. a guarded client with a
// loopback test allowlist and adapters pointed at fake servers).
//
// Example (execution handler):
//   const ports = createAgentPorts(config);            // once
//   const { result, sources } = await runResearchAgent({
//     llm, organizationId, model: enrichment.llmModelId ?? 'default', objective: renderedPrompt,
//     responseSchema: { name: 'enrichment', schema: strictJsonSchema }, web: ports.web, search: ports.search,
//     signal: ctx.signal, chargeKeyPrefix: execution.id, limits: agentLimitsFromConfig(config, 'agent'),
//   });
//   const { result } = await lookupCompanyDetails({ provider: ports.companyDetails, organizationId,
//     query: { website: company.website, linkedinUrl }, signal: ctx.signal });
export { runResearchAgent, AGENT_TOOLS, SEARCH_UNAVAILABLE_MESSAGE, DEFAULT_AGENT_LIMITS } from './research';
export { runDeepResearchAgent, DEFAULT_DEEP_RESEARCH_LIMITS } from './deep-research';
export { createAgentPorts, agentLimitsFromConfig } from './ports';
export {
  lookupCompanyDetails,
  COMPANY_DETAILS_NOT_CONFIGURED,
  COMPANY_DETAILS_BAD_QUERY,
  COMPANY_DETAILS_NOT_FOUND,
} from './company-details';
export {
  AgentError,
  type AgentErrorKind,
  type AgentLimits,
  type AgentPorts,
  type AgentRunResult,
  type AgentSource,
  type CompanyDetailsOptions,
  type CompanyDetailsQuery,
  type CompanyInfo,
  type DeepResearchAgentOptions,
  type DeepResearchLimits,
  type ResearchAgentOptions,
} from './types';
