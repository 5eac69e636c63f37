import { describe, expect, it } from 'vitest';
import {
  NO_SELECTION,
  initialTableState,
  nextSort,
  pageSelectionState,
  selectedCount,
  setPageSelected,
  tableReducer,
  toSelectionBody,
  toggleRow,
} from './tableState';
import { mergeLayout, moveColumn, setColumnVisible, setColumnWidth } from './layout';

describe('nextSort', () => {
  it('cycles descending → ascending → none, and starts over on another column', () => {
    expect(nextSort(null, 'name')).toEqual({ key: 'name', order: 'desc' });
    expect(nextSort({ key: 'name', order: 'desc' }, 'name')).toEqual({ key: 'name', order: 'asc' });
    expect(nextSort({ key: 'name', order: 'asc' }, 'name')).toBeNull();
    expect(nextSort({ key: 'name', order: 'asc' }, 'website')).toEqual({ key: 'website', order: 'desc' });
  });

  it('starts from the current direction: every click on a table sorted by name ascending by default changes the view', () => {
    const byName = { key: 'name', order: 'asc' } as const;
    // The first click on the already-sorted Name header goes to descending, not to 'none' (which looks the same).
    expect(nextSort(byName, 'name', byName)).toEqual({ key: 'name', order: 'desc' });
    expect(nextSort({ key: 'name', order: 'desc' }, 'name', byName)).toEqual(byName);
    // Unsorted shows name ascending: a click on Name goes descending.
    expect(nextSort(null, 'name', byName)).toEqual({ key: 'name', order: 'desc' });
    // Other columns keep descending → ascending → none (none = back to name ascending, a change).
    expect(nextSort(byName, 'website', byName)).toEqual({ key: 'website', order: 'desc' });
    expect(nextSort({ key: 'website', order: 'desc' }, 'website', byName)).toEqual({ key: 'website', order: 'asc' });
    expect(nextSort({ key: 'website', order: 'asc' }, 'website', byName)).toBeNull();
  });
});

describe('selection', () => {
  const page = ['a', 'b', 'c'];
  it('selects a page, tracks partial pages, and counts', () => {
    let sel = setPageSelected(NO_SELECTION, page, true);
    expect(pageSelectionState(sel, page)).toBe('all');
    sel = toggleRow(sel, 'b');
    expect(pageSelectionState(sel, page)).toBe('some');
    expect(selectedCount(sel, 100)).toBe(2);
    expect(toSelectionBody(sel, 'x', [])).toEqual({ ids: ['a', 'c'] });
    expect(toSelectionBody(NO_SELECTION, '', [])).toBeNull();
  });
  it("'all across pages' excludes unticked rows and sends the search and filters", () => {
    let sel = toggleRow({ kind: 'all', excludeIds: new Set() }, 'b');
    expect(selectedCount(sel, 100)).toBe(99);
    expect(pageSelectionState(sel, page)).toBe('some');
    const filters = [{ key: 'employees', items: [{ id: '1', condition: 'greater_than' as const, data: 5 }] }];
    expect(toSelectionBody(sel, 'acme', filters)).toEqual({
      allSelected: true,
      text: 'acme',
      filters: [{ ...filters[0], operator: 'and' }],
      excludeIds: ['b'],
    });
    sel = setPageSelected(sel, page, true);
    expect(selectedCount(sel, 100)).toBe(100);
  });
});

describe('tableReducer', () => {
  const selected = {
    ...initialTableState({ key: 'name', order: 'asc' }),
    pageIndex: 3,
    selection: setPageSelected(NO_SELECTION, ['a'], true),
  };
  it('starts on page 0 with 10 rows and the default sort', () => {
    expect(initialTableState({ key: 'name', order: 'asc' })).toMatchObject({
      pageIndex: 0,
      pageSize: 10,
      sort: { key: 'name', order: 'asc' },
      text: '',
      filters: [],
    });
  });
  it('clears the selection and returns to page 0 on any filter or search change', () => {
    for (const action of [
      { type: 'filters' as const, filters: [] },
      { type: 'text' as const, text: 'acme' },
    ]) {
      const next = tableReducer(selected, action);
      expect(next.pageIndex).toBe(0);
      expect(next.selection).toBe(NO_SELECTION);
    }
  });
  it('keeps the selection when paging, sorting or resizing the page', () => {
    expect(tableReducer(selected, { type: 'page', pageIndex: 4 }).selection).toBe(selected.selection);
    const sorted = tableReducer(selected, { type: 'sort', sort: null });
    expect(sorted).toMatchObject({ pageIndex: 0, sort: null });
    expect(sorted.selection).toBe(selected.selection);
    expect(tableReducer(selected, { type: 'pageSize', pageSize: 250 })).toMatchObject({ pageIndex: 0, pageSize: 250 });
  });
  it('ignores a search that did not change', () => {
    expect(tableReducer(selected, { type: 'text', text: '' })).toBe(selected);
  });
});

describe('column layout', () => {
  const defaults = [
    { key: 'name', width: 200 },
    { key: 'website', width: 180 },
    { key: 'employees', width: 160 },
  ];
  it('applies the saved order, widths and visibility, appends new columns and drops gone ones', () => {
    const merged = mergeLayout(
      [
        { key: 'website', order: 0, width: 90, visible: false },
        { key: 'gone', order: 1, width: 50, visible: true },
        { key: 'name', order: 2, width: 5000, visible: true },
      ],
      defaults,
    );
    expect(merged).toEqual([
      { key: 'website', order: 0, width: 90, visible: false },
      { key: 'name', order: 1, width: 2000, visible: true },
      { key: 'employees', order: 2, width: 160, visible: true },
    ]);
  });
  it('keeps one column visible, moves and sizes columns', () => {
    let l = mergeLayout(null, defaults);
    l = setColumnVisible(l, 'name', false);
    l = setColumnVisible(l, 'website', false);
    expect(setColumnVisible(l, 'employees', false).find((c) => c.key === 'employees')!.visible).toBe(true);
    expect(moveColumn(l, 'employees', -1).map((c) => [c.key, c.order])).toEqual([
      ['name', 0],
      ['employees', 1],
      ['website', 2],
    ]);
    expect(moveColumn(l, 'name', -1).map((c) => c.key)).toEqual(['name', 'website', 'employees']);
    expect(setColumnWidth(l, 'name', 12).find((c) => c.key === 'name')!.width).toBe(40);
  });
});
