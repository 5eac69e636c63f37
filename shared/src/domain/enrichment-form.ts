// Rules of the enrichment editors, the schema editor, the rich prompt and the Enrich popover
// (spec 001 §2 'Enrichment editor', 'Schema editor', 'Enrich popover'; §3 'Schema item', 'Rich prompt
// nodes', 'Generated column hint result'; §4 'Enrichment editor'; §5 'Enrichment form', 'Run
// enrichment'; §8 'Enrichment'; §9). Pure: the React editors and the tests both use these.

import { ENRICHMENT_MESSAGES, schemaItemProblems, selectEntityProblem } from './enrichments';
import { formatResult, valueText, type FormattedValue, type ValueSchemaItem } from './values';

// The texts of spec 001 §5 and §8 are written once, in enrichments.ts (the server checks the same
// rules); the editors name them here with the few that only the client shows.
export const ENRICHMENT_FORM_MESSAGES = {
  nameRequired: ENRICHMENT_MESSAGES.nameRequired,
  promptRequired: ENRICHMENT_MESSAGES.promptRequired,
  schemaRequired: ENRICHMENT_MESSAGES.schemaRequired,
  schemaNameRequired: ENRICHMENT_MESSAGES.schemaNameRequired,
  schemaDescriptionRequired: ENRICHMENT_MESSAGES.schemaDescriptionRequired,
  schemaCategoriesRequired: ENRICHMENT_MESSAGES.schemaCategoriesRequired,
  hintNotFound: "Couldn't find any columns matching the given hint. Please try again.",
  schemaPlaceholder: 'Your schema will automatically appear here after you type your prompt.',
} as const;

export const RUN_ENRICHMENT_MESSAGES = {
  invalid: ENRICHMENT_MESSAGES.invalid,
  noEmptyRows: ENRICHMENT_MESSAGES.noEmptyRows,
  allRowsWarning: 'WARNING: This will overwrite existing values for selected rows.',
  unable: ENRICHMENT_MESSAGES.unable,
  failedToStart: 'Failed to start enrichment execution.',
  error: ENRICHMENT_MESSAGES.error,
} as const;

/** 'No empty rows to enrich.' stays 1000 ms (spec 001 §8). */
export const NO_EMPTY_ROWS_TOAST_MS = 1000;
/** Prompt → schema generation after 1 s without typing (spec 001 §4, §9). */
export const PROMPT_GENERATION_DEBOUNCE_MS = 1000;
/** Ids of '/' menu boxes (spec 001 §9). */
export const PROMPT_BOX_ID_LENGTH = 12;
export const DEFAULT_LLM_MODEL_ID = 'default';

/** 'Please select a company.' / 'Please select a contact.' */
export const selectEntityMessage = selectEntityProblem;

// ---------- schema items ----------

export const SCHEMA_ITEM_TYPES = ['string', 'number', 'boolean', 'categories', 'array'] as const;
export type SchemaItemType = (typeof SCHEMA_ITEM_TYPES)[number];
export const ENUM_TYPES = ['best', 'all', 'topN'] as const;
export type EnumType = (typeof ENUM_TYPES)[number];

export const SCHEMA_TYPE_LABELS: Record<SchemaItemType, string> = {
  string: 'String',
  number: 'Number',
  boolean: 'Boolean',
  categories: 'Categories',
  array: 'Array',
};
export const ENUM_TYPE_LABELS: Record<EnumType, string> = { best: 'Best match', all: 'All that apply', topN: 'Top N' };

/** A schema item as the editor holds it (spec 001 §3 'Schema item'). */
export interface FormSchemaItem {
  name: string;
  type: SchemaItemType;
  description: string;
  required: boolean;
  createColumn: boolean;
  enumValues?: string[];
  enumType?: EnumType;
  enumTopN?: number;
  expanded?: boolean;
  deleteOnUpdate?: boolean;
}

export const DEFAULT_ENUM_TYPE: EnumType = 'best';
export const DEFAULT_ENUM_TOP_N = 1;

/** The item a new schema starts with: 'answer', string, "Your answer to the user's request.", required. */
export function defaultSchemaItem(): FormSchemaItem {
  return {
    name: 'answer',
    type: 'string',
    description: "Your answer to the user's request.",
    required: true,
    createColumn: false,
    expanded: true,
  };
}

/** An empty item added with the editor's add button. */
export function blankSchemaItem(): FormSchemaItem {
  return { name: '', type: 'string', description: '', required: false, createColumn: false, expanded: true };
}

/** The type choices of an item: array only when the item already is one. */
export function schemaTypeOptions(item: Pick<FormSchemaItem, 'type'>): SchemaItemType[] {
  return item.type === 'array' ? [...SCHEMA_ITEM_TYPES] : SCHEMA_ITEM_TYPES.filter((t) => t !== 'array');
}

/** Changing the type; categories get their defaults (enumType best, enumTopN 1). */
export function withSchemaType(item: FormSchemaItem, type: SchemaItemType): FormSchemaItem {
  if (type !== 'categories') return { ...item, type };
  return {
    ...item,
    type,
    enumValues: item.enumValues ?? [],
    enumType: item.enumType ?? DEFAULT_ENUM_TYPE,
    enumTopN: item.enumTopN ?? DEFAULT_ENUM_TOP_N,
  };
}

/** A category option is added on Enter only if non-empty and not already present. */
export function addEnumValue(values: readonly string[] | undefined, input: string): string[] {
  const list = [...(values ?? [])];
  const v = input.trim();
  if (!v || list.includes(v)) return list;
  return [...list, v];
}

/** enumTopN is a whole number, at least 1. */
export function clampEnumTopN(n: unknown): number {
  const v = typeof n === 'number' ? n : Number(n);
  if (!Number.isFinite(v)) return DEFAULT_ENUM_TOP_N;
  return Math.max(1, Math.trunc(v));
}

/** At least one schema item must remain: delete is disabled on the last one. */
export function canDeleteSchemaItem(items: readonly unknown[]): boolean {
  return items.length > 1;
}

export function removeSchemaItem<T>(items: readonly T[], index: number): T[] {
  if (!canDeleteSchemaItem(items)) return [...items];
  return items.filter((_, i) => i !== index);
}

export interface SchemaItemErrors {
  name?: string;
  description?: string;
  enumValues?: string;
}

/** The item's messages, by the same check the server runs (schemaItemProblems). */
export function schemaItemErrors(item: FormSchemaItem): SchemaItemErrors {
  const e: SchemaItemErrors = {};
  for (const p of schemaItemProblems([item])) e[p.path] = p.message;
  return e;
}

// ---------- generated columns (hint box, prompt generation) ----------

/** spec 001 §3 'Generated column hint result'; 'categorical' means categories. */
export interface GeneratedColumn {
  keyName?: string | null;
  keyDataType?: string | null;
  keyDescription?: string | null;
  keyOptions?: readonly string[] | null;
}

export function schemaTypeOfGenerated(keyDataType: string | null | undefined): SchemaItemType {
  const t = (keyDataType ?? '').toLowerCase();
  if (t === 'categorical' || t === 'categories' || t === 'category' || t === 'enum') return 'categories';
  if (t === 'number' || t === 'integer' || t === 'int' || t === 'float' || t === 'double' || t === 'numeric') return 'number';
  if (t === 'boolean' || t === 'bool') return 'boolean';
  if (t === 'array' || t === 'list') return 'array';
  return 'string';
}

/** A generated column as a schema item: required and createColumn by default (spec 001 §9). */
export function generatedColumnToItem(g: GeneratedColumn): FormSchemaItem | null {
  const name = (g.keyName ?? '').trim();
  if (!name) return null;
  const type = schemaTypeOfGenerated(g.keyDataType);
  const item: FormSchemaItem = {
    name,
    type,
    description: (g.keyDescription ?? '').trim(),
    required: true,
    createColumn: true,
    expanded: true,
  };
  if (type === 'categories') {
    item.enumValues = (g.keyOptions ?? []).reduce<string[]>((acc, o) => addEnumValue(acc, String(o)), []);
    item.enumType = DEFAULT_ENUM_TYPE;
    item.enumTopN = DEFAULT_ENUM_TOP_N;
  }
  return item;
}

/** Adding a generated column collapses the other items (spec 001 §4). */
export function addGeneratedItem(items: readonly FormSchemaItem[], item: FormSchemaItem): FormSchemaItem[] {
  return [...items.map((i) => ({ ...i, expanded: false })), { ...item, expanded: true }];
}

// ---------- rich prompt ----------

/** spec 001 §3 'Rich prompt nodes'. */
export interface FieldBoxNode {
  type: 'field-box';
  id: string;
  fieldId: string;
  autorun: boolean;
  required: boolean;
}
export interface EnrichBoxNode {
  type: 'enrich-box';
  id: string;
  enrichmentId: string;
  path: string;
  autorun: boolean;
  required: boolean;
}
export interface TextNode {
  type: 'text';
  text: string;
}
export type PromptNode = TextNode | FieldBoxNode | EnrichBoxNode;

/** The path an enrich box reads by default (spec 001 §9: an idea enrichment's path defaults to $.result). */
export const DEFAULT_ENRICH_BOX_PATH = '$.result';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A 12-character id for a '/' menu box (spec 001: 'Slash' menu ids are 12 characters). */
export function newPromptBoxId(random: () => number = Math.random): string {
  let s = '';
  for (let i = 0; i < PROMPT_BOX_ID_LENGTH; i++) s += ID_ALPHABET[Math.floor(random() * ID_ALPHABET.length) % ID_ALPHABET.length];
  return s;
}

export function newFieldBox(fieldId: string, random?: () => number): FieldBoxNode {
  return { type: 'field-box', id: newPromptBoxId(random), fieldId, autorun: false, required: false };
}

export function newEnrichBox(enrichmentId: string, path = DEFAULT_ENRICH_BOX_PATH, random?: () => number): EnrichBoxNode {
  return { type: 'enrich-box', id: newPromptBoxId(random), enrichmentId, path, autorun: false, required: false };
}

/** Neighbouring text nodes merged, empty ones dropped. */
export function normalizePrompt(nodes: readonly PromptNode[]): PromptNode[] {
  const out: PromptNode[] = [];
  for (const n of nodes) {
    if (n.type === 'text') {
      if (!n.text) continue;
      const last = out[out.length - 1];
      if (last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + n.text };
      else out.push({ ...n });
    } else out.push({ ...n });
  }
  return out;
}

/**
 * The prompt as text for schema generation and display: boxes become {{Label}} with the label
 * the caller knows (field label, enrichment name).
 */
export function promptToText(
  nodes: readonly PromptNode[],
  labelOf: (n: FieldBoxNode | EnrichBoxNode) => string = (n) => (n.type === 'field-box' ? n.fieldId : n.enrichmentId),
): string {
  return nodes.map((n) => (n.type === 'text' ? n.text : `{{${labelOf(n)}}}`)).join('');
}

/** A prompt is there when it has a box or non-blank text. */
export function promptIsEmpty(nodes: readonly PromptNode[]): boolean {
  return !nodes.some((n) => n.type !== 'text' || n.text.trim() !== '');
}

/** The '/' command menu: the query typed after the slash, or null when the caret is not in one. */
export function slashQuery(textBeforeCaret: string): string | null {
  const m = /(?:^|\s)\/([^\s/]{0,40})$/.exec(textBeforeCaret);
  return m ? m[1] : null;
}

// ---------- the form ----------

export type PromptState = 'idle' | 'generating' | 'ready' | 'error';

export interface EnrichmentFormValues {
  name: string;
  prompt: readonly PromptNode[];
  schema: readonly FormSchemaItem[];
}

export interface EnrichmentFormErrors {
  name?: string;
  prompt?: string;
  schema?: string;
  items: SchemaItemErrors[];
}

export function enrichmentFormErrors(v: EnrichmentFormValues): EnrichmentFormErrors {
  const e: EnrichmentFormErrors = { items: v.schema.map(schemaItemErrors) };
  if (!v.name.trim()) e.name = ENRICHMENT_FORM_MESSAGES.nameRequired;
  if (promptIsEmpty(v.prompt)) e.prompt = ENRICHMENT_FORM_MESSAGES.promptRequired;
  if (v.schema.length === 0) e.schema = ENRICHMENT_FORM_MESSAGES.schemaRequired;
  return e;
}

export function hasFormErrors(e: EnrichmentFormErrors): boolean {
  return !!(e.name || e.prompt || e.schema || e.items.some((i) => i.name || i.description || i.enumValues));
}

/** Saving is blocked while the schema is generating or until it is ready (spec 001 §4, §5). */
export function canSaveEnrichment(v: EnrichmentFormValues, promptState: PromptState): boolean {
  return promptState === 'ready' && !hasFormErrors(enrichmentFormErrors(v));
}

/** The LinkedIn form has a name only, keyed as enrichmentName. */
export function linkedinFormErrors(v: { enrichmentName: string }): { enrichmentName?: string } {
  return v.enrichmentName.trim() ? {} : { enrichmentName: ENRICHMENT_FORM_MESSAGES.nameRequired };
}

// ---------- colours ----------

export const ENRICHMENT_COLORS = ['rose', 'orange', 'amber', 'lime', 'green', 'teal', 'sky', 'indigo', 'violet'] as const;
export type EnrichmentColor = (typeof ENRICHMENT_COLORS)[number];
/** Swatches (the 500 shades of the palette the names come from). */
export const ENRICHMENT_COLOR_HEX: Record<EnrichmentColor, string> = {
  rose: '#f43f5e',
  orange: '#f97316',
  amber: '#f59e0b',
  lime: '#84cc16',
  green: '#22c55e',
  teal: '#14b8a6',
  sky: '#0ea5e9',
  indigo: '#6366f1',
  violet: '#8b5cf6',
};

// ---------- running ----------

export type RunOption = 'empty' | 'all';
export const RUN_OPTION_LABELS: Record<RunOption, string> = { empty: 'Only Empty Rows', all: 'All Rows' };

/**
 * Why the Enrich popover cannot run, or null: a field and an enrichment must be chosen, rows must
 * be selected, and with Only Empty Rows at least one of them must be empty (when known).
 */
export function runEnrichmentProblem(o: {
  fieldId: string | null;
  enrichmentId: string | null;
  selectedCount: number;
  entity: string;
  option: RunOption;
  /** Selected rows whose field is empty; null when unknown (all selected across pages). */
  emptyCount: number | null;
}): { message: string; timeout?: number } | null {
  if (!o.fieldId || !o.enrichmentId) return { message: RUN_ENRICHMENT_MESSAGES.invalid };
  if (o.selectedCount <= 0) return { message: selectEntityMessage(o.entity) };
  if (o.option === 'empty' && o.emptyCount === 0) return { message: RUN_ENRICHMENT_MESSAGES.noEmptyRows, timeout: NO_EMPTY_ROWS_TOAST_MS };
  return null;
}

/** The toasts after POST /enrichment/execute (spec 002 §8 'Enrichment execution'). */
export function executionToasts(r: {
  started: number;
  duplicates: number;
  failed: number;
}): { level: 'success' | 'warning' | 'error'; message: string }[] {
  const out: { level: 'success' | 'warning' | 'error'; message: string }[] = [];
  if (r.started > 0) out.push({ level: 'success', message: `${r.started} enrichment execution(s) started` });
  if (r.duplicates > 0) out.push({ level: 'warning', message: `${r.duplicates} enrichment execution(s) already in the queue` });
  if (r.failed > 0) out.push({ level: 'error', message: `${r.failed} enrichment execution(s) failed to start` });
  return out;
}

// ---------- result display (spec 000 §2 'Enrichment result display', 001 §4) ----------

export const RESULT_TEXTS = { notExecuted: 'Not executed yet', processing: 'Processing...', error: 'Error', none: '-' } as const;

export type ResultDisplay =
  | { kind: 'none'; text: string }
  | { kind: 'preprocessing'; text: string; formatted?: FormattedValue }
  | { kind: 'processing'; text: string }
  | { kind: 'error'; text: string; message: string | null }
  | { kind: 'value'; text: string; formatted?: FormattedValue; raw?: unknown };

/**
 * The text of a result value (domain/values.ts): one field → its value formatted by type, several
 * → 'Label: value; Label: value'; null when empty. The response schema, when known, gives the
 * fields' order, labels and types.
 */
export function resultValueText(value: unknown, schema?: readonly ValueSchemaItem[] | null): string | null {
  return valueText(formatResult(value, schema));
}

/**
 * What a cell or a drawer row shows: no result = 'Not executed yet'; preprocessing = the interim
 * answer (greyed) or '-'; processing = 'Processing...'; error = 'Error'; done = the value.
 */
export function resultDisplay(
  r: { status?: string | null; value?: unknown; statusMessage?: string | null } | null | undefined,
  schema?: readonly ValueSchemaItem[] | null,
): ResultDisplay {
  const value = (): ResultDisplay => {
    const formatted = formatResult(r?.value, schema);
    const text = valueText(formatted);
    return text !== null ? { kind: 'value', text, formatted, raw: r?.value } : { kind: 'none', text: RESULT_TEXTS.notExecuted };
  };
  if (!r || !r.status) return r ? value() : { kind: 'none', text: RESULT_TEXTS.notExecuted };
  switch (r.status) {
    case 'preprocessing': {
      const formatted = formatResult(r.value, schema);
      const text = valueText(formatted);
      return text !== null ? { kind: 'preprocessing', text, formatted } : { kind: 'preprocessing', text: RESULT_TEXTS.none };
    }
    case 'processing':
    case 'scheduled':
    case 'pending':
    case 'inqueue':
      return { kind: 'processing', text: RESULT_TEXTS.processing };
    case 'error':
      return { kind: 'error', text: RESULT_TEXTS.error, message: r.statusMessage ?? null };
    default:
      return value();
  }
}
