// How a value reads, wherever it is shown: an enrichment's result (drawer rows, table cells, list
// columns, the copy button, exports), a field's value or a list's extra column. Pure: the clients
// render the parts (links, chips, labelled fields: shared/src/ui/values) and the server's exports
// write their text with the same rules.
//  - One field (an answer, a one-property result, a scalar) → its value, formatted by its type:
//    numbers grouped in the product's locale ('1,250'), booleans 'Yes' / 'No', dates 'Jan 5, 2024',
//    URLs and email addresses as links, lists as chips.
//  - Several fields → labelled fields, in the response schema's order ('Employees: 44; Industry: …').
//  - Raw JSON only where the user asks for it ('Show raw').
// The type comes from the response schema (or the field's data type) when there is one, else from
// the value itself.
import type { FieldDataType } from './fields';

/** The product's locale: its texts are English, and every number and date on screen reads the same way. */
export const VALUE_LOCALE = 'en-US';

/** A response schema item, as far as display needs it (enrichment schema items fit). */
export interface ValueSchemaItem {
  name: string;
  type?: string;
}

export interface ValueHint {
  /** The response schema's type of this value (string, number, boolean, categories, array). */
  schemaType?: string;
  /** The data type of the field holding it. */
  dataType?: FieldDataType | string;
  /** The property name it came from (a 'website' string is a link even without its scheme). */
  key?: string;
  /** A currency field's currency. */
  currency?: string | null;
}

export type FormattedValue =
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'number'; text: string; value: number }
  | { kind: 'boolean'; text: string; value: boolean }
  | { kind: 'date'; text: string; iso: string }
  | { kind: 'url'; text: string; href: string }
  | { kind: 'email'; text: string; href: string }
  | { kind: 'list'; items: FormattedValue[] }
  | { kind: 'fields'; fields: LabelledValue[] };

export interface LabelledValue {
  key: string;
  label: string;
  value: FormattedValue;
}

const EMPTY: FormattedValue = { kind: 'empty' };
const NUMERIC_DATA_TYPES = new Set(['int', 'double', 'currency', 'number']);
const numberFormat = new Intl.NumberFormat(VALUE_LOCALE, { maximumFractionDigits: 6 });
const currencyFormats = new Map<string, Intl.NumberFormat>();
function currencyFormat(code: string): Intl.NumberFormat {
  let f = currencyFormats.get(code);
  if (!f) {
    f = new Intl.NumberFormat(VALUE_LOCALE, { style: 'currency', currency: code });
    currencyFormats.set(code, f);
  }
  return f;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const HTTP_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
const BARE_HOST = /^(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(\/\S*)?$/i;
const EMAIL = /^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+$/;
const LINK_KEY = /(url|website|domain|link|linkedin|homepage)/i;
/** A year reads '2011', never '2,011'. */
const YEAR_KEY = /(year|founded)/i;

/** 'employee_count' → 'Employee count', 'fundingStage' → 'Funding stage'; a name with spaces stays as written. */
export function valueLabel(key: string): string {
  if (/\s/.test(key.trim())) return key.trim();
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}

/** A schema item's property name in a result (as the model answers it: see schemaPropertyName). */
function propertyName(name: string): string {
  const s = name
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (s || 'answer').slice(0, 64);
}

function isEmptyRaw(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

function formatDateText(iso: string): string | null {
  const day = ISO_DAY.test(iso);
  const d = new Date(day ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(d.getTime())) return null;
  if (day) return d.toLocaleDateString(VALUE_LOCALE, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
  return `${d.toLocaleString(VALUE_LOCALE, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })} UTC`;
}

function numberValue(n: number, hint: ValueHint): FormattedValue {
  if (!Number.isFinite(n)) return EMPTY;
  if (hint.key && YEAR_KEY.test(hint.key) && Number.isInteger(n) && n >= 1000 && n < 3000)
    return { kind: 'number', text: String(n), value: n };
  if (hint.dataType === 'currency') {
    const code = typeof hint.currency === 'string' && /^[A-Z]{3}$/.test(hint.currency) ? hint.currency : 'USD';
    try {
      return { kind: 'number', text: currencyFormat(code).format(n), value: n };
    } catch {
      return { kind: 'number', text: currencyFormat('USD').format(n), value: n };
    }
  }
  return { kind: 'number', text: numberFormat.format(n), value: n };
}

function stringValue(raw: string, hint: ValueHint): FormattedValue {
  const s = raw.trim();
  if (!s) return EMPTY;
  const numeric = NUMERIC_DATA_TYPES.has(String(hint.dataType)) || hint.schemaType === 'number';
  if (numeric && Number.isFinite(Number(s.replace(/,/g, '')))) return numberValue(Number(s.replace(/,/g, '')), hint);
  if (hint.dataType === 'boolean' || hint.schemaType === 'boolean') {
    if (/^(true|yes)$/i.test(s)) return { kind: 'boolean', text: 'Yes', value: true };
    if (/^(false|no)$/i.test(s)) return { kind: 'boolean', text: 'No', value: false };
  }
  if (hint.dataType === 'time') return { kind: 'text', text: s };
  if (ISO_DAY.test(s) || ISO_TIME.test(s) || hint.dataType === 'date') {
    const text = formatDateText(s);
    if (text) return { kind: 'date', text, iso: s };
  }
  if (EMAIL.test(s) && !s.includes('/')) return { kind: 'email', text: s, href: `mailto:${s}` };
  if (HTTP_URL.test(s)) return { kind: 'url', text: s, href: s };
  if ((hint.dataType === 'url' || (hint.key && LINK_KEY.test(hint.key))) && BARE_HOST.test(s))
    return { kind: 'url', text: s, href: `https://${s}` };
  return { kind: 'text', text: raw };
}

function objectFields(o: Record<string, unknown>, schema: readonly ValueSchemaItem[] | undefined): LabelledValue[] {
  const items = new Map((schema ?? []).map((it) => [propertyName(it.name), it]));
  const keys = [...items.keys()].filter((k) => k in o);
  for (const k of Object.keys(o)) if (!items.has(k)) keys.push(k);
  const out: LabelledValue[] = [];
  for (const k of keys) {
    const item = items.get(k);
    const value = formatValue(o[k], { schemaType: item?.type, key: k });
    if (value.kind === 'empty') continue;
    out.push({ key: k, label: valueLabel(item?.name ?? k), value });
  }
  return out;
}

/** One value formatted by its type (the hint's, else the value's own). */
export function formatValue(v: unknown, hint: ValueHint = {}): FormattedValue {
  if (isEmptyRaw(v)) return EMPTY;
  if (typeof v === 'boolean') return { kind: 'boolean', text: v ? 'Yes' : 'No', value: v };
  if (typeof v === 'number') return numberValue(v, hint);
  if (typeof v === 'bigint') return { kind: 'number', text: v.toLocaleString(VALUE_LOCALE), value: Number(v) };
  if (typeof v === 'string') return stringValue(v, hint);
  if (Array.isArray(v)) {
    const itemHint: ValueHint = { key: hint.key, dataType: NUMERIC_DATA_TYPES.has(String(hint.dataType)) ? hint.dataType : undefined };
    const items = v.map((x) => formatValue(x, itemHint)).filter((x) => x.kind !== 'empty');
    return items.length ? { kind: 'list', items } : EMPTY;
  }
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    // An address reads as one line: its parts, in order.
    if (hint.dataType === 'address') {
      const parts = Object.values(o)
        .filter((x): x is string | number => (typeof x === 'string' && x.trim() !== '') || typeof x === 'number')
        .map(String);
      if (parts.length) return { kind: 'text', text: parts.join(', ') };
    }
    const fields = objectFields(o, undefined);
    if (fields.length === 0) return EMPTY;
    return { kind: 'fields', fields };
  }
  return { kind: 'text', text: String(v) };
}

/**
 * The answer object of a stored result: `value.result` when the value is a stored result, a JSON
 * string parsed, a plain string as `{ answer }` (spec 002 §4).
 */
export function resultObject(value: unknown): unknown {
  let v = value;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && 'result' in v)
    v = (v as { result: unknown }).result;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(t);
        if (parsed !== null && typeof parsed === 'object') return parsed;
      } catch {
        /* a plain answer */
      }
    }
  }
  return v;
}

/**
 * A result (or any value) formatted from its response schema: one field → that field's value;
 * several → labelled fields in the schema's order (empty ones left out).
 */
export function formatResult(value: unknown, schema?: readonly ValueSchemaItem[] | null, hint: ValueHint = {}): FormattedValue {
  const v = resultObject(value);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    const only = schema && schema.length === 1 ? schema[0] : undefined;
    return formatValue(v, {
      ...hint,
      schemaType: hint.schemaType ?? only?.type,
      key: hint.key ?? (only ? propertyName(only.name) : undefined),
    });
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 0) return EMPTY;
  const items = new Map((schema ?? []).map((it) => [propertyName(it.name), it]));
  if (keys.length === 1) {
    const k = keys[0];
    return formatValue(o[k], { ...hint, schemaType: items.get(k)?.type ?? hint.schemaType, key: k });
  }
  if (hint.dataType === 'address') return formatValue(o, hint);
  const fields = objectFields(o, schema ?? undefined);
  return fields.length === 0 ? EMPTY : { kind: 'fields', fields };
}

export interface ValueTextOptions {
  /**
   * 'display' (default): as on screen. 'export': for a spreadsheet — numbers without grouping or
   * currency sign and dates as ISO, so a spreadsheet reads them as numbers and dates.
   */
  mode?: 'display' | 'export';
}

/** The text of a formatted value (what the copy button copies and a cell's tooltip says); null when empty. */
export function valueText(f: FormattedValue, options: ValueTextOptions = {}): string | null {
  const exporting = options.mode === 'export';
  switch (f.kind) {
    case 'empty':
      return null;
    case 'number':
      return exporting ? String(f.value) : f.text;
    case 'date':
      return exporting ? f.iso : f.text;
    case 'list': {
      const parts = f.items.map((x) => valueText(x, options)).filter((x): x is string => x !== null);
      return parts.length ? parts.join(', ') : null;
    }
    case 'fields': {
      const parts = f.fields
        .map((x) => {
          const t = valueText(x.value, options);
          return t === null ? null : `${x.label}: ${x.value.kind === 'fields' ? `(${t})` : t}`;
        })
        .filter((x): x is string => x !== null);
      return parts.length ? parts.join('; ') : null;
    }
    default:
      return f.text;
  }
}

/** The 'Show raw' text: the stored value as indented JSON (a string as it is). */
export function rawValueText(value: unknown): string {
  const v = resultObject(value);
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** An export cell's text for a field's (or a column's) value (see ValueTextOptions 'export'); '' when empty. */
export function exportValueText(value: unknown, hint: ValueHint = {}): string {
  return valueText(formatValue(value, hint), { mode: 'export' }) ?? '';
}

/** An export cell's text for an enrichment's result, read by its response schema; '' when empty. */
export function exportResultText(value: unknown, schema?: readonly ValueSchemaItem[] | null, hint: ValueHint = {}): string {
  return valueText(formatResult(value, schema, hint), { mode: 'export' }) ?? '';
}
