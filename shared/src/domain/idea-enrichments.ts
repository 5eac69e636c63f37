// The ideas table's enrichment columns (spec 002 §3 'List column', §4 'Idea enrichment results',
// 'Idea execution display'; 001 §9: an idea enrichment's path defaults to $.result). Pure: the
// list page and its tests read the same rules.
import { ENRICHMENT_MESSAGES, valueAtPath } from './enrichments';
import { formatResult, valueText, type FormattedValue, type ValueSchemaItem } from './values';

/**
 * The spec's list column default width (002 §9). A list column at this width has not been resized:
 * the ideas table sizes it from its content (at least this wide), so answers stay readable.
 */
export const IDEA_LIST_COLUMN_WIDTH = 70;

export interface IdeaEnrichmentColumn {
  /** Unique in the table: `enrichment:{enrichmentId}:{column id}`. */
  key: string;
  enrichmentId: string;
  label: string;
  path: string;
  keys: string[];
  /** The width the user gave it; absent: sized from its content. */
  width?: number;
  sortOrder: 'asc' | 'desc' | null;
  /** The enrichment's response schema (how its values read). */
  schema?: readonly ValueSchemaItem[];
}

interface EnrichmentLike {
  id: string;
  name: string;
  entityType: string;
  data?: { schema?: readonly ValueSchemaItem[] } | null;
  listColumns?:
    | readonly {
        id: string;
        path: string;
        keys?: readonly string[];
        label: string;
        order?: number;
        width?: number;
        sortOrder?: 'asc' | 'desc' | null;
      }[]
    | null;
}

/**
 * One column per list column of each idea enrichment — and of each company enrichment run on the
 * list's ideas (the list's enrichments, GET /enrichment/{listId}/list) — in their order, or — for an enrichment
 * without list columns — one column named after the enrichment reading $.result.
 */
export function ideaEnrichmentColumns(enrichments: readonly EnrichmentLike[]): IdeaEnrichmentColumn[] {
  return enrichments
    .filter((e) => e.entityType === 'idea' || e.entityType === 'company')
    .flatMap((e) => {
      const cols = [...(e.listColumns ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
      const schema = e.data?.schema ? { schema: e.data.schema } : {};
      if (cols.length === 0)
        return [
          { key: `enrichment:${e.id}:result`, enrichmentId: e.id, label: e.name, path: '$.result', keys: [], sortOrder: null, ...schema },
        ];
      return cols.map((c) => ({
        key: `enrichment:${e.id}:${c.id}`,
        enrichmentId: e.id,
        label: c.label || e.name,
        path: c.path || '$.result',
        keys: [...(c.keys ?? [])],
        ...(c.width !== undefined && c.width !== IDEA_LIST_COLUMN_WIDTH ? { width: c.width } : {}),
        sortOrder: c.sortOrder ?? null,
        ...schema,
      }));
    });
}

export type IdeaCell =
  | { status: 'none' }
  | { status: 'processing' }
  | { status: 'error'; message: string }
  | { status: 'completed'; value: unknown; text: string; formatted: FormattedValue };

/** A result's answer as an object: a string that does not parse as structured data is `{ answer }`. */
export function ideaResultObject(value: unknown): unknown {
  let v = value;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && 'result' in v) v = (v as { result: unknown }).result;
  if (typeof v === 'string') {
    try {
      const parsed: unknown = JSON.parse(v);
      if (parsed !== null && typeof parsed === 'object') return parsed;
    } catch {
      /* a plain answer */
    }
    return { answer: v };
  }
  return v;
}

/**
 * A cell of an idea enrichment column (spec 002 §4): completed gives completed (the value at the
 * column's path, its keys picked), error gives error with the message defaulting to 'Error parsing
 * data', anything else (queued, scheduled, pending, in queue, processing) gives processing.
 */
export function ideaEnrichmentCell(
  r: { status?: string | null; value?: unknown; statusMessage?: string | null } | null | undefined,
  column: Pick<IdeaEnrichmentColumn, 'path' | 'keys' | 'schema'>,
): IdeaCell {
  if (!r || !r.status) return { status: 'none' };
  if (r.status === 'error') return { status: 'error', message: r.statusMessage || ENRICHMENT_MESSAGES.resultParseError };
  if (r.status !== 'complete' && r.status !== 'completed') return { status: 'processing' };
  let v = valueAtPath(ideaResultObject(r.value), column.path);
  // The value reads by the schema: the whole result with its items, a property with its own item.
  const segments = column.path
    .replace(/^\$\.?/, '')
    .split('.')
    .filter(Boolean)
    .filter((p, i) => i > 0 || p !== 'result');
  const key = segments.at(-1);
  const item = key ? column.schema?.find((it) => it.name === key || it.name.replace(/[^A-Za-z0-9_-]+/g, '_') === key) : undefined;
  let schema = key ? (item ? [item] : undefined) : column.schema;
  if (column.keys.length > 0 && v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const picked = column.keys.filter((k) => k in o);
    // One key: its value; several: labelled fields.
    v = picked.length === 1 ? { [picked[0]]: o[picked[0]] } : Object.fromEntries(picked.map((k) => [k, o[k]]));
    schema = column.schema;
  }
  const formatted = formatResult(v, schema, key && !item ? { key } : {});
  return { status: 'completed', value: v, text: valueText(formatted) ?? '', formatted };
}

/**
 * The enrichment's list columns after one of its table columns was resized (what
 * PUT /enrichment/column saves): the column's width changed; an enrichment without list columns
 * gets its one default column ($.result, named after it) with that width.
 */
export function listColumnsWithWidth(
  e: EnrichmentLike,
  columnKey: string,
  width: number,
): { id: string; path: string; keys: string[]; label: string; order: number; width: number; sortOrder?: 'asc' | 'desc' | null }[] {
  const cols = e.listColumns ?? [];
  if (cols.length === 0) return [{ id: 'result', path: '$.result', keys: [], label: e.name, order: 0, width }];
  return cols.map((c, i) => ({
    id: c.id,
    path: c.path,
    keys: [...(c.keys ?? [])],
    label: c.label,
    order: c.order ?? i,
    width: `enrichment:${e.id}:${c.id}` === columnKey ? width : (c.width ?? IDEA_LIST_COLUMN_WIDTH),
    ...(c.sortOrder !== undefined ? { sortOrder: c.sortOrder } : {}),
  }));
}
