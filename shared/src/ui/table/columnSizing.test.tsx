// @vitest-environment happy-dom
// Column widths of the record tables: automatic from kind and content, sticky selection and pinned
// columns, keyboard resizing, the full header label on hover.
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { KIND_BOUNDS, RESIZE_STEP, RESIZE_STEP_LARGE, autoColumnWidth } from './columnSizing';
import { RecordTable, type RecordColumn } from './RecordTable';
import { NO_SELECTION } from './tableState';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** 7 px a character, 8 bold: a fixed measure so the numbers are exact. */
const measure = (t: string, bold?: boolean) => t.length * (bold ? 8 : 7);

describe('autoColumnWidth', () => {
  it('fits the full header label: an enrichment or score column named by the user is readable without a drag', () => {
    // 'What industry are they in' = 25 characters bold = 200 px + 28 padding.
    expect(
      autoColumnWidth({ label: 'What industry are they in', kind: 'enrichment', sortable: false, texts: ['B2B payments'] }, measure),
    ).toBe(228);
    // 'Q3 Industry fit' sortable: 15 × 8 + 28 + 20 = 168.
    expect(autoColumnWidth({ label: 'Q3 Industry fit', kind: 'score', sortable: true, texts: ['2.50'] }, measure)).toBe(168);
    // The spec's 70 px never: an enrichment column is at least wide enough for 'Processing...'.
    expect(autoColumnWidth({ label: 'Rev', kind: 'enrichment', sortable: false, texts: [] }, measure)).toBe(KIND_BOUNDS.enrichment[0]);
  });

  it("fits nine in ten cells of the page, within the kind's bounds", () => {
    const texts = [...Array.from({ length: 9 }, () => 'x'.repeat(20)), 'y'.repeat(200)];
    // One long outlier does not widen the column: 20 × 7 + 28 = 168.
    expect(autoColumnWidth({ label: 'Sector', kind: 'text', sortable: false, texts }, measure)).toBe(168);
    expect(autoColumnWidth({ label: 'Notes', kind: 'text', sortable: false, texts: ['z'.repeat(100)] }, measure)).toBe(KIND_BOUNDS.text[1]);
    expect(autoColumnWidth({ label: 'N', kind: 'number', sortable: false, texts: ['1', '', '  '] }, measure)).toBe(KIND_BOUNDS.number[0]);
  });
});

type Row = { id: string; name: string; website: string; answer: string };
const rows: Row[] = [
  { id: 'r1', name: 'Aurora Robotics', website: 'aurora.example', answer: 'Industrial automation software' },
  { id: 'r2', name: 'Borealis Labs', website: 'borealis.example', answer: 'Healthcare IT' },
];
const columns: RecordColumn<Row>[] = [
  { key: 'website', label: 'Website', kind: 'url', text: (r) => r.website },
  { key: 'name', label: 'Name', sortKey: 'name', width: 200, pinned: true, text: (r) => r.name },
  { key: 'answer', label: 'What industry are they in', kind: 'enrichment', text: (r) => r.answer },
];

function table(onColumnResize = vi.fn()) {
  render(
    <FluentProvider theme={webLightTheme}>
      <RecordTable<Row>
        aria-label="Ideas"
        columns={columns}
        rows={rows}
        getRowId={(r) => r.id}
        sort={null}
        onSortChange={() => {}}
        selection={NO_SELECTION}
        onSelectionChange={() => {}}
        onColumnResize={onColumnResize}
        emptyText="None"
      />
    </FluentProvider>,
  );
  return onColumnResize;
}

describe('RecordTable columns', () => {
  it('keeps the selection column and the pinned name in place: pinned columns first, each at its sticky offset, in header and rows alike', () => {
    table();
    const headers = screen.getAllByTestId('record-table-header');
    expect(headers.map((h) => h.getAttribute('data-key'))).toEqual(['name', 'website', 'answer']);
    // The name sticks right after the 44 px selection column, in the header and in every row.
    expect(headers[0]!.style.left).toBe('44px');
    const nameCells = screen.getAllByTestId('record-table-cell').filter((c) => c.getAttribute('data-key') === 'name');
    expect(nameCells.map((c) => c.style.left)).toEqual(['44px', '44px']);
    const selectCells = screen.getAllByTestId('record-table-select-row').map((c) => c.closest('td')!);
    expect(selectCells.map((c) => c.style.left)).toEqual(['0px', '0px']);
    // The other columns scroll: no sticky offset.
    expect(headers[1]!.style.left).toBe('');
    // Widths: the set one, and the automatic ones from kind and content, in one colgroup for header and rows.
    const cols = [...document.querySelectorAll('colgroup col')].map((c) => (c as HTMLElement).style.width);
    expect(cols[0]).toBe('44px');
    expect(cols[1]).toBe('200px');
    expect(parseInt(cols[3]!, 10)).toBeGreaterThanOrEqual(KIND_BOUNDS.enrichment[0]);
  });

  it('resizes by keyboard: arrows move the edge (Shift: larger steps), saved when the keys rest; a double click fits the content', () => {
    vi.useFakeTimers();
    const onColumnResize = table();
    const handle = screen.getAllByTestId('column-resize-handle').find((h) => h.getAttribute('data-key') === 'name')!;
    expect(handle.getAttribute('tabindex')).toBe('0');
    expect(handle.getAttribute('aria-valuenow')).toBe('200');
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
    expect(handle.getAttribute('aria-valuenow')).toBe(String(200 + RESIZE_STEP + RESIZE_STEP_LARGE));
    expect(onColumnResize).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(700);
    });
    expect(onColumnResize).toHaveBeenCalledWith('name', 260);
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    act(() => {
      vi.advanceTimersByTime(700);
    });
    expect(onColumnResize).toHaveBeenLastCalledWith('name', 190);
    fireEvent.doubleClick(handle);
    const [key, width] = onColumnResize.mock.calls.at(-1)!;
    expect(key).toBe('name');
    expect(width).toBeLessThan(200);
  });

  it("shows a header's full label on hover", async () => {
    vi.useFakeTimers();
    table();
    const label = screen.getByText('What industry are they in', { selector: '[data-testid="record-table-header-label"]' });
    fireEvent.pointerEnter(label);
    fireEvent.mouseEnter(label);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getAllByText('What industry are they in').length).toBeGreaterThan(1);
  });
});

describe('RecordTable scrolling', () => {
  it('starts a new page at the top once the box has scrolled, and leaves an unscrolled box alone', () => {
    const props = {
      'aria-label': 'Ideas',
      columns,
      getRowId: (r: Row) => r.id,
      sort: null,
      onSortChange: () => {},
      selection: NO_SELECTION,
      onSelectionChange: () => {},
      emptyText: 'None',
    };
    const page2: Row[] = [{ id: 'r3', name: 'Cirrus Data', website: 'cirrus.example', answer: 'Analytics' }];
    const { rerender } = render(
      <FluentProvider theme={webLightTheme}>
        <RecordTable<Row> {...props} rows={rows} />
      </FluentProvider>,
    );
    const box = screen.getByTestId('record-table-scroll');
    box.scrollTop = 120;
    fireEvent.scroll(box);
    rerender(
      <FluentProvider theme={webLightTheme}>
        <RecordTable<Row> {...props} rows={page2} />
      </FluentProvider>,
    );
    expect(box.scrollTop).toBe(0);
    // Not scrolled since (no scroll event): a position set from outside stays, no read of it needed.
    box.scrollTop = 40;
    rerender(
      <FluentProvider theme={webLightTheme}>
        <RecordTable<Row> {...props} rows={rows} />
      </FluentProvider>,
    );
    expect(box.scrollTop).toBe(40);
  });
});
