// Table filters (spec 001 §2 'Table filters', §3 'Filter', §5 'Filters'; spec 002 §3 'Filter
// conditions'). The same rules run in the filter editor and on the server, and `matchesFilters`
// is the reference evaluation the SQL translation is tested against.
import { NUMERIC_TYPES, TEMPORAL_TYPES, type FieldDataType } from './fields';

export const FILTER_CONDITIONS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'not_starts_with',
  'ends_with',
  'not_ends_with',
  'in',
  'greater_than',
  'less_than',
  'greater_than_or_equal',
  'less_than_or_equal',
  'between',
  'not_between',
] as const;
export type FilterCondition = (typeof FILTER_CONDITIONS)[number];

export const CONDITION_LABELS: Record<FilterCondition, string> = {
  equals: 'equals',
  not_equals: 'not equals',
  contains: 'contains',
  not_contains: 'not contains',
  starts_with: 'starts with',
  not_starts_with: 'not starts with',
  ends_with: 'ends with',
  not_ends_with: 'not ends with',
  in: 'in',
  greater_than: 'greater than',
  less_than: 'less than',
  greater_than_or_equal: 'greater or equal',
  less_than_or_equal: 'less or equal',
  between: 'between',
  not_between: 'not between',
};

export const MAX_FILTER_CONDITIONS = 5;
export const FILTER_MESSAGES = {
  fillAll: 'Please fill in all condition values before saving.',
  tooMany: 'A filter can have at most 5 conditions.',
  negative: 'Negative numbers are not allowed.',
  unsupported: 'This condition is not supported for this field type.',
  unknownField: 'Unknown filter field',
  lastCondition: 'The last condition cannot be removed.',
} as const;

const NUMBER_SET: FilterCondition[] = [
  'equals',
  'not_equals',
  'less_than',
  'greater_than',
  'less_than_or_equal',
  'greater_than_or_equal',
  'between',
];
const STRING_SET: FilterCondition[] = ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with'];

/**
 * Condition sets by type (spec 001 §5): strings, email, reference, id, url → string set; uuid → in;
 * number → between; numbers and everything else → number set. Booleans take equals / not equals
 * (spec 002 §5 'Operators by field type'); text-like types (phone, address, object) the string set.
 */
export function conditionsFor(dataType: FieldDataType): FilterCondition[] {
  switch (dataType) {
    case 'uuid':
      return ['in'];
    case 'number':
      return ['between'];
    case 'boolean':
      return ['equals', 'not_equals'];
    case 'string':
    case 'email':
    case 'reference':
    case 'id':
    case 'url':
    case 'phone':
    case 'address':
    case 'object':
    case 'array':
      return STRING_SET;
    default:
      return NUMBER_SET;
  }
}

/** uuid and number filters hold one condition: adding is blocked. */
export function canAddCondition(dataType: FieldDataType, count: number): boolean {
  if (dataType === 'uuid' || dataType === 'number') return false;
  return count < MAX_FILTER_CONDITIONS;
}

export function isNumericType(dataType: FieldDataType): boolean {
  return NUMERIC_TYPES.includes(dataType);
}

/** Characters refused in numeric inputs (spec 001 §5). */
export const BLOCKED_NUMERIC_KEYS = ['e', 'E', '+', '-'] as const;
export function isBlockedNumericKey(key: string): boolean {
  return (BLOCKED_NUMERIC_KEYS as readonly string[]).includes(key);
}

export interface FilterItem {
  id: string;
  condition: FilterCondition;
  /** One value, two for between / not_between, a list for in. */
  data: unknown;
}

export interface TableFilter {
  key: string;
  details?: { label?: string; dataType?: FieldDataType; key?: string };
  operator?: 'and' | 'or';
  items: FilterItem[];
}

function filled(v: unknown): boolean {
  return v !== null && v !== undefined && !(typeof v === 'string' && v.trim() === '');
}

/** The values of an item as a list (two for between). */
export function itemValues(item: FilterItem): unknown[] {
  return Array.isArray(item.data) ? item.data : [item.data];
}

/** Returns the first problem of a filter for a field of `dataType`, or null. */
export function filterProblem(filter: TableFilter, dataType: FieldDataType): string | null {
  if (filter.items.length > MAX_FILTER_CONDITIONS) return FILTER_MESSAGES.tooMany;
  if ((dataType === 'uuid' || dataType === 'number') && filter.items.length > 1) return FILTER_MESSAGES.tooMany;
  const allowed = conditionsFor(dataType);
  for (const item of filter.items) {
    if (!allowed.includes(item.condition)) return FILTER_MESSAGES.unsupported;
    const values = itemValues(item);
    const needs = item.condition === 'between' || item.condition === 'not_between' ? 2 : 1;
    if (item.condition === 'in') {
      if (values.length === 0 || !values.every(filled)) return FILTER_MESSAGES.fillAll;
    } else if (values.length < needs || !values.slice(0, needs).every(filled)) {
      return FILTER_MESSAGES.fillAll;
    }
    if (isNumericType(dataType)) {
      for (const v of values.slice(0, needs)) {
        const n = Number(v);
        if (!Number.isFinite(n)) return FILTER_MESSAGES.fillAll;
        if (n < 0) return FILTER_MESSAGES.negative;
      }
    }
  }
  return null;
}

// ---- reference evaluation (what a row must satisfy) ----

function cmp(a: unknown, b: unknown, dataType: FieldDataType): number {
  if (isNumericType(dataType)) return Number(a) - Number(b);
  const sa = String(a);
  const sb = String(b);
  if (TEMPORAL_TYPES.includes(dataType)) return sa < sb ? -1 : sa > sb ? 1 : 0;
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The text a text condition compares: objects (the 'object' type) as their JSON, as the server stores them. */
const lower = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)).toLowerCase();

/**
 * Whether one value satisfies one condition. Missing values (null) satisfy only the negative
 * conditions (not_equals, not_contains, not_starts_with, not_ends_with, not_between): "is not X"
 * includes rows that have nothing. Text comparisons ignore case.
 */
export function matchesItem(value: unknown, item: FilterItem, dataType: FieldDataType): boolean {
  const [a, b] = itemValues(item);
  const missing = value === null || value === undefined || value === '';
  const text = !isNumericType(dataType) && !TEMPORAL_TYPES.includes(dataType) && dataType !== 'boolean';
  switch (item.condition) {
    case 'equals':
      if (missing) return false;
      if (dataType === 'boolean') return String(value) === String(a);
      return text ? lower(value) === lower(a) : cmp(value, a, dataType) === 0;
    case 'not_equals':
      if (missing) return true;
      if (dataType === 'boolean') return String(value) !== String(a);
      return text ? lower(value) !== lower(a) : cmp(value, a, dataType) !== 0;
    case 'contains':
      return !missing && lower(value).includes(lower(a));
    case 'not_contains':
      return missing || !lower(value).includes(lower(a));
    case 'starts_with':
      return !missing && lower(value).startsWith(lower(a));
    case 'not_starts_with':
      return missing || !lower(value).startsWith(lower(a));
    case 'ends_with':
      return !missing && lower(value).endsWith(lower(a));
    case 'not_ends_with':
      return missing || !lower(value).endsWith(lower(a));
    case 'in':
      return !missing && itemValues(item).map(lower).includes(lower(value));
    case 'greater_than':
      return !missing && cmp(value, a, dataType) > 0;
    case 'less_than':
      return !missing && cmp(value, a, dataType) < 0;
    case 'greater_than_or_equal':
      return !missing && cmp(value, a, dataType) >= 0;
    case 'less_than_or_equal':
      return !missing && cmp(value, a, dataType) <= 0;
    case 'between': {
      if (missing) return false;
      const [lo, hi] = cmp(a, b, dataType) <= 0 ? [a, b] : [b, a];
      return cmp(value, lo, dataType) >= 0 && cmp(value, hi, dataType) <= 0;
    }
    case 'not_between': {
      if (missing) return true;
      const [lo, hi] = cmp(a, b, dataType) <= 0 ? [a, b] : [b, a];
      return cmp(value, lo, dataType) < 0 || cmp(value, hi, dataType) > 0;
    }
  }
}

/** A row matches when every filter matches; a filter's items combine with its operator (default and). */
export function matchesFilters(
  get: (key: string) => unknown,
  filters: readonly TableFilter[],
  typeOf: (key: string) => FieldDataType,
): boolean {
  return filters.every((f) => {
    const dataType = typeOf(f.key);
    const results = f.items.map((item) => matchesItem(get(f.key), item, dataType));
    return f.operator === 'or' ? results.some(Boolean) : results.every(Boolean);
  });
}
