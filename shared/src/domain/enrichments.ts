// Enrichments on the server side of the rules (spec 001 §1, §3, §5 'Enrichment form', 'Run enrichment',
// §9; spec 002 §3 'Enrichment', 'Enrichment config', 'Built-in company info schema fields', §4, §8).
// Pure: the server and the clients read the same types, names, schema conversion and result mapping.
// (The editors' own rules live in enrichment-form.ts.)
import { formatResult, valueText } from './values';

/** llm (language-model prompt), agent (AI research agent), deepresearchagent, mixrankCompanyDetails (shown as LinkedIn). */
export const ENRICHMENT_TYPES = ['llm', 'agent', 'deepresearchagent', 'mixrankCompanyDetails'] as const;
export type EnrichmentType = (typeof ENRICHMENT_TYPES)[number];

/** What users see for each type. */
export const ENRICHMENT_TYPE_LABELS: Record<EnrichmentType, string> = {
  llm: 'LLM Prompt',
  agent: 'AI Agent',
  deepresearchagent: 'Deep Research Agent',
  mixrankCompanyDetails: 'LinkedIn',
};

/** Generated names: prefix + the next number (spec 001 §9). */
export const ENRICHMENT_NAME_PREFIXES: Record<EnrichmentType, string> = {
  llm: 'LLM Prompt',
  agent: 'AI Agent',
  deepresearchagent: 'Deep Research Agent',
  mixrankCompanyDetails: 'Linkedin',
};

/**
 * Entity types an enrichment is defined on (spec 001 §3). Enrichments run on companies and contacts
 * (their tables) and on ideas (a list's ideas table; spec 002 §4 'Idea enrichment results').
 */
export const ENRICHMENT_ENTITY_TYPES = ['company', 'contact', 'idea', 'list'] as const;
export type EnrichmentEntityType = (typeof ENRICHMENT_ENTITY_TYPES)[number];
export const RUNNABLE_ENRICHMENT_ENTITY_TYPES = ['company', 'contact', 'idea'] as const;
export type RunnableEntityType = (typeof RUNNABLE_ENRICHMENT_ENTITY_TYPES)[number];

/**
 * Whether an enrichment of one entity type runs on records of another: on its own, and a company
 * enrichment on ideas too (an idea is a company by name and website; its results are the idea's).
 */
export function enrichmentRunsOn(enrichmentEntityType: string, entityType: string): boolean {
  return enrichmentEntityType === entityType || (enrichmentEntityType === 'company' && entityType === 'idea');
}

/**
 * 'LLM Prompt 3' when 'LLM Prompt 1' and 'LLM Prompt 2' exist: one more than the highest number
 * used with that prefix (case-insensitive), 1 when none is.
 */
export function nextEnrichmentName(prefix: string, existingNames: readonly string[]): string {
  const re = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+(\\d+)$`, 'i');
  let max = 0;
  for (const n of existingNames) {
    const m = re.exec(n.trim());
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `${prefix} ${max + 1}`;
}

/**
 * The two fixed providers of the table's Provider filter (spec 001 §2): the product's own (llm,
 * agents) and the third-party company data provider (mixrankCompanyDetails).
 */
export const ENRICHMENT_PROVIDERS = [
  { value: 'dealscout', label: 'Dealscout' },
  { value: 'mixrank', label: 'MixRank' },
] as const;
export type EnrichmentProvider = (typeof ENRICHMENT_PROVIDERS)[number]['value'];
export function providerOfType(type: EnrichmentType): EnrichmentProvider {
  return type === 'mixrankCompanyDetails' ? 'mixrank' : 'dealscout';
}

export const ENRICHMENT_MESSAGES = {
  // spec 001 §5 'Enrichment form'
  nameRequired: 'Name is required',
  promptRequired: 'Prompt is required',
  schemaRequired: 'Schema is required',
  schemaNameRequired: 'Schema name is required',
  schemaDescriptionRequired: 'Schema description is required',
  schemaCategoriesRequired: 'Schema categorical values are required',
  // spec 001 §5 'Run enrichment', §8
  invalid: 'Invalid Enrichment',
  noEmptyRows: 'No empty rows to enrich.',
  unable: 'Unable to execute enrichment',
  error: 'Error executing enrichment',
  // ours (the spec shows none)
  notFound: 'Enrichment not found.',
  configNotFound: 'Enrichment config not found.',
  fieldNotFound: 'Field not found',
  fieldWrongEntity: 'The field belongs to another entity type.',
  fieldBuiltIn: 'Built-in fields cannot be assigned an enrichment.',
  notAssigned: 'The enrichment is not assigned to this field.',
  created: 'Enrichment created successfully.',
  updated: 'Enrichment updated successfully.',
  deleted: 'Enrichment deleted successfully.',
  assigned: 'Enrichment assigned successfully.',
  unassigned: 'Enrichment unassigned successfully.',
  primarySet: 'Primary enrichment updated successfully.',
  colorSet: 'Color updated successfully.',
  columnsSet: 'Columns updated successfully.',
  cannotRunOn: 'Enrichments run on companies, contacts and ideas only.',
  linkedinOn: 'The LinkedIn lookup runs on companies and ideas only.',
  resultParseError: 'Error parsing data',
} as const;

export function selectEntityProblem(entityType: string): string {
  return `Please select ${/^[aeiou]/i.test(entityType) ? 'an' : 'a'} ${entityType}.`;
}

/** 'N enrichment execution(s) started' (spec 002 §8). */
export function executionsStartedMessage(n: number): string {
  return `${n} enrichment execution(s) started`;
}

// ---------- schema items → strict JSON schema ----------

export interface EnrichmentSchemaItem {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'categories' | 'array';
  description: string;
  required: boolean;
  createColumn?: boolean;
  enumValues?: string[];
  enumType?: 'best' | 'all' | 'topN';
  enumTopN?: number;
  expanded?: boolean;
  deleteOnUpdate?: boolean;
}

export interface SchemaItemProblem {
  index: number;
  path: 'name' | 'description' | 'enumValues';
  message: string;
}

/** The per-item messages of spec 001 §5 (name, description, categorical values), in item order. */
export function schemaItemProblems(items: readonly EnrichmentSchemaItem[]): SchemaItemProblem[] {
  const out: SchemaItemProblem[] = [];
  items.forEach((it, index) => {
    if (!it.name?.trim()) out.push({ index, path: 'name', message: ENRICHMENT_MESSAGES.schemaNameRequired });
    if (!it.description?.trim()) out.push({ index, path: 'description', message: ENRICHMENT_MESSAGES.schemaDescriptionRequired });
    if (it.type === 'categories' && !(it.enumValues ?? []).some((v) => v.trim()))
      out.push({ index, path: 'enumValues', message: ENRICHMENT_MESSAGES.schemaCategoriesRequired });
  });
  return out;
}

/** A property name the providers accept (letters, digits, _ and -; at most 64). */
export function schemaPropertyName(name: string): string {
  const s = name
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (s || 'answer').slice(0, 64);
}

function itemSchema(it: EnrichmentSchemaItem): Record<string, unknown> {
  const description = it.description.trim();
  switch (it.type) {
    case 'number':
      return { type: 'number', description };
    case 'boolean':
      return { type: 'boolean', description };
    case 'array':
      return { type: 'array', description, items: { type: 'string' } };
    case 'categories': {
      const values = [...new Set((it.enumValues ?? []).map((v) => v.trim()).filter(Boolean))];
      const kind = it.enumType ?? 'best';
      if (kind === 'best') return { type: 'string', description, enum: values };
      const n = Math.max(1, Math.floor(it.enumTopN ?? 1));
      const extra = kind === 'topN' ? ` Pick at most ${n}, best first.` : ' Pick every value that applies.';
      return { type: 'array', description: `${description}${extra}`, items: { type: 'string', enum: values } };
    }
    default:
      return { type: 'string', description };
  }
}

/**
 * The strict JSON schema of an enrichment's answer: an object with one property per item, every
 * property listed in `required` (strict mode needs that) and items that are not required made
 * nullable; no additional properties. (topN is said in the description: strict mode rejects maxItems.)
 */
export function schemaItemsToJsonSchema(items: readonly EnrichmentSchemaItem[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const it of items) {
    const key = schemaPropertyName(it.name);
    const s = itemSchema(it);
    if (!it.required) {
      const t = s.type as string;
      if (s.enum) properties[key] = { ...s, type: [t, 'null'], enum: [...(s.enum as string[]), null] };
      else properties[key] = { ...s, type: [t, 'null'] };
    } else properties[key] = s;
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** The built-in company info fields filled by the LinkedIn (company details) enrichment (spec 002 §3). */
export const COMPANY_INFO_FIELDS = [
  'url',
  'name',
  'size',
  'type',
  'country',
  'founded',
  'website',
  'description',
  'employee_count',
  'follower_count',
] as const;
export const COMPANY_INFO_NUMERIC_FIELDS = ['founded', 'employee_count', 'follower_count'] as const;

export const COMPANY_INFO_SCHEMA: EnrichmentSchemaItem[] = COMPANY_INFO_FIELDS.map((name) => ({
  name,
  type: (COMPANY_INFO_NUMERIC_FIELDS as readonly string[]).includes(name) ? 'number' : 'string',
  description: `The company's ${name.replace(/_/g, ' ')}.`,
  required: false,
  createColumn: false,
}));

// ---------- rich prompts ----------

export interface PromptTextNode {
  type: 'text';
  text: string;
}
export interface PromptFieldBox {
  type: 'field-box';
  id: string;
  fieldId: string;
  autorun?: boolean;
  required?: boolean;
}
export interface PromptEnrichBox {
  type: 'enrich-box';
  id: string;
  enrichmentId: string;
  path?: string;
  autorun?: boolean;
  required?: boolean;
}
export type RichPromptNode = PromptTextNode | PromptFieldBox | PromptEnrichBox;

/** A prompt is required: some text or at least one box. */
export function richPromptIsEmpty(prompt: string | readonly RichPromptNode[] | null | undefined): boolean {
  if (prompt == null) return true;
  if (typeof prompt === 'string') return prompt.trim() === '';
  return !prompt.some((n) => (n.type === 'text' ? n.text.trim() !== '' : true));
}

/**
 * A value at a path of an enrichment result (`$.result` = the whole result, `$.result.answer` its
 * answer; a path without `$.` starts inside the result).
 */
export function valueAtPath(result: unknown, path: string | null | undefined): unknown {
  const p = (path ?? '$.result').trim();
  let parts = p
    .replace(/^\$\.?/, '')
    .split('.')
    .filter(Boolean);
  if (parts[0] === 'result') parts = parts.slice(1);
  let cur: unknown = result;
  for (const k of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/**
 * A value as the text a box puts into a prompt or a template's email (and 'Why this email'):
 * strings and numbers as they are; a result or any structured value read like everywhere else
 * (values.ts: one field → its value, several → 'Label: value; …'), never as JSON.
 */
export function promptText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return valueText(formatResult(v)) ?? '';
}

// ---------- results ----------

/** Enrichment result statuses (spec 001 §3): preprocessing (queued; a previous answer may show greyed), processing, error, complete. */
export const ENRICHMENT_RESULT_STATUSES = ['preprocessing', 'processing', 'error', 'complete'] as const;
export type EnrichmentResultStatus = (typeof ENRICHMENT_RESULT_STATUSES)[number];

/**
 * A model's answer as a stored result: JSON objects as they are; a string that does not parse as
 * an object (or any other non-object) becomes `{ answer }` (spec 002 §4).
 */
export function enrichmentResultValue(answer: unknown): Record<string, unknown> {
  if (typeof answer === 'string') {
    try {
      const parsed: unknown = JSON.parse(answer);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      /* a plain answer */
    }
    return { answer };
  }
  if (answer !== null && typeof answer === 'object' && !Array.isArray(answer)) return answer as Record<string, unknown>;
  return { answer: answer ?? null };
}

/**
 * The status of a stored result given its latest execution: a queued result (preprocessing)
 * follows its execution while that runs (processing) or failed (error, message defaulting to
 * 'Error parsing data').
 */
export function enrichmentResultStatus(
  stored: EnrichmentResultStatus,
  storedMessage: string | null,
  execution: { status: string; statusMessage: string | null } | null,
): { status: EnrichmentResultStatus; statusMessage: string | null } {
  if (stored === 'error') return { status: 'error', statusMessage: storedMessage || ENRICHMENT_MESSAGES.resultParseError };
  if (stored !== 'preprocessing' && stored !== 'processing') return { status: stored, statusMessage: storedMessage };
  if (!execution) return { status: stored, statusMessage: storedMessage };
  if (execution.status === 'processing') return { status: 'processing', statusMessage: null };
  if (execution.status === 'error' || execution.status === 'cancelled')
    return { status: 'error', statusMessage: execution.statusMessage || ENRICHMENT_MESSAGES.resultParseError };
  return { status: stored, statusMessage: storedMessage };
}

/**
 * The value an assigned field takes from a result: the answer when the result has one or a
 * single property, otherwise the whole result (as an object).
 */
export function fieldValueOfResult(result: Record<string, unknown>): unknown {
  const keys = Object.keys(result);
  if ('answer' in result) return result.answer;
  if (keys.length === 1) return result[keys[0]];
  return result;
}
