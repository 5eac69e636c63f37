// The outside-data ports of the agents, built from the configuration.
import type { Config } from '../../../config';
import { GuardedHttpClient } from '../../../providers/web/guarded-client';
import { BraveSearch } from '../../../providers/search/brave';
import { MixRankCompanyDetails } from '../../../providers/company-details/mixrank';
import type { AgentLimits, AgentPorts } from './types';

type AgentConfig = Pick<
  Config,
  'SEARCH_API_KEY' | 'SEARCH_BASE_URL' | 'MIXRANK_API_KEY' | 'MIXRANK_BASE_URL' | 'FETCH_TIMEOUT_MS' | 'FETCH_MAX_BYTES'
>;

/**
 * The guarded web client, the Brave search adapter and the MixRank adapter for this configuration.
 * Build once per process (they hold no per-request state) and pass them in the agents' options.
 */
export function createAgentPorts(config: AgentConfig): AgentPorts {
  return {
    web: new GuardedHttpClient({ timeoutMs: config.FETCH_TIMEOUT_MS, maxBytes: config.FETCH_MAX_BYTES }),
    search: new BraveSearch({ apiKey: config.SEARCH_API_KEY, baseUrl: config.SEARCH_BASE_URL }),
    companyDetails: new MixRankCompanyDetails({ apiKey: config.MIXRANK_API_KEY, baseUrl: config.MIXRANK_BASE_URL }),
  };
}

/** AGENT_MAX_STEPS / AGENT_MAX_SECONDS as agent limits (pass as `limits`; deep research gets 3× the time). */
export function agentLimitsFromConfig(
  config: Pick<Config, 'AGENT_MAX_STEPS' | 'AGENT_MAX_SECONDS'>,
  kind: 'agent' | 'deepresearchagent' = 'agent',
): Partial<AgentLimits> {
  return { maxSteps: config.AGENT_MAX_STEPS, maxWallMs: config.AGENT_MAX_SECONDS * 1000 * (kind === 'deepresearchagent' ? 3 : 1) };
}
