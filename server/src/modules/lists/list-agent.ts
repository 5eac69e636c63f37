// The list-building agent source (intention 'agent'): the research agent of the enrichments
// (docs/ARCHITECTURE.md 'Research agents': a model with the web_search and fetch_page tools, the
// organization's LLM and credits) asked to propose companies matching a description, each with the
// pages it found it on. The answer is checked like any provider's: a company needs a name and a
// website with a domain to become an idea; its reason and sources go to the idea's data.
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeDomain } from '@dealscout/shared/domain';
import type { Config } from '../../config';
import { getLlm, LlmError, type LlmPort } from '../../providers/llm';
import type { JsonSchema } from '../../providers/llm/port';
import { agentLimitsFromConfig, createAgentPorts, runResearchAgent } from '../enrichments/agents';
import { AgentError, type AgentPorts } from '../enrichments/agents/types';
import { ListProviderError, type SourceCompany } from '../../providers/list-sources/port';

export interface ListAgentDeps {
  llm?: (em: EntityManager) => LlmPort;
  ports?: () => Pick<AgentPorts, 'web' | 'search'>;
}

export const LIST_AGENT_SCHEMA: { name: string; schema: JsonSchema } = {
  name: 'company_list',
  schema: {
    type: 'object',
    properties: {
      companies: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'The company name.' },
            website: { type: 'string', description: "The company's own website URL (not a directory or news page)." },
            reason: { type: 'string', description: 'Why it matches the description, in one sentence.' },
            sources: { type: 'array', items: { type: 'string' }, description: 'URLs of the pages that show it matches.' },
          },
          required: ['name', 'website', 'reason', 'sources'],
          additionalProperties: false,
        },
      },
    },
    required: ['companies'],
    additionalProperties: false,
  },
};

export function listAgentObjective(description: string, max: number): string {
  return [
    `Build a list of at most ${max} real companies that match this description:`,
    description,
    'Search the web, open the pages that list or describe such companies, and check each company on its own website.',
    'For each company give its name, its own website, one sentence on why it matches, and the URLs of the pages that show it.',
    'Do not invent companies or websites; leave out a company whose website you could not find.',
  ].join('\n');
}

let ports: AgentPorts | null = null;

/** Runs the agent for a source; answers its companies (deduplicated by domain, at most max). */
export async function runListAgent(
  em: EntityManager,
  config: Config,
  organizationId: string,
  p: { description: string; maxResultCount: number },
  o: {
    signal?: AbortSignal;
    onProgress?: (n: number) => void | Promise<void>;
    memo?: <T>(key: string, load: () => Promise<T>) => Promise<T>;
    draining?: AbortSignal;
    deps?: ListAgentDeps;
    chargeKeyPrefix?: string;
  },
): Promise<SourceCompany[]> {
  const llm = o.deps?.llm ? o.deps.llm(em) : getLlm({ em, config, memo: o.memo, stopping: o.draining });
  const tools = o.deps?.ports ? o.deps.ports() : (ports ??= createAgentPorts(config));
  let answer: unknown;
  let pages: Array<{ url: string }>;
  try {
    const r = await runResearchAgent({
      llm,
      organizationId,
      model: 'default',
      objective: listAgentObjective(p.description, p.maxResultCount),
      responseSchema: LIST_AGENT_SCHEMA,
      web: tools.web,
      search: tools.search,
      signal: o.signal,
      chargeKeyPrefix: o.chargeKeyPrefix ?? `list-agent:${organizationId}`,
      limits: agentLimitsFromConfig(config, 'agent'),
    });
    answer = r.result;
    pages = r.sources;
  } catch (e) {
    if (e instanceof LlmError || e instanceof AgentError)
      throw new ListProviderError(e.kind === 'not_configured' ? 'not_configured' : 'provider', e.message, e.retryable);
    throw e;
  }
  const rows = Array.isArray((answer as { companies?: unknown })?.companies) ? (answer as { companies: unknown[] }).companies : [];
  const seen = new Set<string>();
  const out: SourceCompany[] = [];
  for (const x of rows) {
    const c = x as { name?: unknown; website?: unknown; reason?: unknown; sources?: unknown };
    const name = typeof c.name === 'string' ? c.name.trim() : '';
    const website = typeof c.website === 'string' ? c.website.trim() : '';
    if (!name || !website) continue;
    const domain = normalizeDomain(website);
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) || seen.has(domain)) continue;
    seen.add(domain);
    const sources = Array.isArray(c.sources)
      ? c.sources.filter((s): s is string => typeof s === 'string' && /^https?:\/\//i.test(s)).slice(0, 10)
      : [];
    out.push({
      name: name.slice(0, 255),
      website: /^https?:\/\//i.test(website) ? website : `https://${website}`,
      domain,
      data: {
        reason: typeof c.reason === 'string' ? c.reason : '',
        sources: sources.length
          ? sources.join(' ')
          : pages
              .map((s) => s.url)
              .slice(0, 5)
              .join(' '),
      },
    });
    if (out.length >= p.maxResultCount) break;
  }
  await o.onProgress?.(out.length);
  return out;
}
