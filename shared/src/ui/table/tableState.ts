// The state of a record table (spec 001 §4, spec 002 §4 'Bulk selection', §9): zero-based page,
// page size (10 by default), sort cycling descending → ascending → none, search text, filters and
// the row selection. Any filter or search change clears the selection and goes back to page 0.
import type { Selection } from '../../contracts';
import { DEFAULT_PAGE_SIZE, type TableFilter } from '../../domain';

export type SortOrder = 'asc' | 'desc';
export interface SortState {
  key: string;
  order: SortOrder;
}

/** Explicit rows, or every row matching the table's search and filters except a few. */
export type RowSelection = { kind: 'ids'; ids: ReadonlySet<string> } | { kind: 'all'; excludeIds: ReadonlySet<string> };

export const NO_SELECTION: RowSelection = { kind: 'ids', ids: new Set() };

export function isRowSelected(sel: RowSelection, id: string): boolean {
  return sel.kind === 'ids' ? sel.ids.has(id) : !sel.excludeIds.has(id);
}

export function toggleRow(sel: RowSelection, id: string): RowSelection {
  if (sel.kind === 'ids') {
    const ids = new Set(sel.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { kind: 'ids', ids };
  }
  const excludeIds = new Set(sel.excludeIds);
  if (excludeIds.has(id)) excludeIds.delete(id);
  else excludeIds.add(id);
  return { kind: 'all', excludeIds };
}

/** Whether the rows of the page are all, some or none selected (the header checkbox). */
export function pageSelectionState(sel: RowSelection, pageIds: readonly string[]): 'all' | 'some' | 'none' {
  if (pageIds.length === 0) return 'none';
  const n = pageIds.filter((id) => isRowSelected(sel, id)).length;
  return n === 0 ? 'none' : n === pageIds.length ? 'all' : 'some';
}

/** Selects (or clears) every row of the page, keeping the rest of the selection. */
export function setPageSelected(sel: RowSelection, pageIds: readonly string[], selected: boolean): RowSelection {
  if (sel.kind === 'ids') {
    const ids = new Set(sel.ids);
    for (const id of pageIds) {
      if (selected) ids.add(id);
      else ids.delete(id);
    }
    return { kind: 'ids', ids };
  }
  const excludeIds = new Set(sel.excludeIds);
  for (const id of pageIds) {
    if (selected) excludeIds.delete(id);
    else excludeIds.add(id);
  }
  return { kind: 'all', excludeIds };
}

export function selectedCount(sel: RowSelection, totalRecords: number): number {
  return sel.kind === 'ids' ? sel.ids.size : Math.max(0, totalRecords - sel.excludeIds.size);
}

export function hasSelection(sel: RowSelection, totalRecords: number): boolean {
  return selectedCount(sel, totalRecords) > 0;
}

/** The selection as a bulk request sends it: ids, or the 'all selected across pages' form. */
export function toSelectionBody(sel: RowSelection, text: string, filters: readonly TableFilter[]): Selection | null {
  if (sel.kind === 'ids') return sel.ids.size ? { ids: [...sel.ids] } : null;
  return {
    allSelected: true,
    text,
    filters: filters.map((f) => ({ ...f, operator: f.operator ?? 'and' })),
    excludeIds: [...sel.excludeIds],
  };
}

/**
 * Sort cycle of a header (spec 001 §4: descending → ascending → none), started from the column's
 * current direction so that every click changes the view. `unsorted` is the order rows come in
 * with no sort (the table's default, e.g. name ascending): a column shown in that order counts as
 * sorted that way, and 'none' is skipped where it would look the same as the current view.
 */
export function nextSort(current: SortState | null, key: string, unsorted: SortState | null = null): SortState | null {
  const shown = current ?? unsorted;
  if (!shown || shown.key !== key) return { key, order: 'desc' };
  if (shown.order === 'desc') return { key, order: 'asc' };
  const noneLooksTheSame = unsorted && unsorted.key === key && unsorted.order === 'asc';
  return noneLooksTheSame ? { key, order: 'desc' } : null;
}

export interface TableState {
  pageIndex: number;
  pageSize: number;
  sort: SortState | null;
  text: string;
  filters: TableFilter[];
  selection: RowSelection;
}

export type TableAction =
  | { type: 'page'; pageIndex: number }
  | { type: 'pageSize'; pageSize: number }
  | { type: 'sort'; sort: SortState | null }
  | { type: 'text'; text: string }
  | { type: 'filters'; filters: TableFilter[] }
  | { type: 'select'; selection: RowSelection }
  | { type: 'clearSelection' };

export function initialTableState(defaultSort: SortState | null, pageSize = DEFAULT_PAGE_SIZE): TableState {
  return { pageIndex: 0, pageSize, sort: defaultSort, text: '', filters: [], selection: NO_SELECTION };
}

export function tableReducer(state: TableState, action: TableAction): TableState {
  switch (action.type) {
    case 'page':
      return action.pageIndex === state.pageIndex ? state : { ...state, pageIndex: Math.max(0, action.pageIndex) };
    case 'pageSize':
      return { ...state, pageSize: action.pageSize, pageIndex: 0 };
    case 'sort':
      return { ...state, sort: action.sort, pageIndex: 0 };
    case 'text':
      return action.text === state.text ? state : { ...state, text: action.text, pageIndex: 0, selection: NO_SELECTION };
    case 'filters':
      return { ...state, filters: action.filters, pageIndex: 0, selection: NO_SELECTION };
    case 'select':
      return { ...state, selection: action.selection };
    case 'clearSelection':
      return { ...state, selection: NO_SELECTION };
  }
}
