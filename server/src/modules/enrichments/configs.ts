// The enrichment configs (spec 002 §3 'Enrichment config'): one per type and entity type. They are
// the product's own and the same for every organization, so they live here in code with fixed ids
// (a table per organization would only copy them; a global table would need seeding and migrations
// for every change). An enrichment stores its config id and type.
import {
  ENRICHMENT_TYPE_LABELS,
  ENRICHMENT_NAME_PREFIXES,
  COMPANY_INFO_SCHEMA,
  providerOfType,
  type EnrichmentType,
  type EnrichmentEntityType,
  type EnrichmentSchemaItem,
} from '@dealscout/shared/domain';
import type { EnrichmentConfigDto } from '@dealscout/shared/contracts';

const DESCRIPTIONS: Record<EnrichmentType, string> = {
  llm: 'Ask a language model a question about each record and get a structured answer.',
  agent: 'An AI research agent that searches the web and reads pages to answer the question.',
  deepresearchagent: 'Plans sub-questions, researches each on the web, and answers with the sources it used.',
  mixrankCompanyDetails: 'Company details from LinkedIn data: size, type, country, founded, employees, followers.',
};

const ANSWER_SCHEMA: EnrichmentSchemaItem[] = [
  { name: 'answer', type: 'string', description: "Your answer to the user's request.", required: true, createColumn: false },
];

/** Fixed ids: 00000000-0000-4000-8000-0000000000{entity}{type}. */
const ENTITY_CODES: Record<'company' | 'contact' | 'idea', string> = { company: '1', contact: '2', idea: '3' };
const TYPE_CODES: Record<EnrichmentType, string> = { llm: '1', agent: '2', deepresearchagent: '3', mixrankCompanyDetails: '4' };

function config(entityType: 'company' | 'contact' | 'idea', type: EnrichmentType): EnrichmentConfigDto {
  const hasPrompt = type !== 'mixrankCompanyDetails';
  return {
    id: `00000000-0000-4000-8000-0000000000${ENTITY_CODES[entityType]}${TYPE_CODES[type]}`,
    name: ENRICHMENT_TYPE_LABELS[type],
    description: DESCRIPTIONS[type],
    entityType,
    enrichmentType: type,
    label: ENRICHMENT_TYPE_LABELS[type],
    namePrefix: ENRICHMENT_NAME_PREFIXES[type],
    data: {},
    provider: providerOfType(type),
    llmModelId: hasPrompt ? 'default' : null,
    responseSchema: entityType === 'idea' ? (type === 'mixrankCompanyDetails' ? COMPANY_INFO_SCHEMA : ANSWER_SCHEMA) : null,
    hasPrompt,
  } as EnrichmentConfigDto;
}

/** Company and contact configs (GET /enrichment/configs). The LinkedIn lookup is for companies only. */
export const ENRICHMENT_CONFIGS: readonly EnrichmentConfigDto[] = [
  config('company', 'llm'),
  config('company', 'agent'),
  config('company', 'deepresearchagent'),
  config('company', 'mixrankCompanyDetails'),
  config('contact', 'llm'),
  config('contact', 'agent'),
  config('contact', 'deepresearchagent'),
];

/** Idea configs (GET /enrichment/idea/configs), with the schema of their answer. */
export const IDEA_ENRICHMENT_CONFIGS: readonly EnrichmentConfigDto[] = [
  config('idea', 'llm'),
  config('idea', 'agent'),
  config('idea', 'deepresearchagent'),
  config('idea', 'mixrankCompanyDetails'),
];

const ALL = new Map([...ENRICHMENT_CONFIGS, ...IDEA_ENRICHMENT_CONFIGS].map((c) => [c.id, c]));

export function findConfig(id: string): EnrichmentConfigDto | null {
  return ALL.get(id) ?? null;
}

/** The config of a type for an entity type (e.g. for tests and seeds). */
export function configFor(entityType: EnrichmentEntityType, type: EnrichmentType): EnrichmentConfigDto | null {
  return [...ALL.values()].find((c) => c.entityType === entityType && c.enrichmentType === type) ?? null;
}
