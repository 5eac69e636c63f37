// The text of a filter chip: the field, then each condition with its values; a list shows at most
// 2 names then '+N more' (spec 000 §9 'Filter label').
import { CONDITION_LABELS, itemValues, type FilterItem, type TableFilter } from '../../domain';

export const FILTER_LABEL_NAMES = 2;

function show(v: unknown): string {
  if (v === true) return 'Yes';
  if (v === false) return 'No';
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** 'a, b' or 'a, b +3 more'. */
export function namesLabel(names: readonly string[], max = FILTER_LABEL_NAMES): string {
  const head = names.slice(0, max).join(', ');
  return names.length > max ? `${head} +${names.length - max} more` : head;
}

export function itemLabel(item: FilterItem, valueLabel: (v: unknown) => string = show): string {
  const values = itemValues(item);
  const cond = CONDITION_LABELS[item.condition];
  if (item.condition === 'between' || item.condition === 'not_between')
    return `${cond} ${valueLabel(values[0])} and ${valueLabel(values[1])}`;
  if (item.condition === 'in') return `${cond} ${namesLabel(values.map(valueLabel))}`;
  return `${cond} ${valueLabel(values[0])}`;
}

/** `valueLabel` names a value (an owner's name for their id). */
export function filterLabel(filter: TableFilter, fieldLabel?: string, valueLabel?: (v: unknown) => string): string {
  const label = fieldLabel ?? filter.details?.label ?? filter.key;
  const joiner = filter.operator === 'or' ? ' or ' : ', ';
  const named = valueLabel ? (v: unknown) => valueLabel(v) || show(v) : show;
  const parts = filter.items.map((item) => itemLabel(item, named));
  const shown = parts.slice(0, FILTER_LABEL_NAMES).join(joiner);
  const more = parts.length > FILTER_LABEL_NAMES ? ` +${parts.length - FILTER_LABEL_NAMES} more` : '';
  return `${label}: ${shown}${more}`;
}
