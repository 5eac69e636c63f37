// @vitest-environment happy-dom
// When a table measures its box: before its first paint (in React's commit, which forces a style
// and layout pass) only when its first view needs the size; a table opening with its rows or while
// they load leaves it to its ResizeObserver, whose first call sizes it.
import '../test-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { RecordTable, type RecordColumn } from './RecordTable';

interface Row {
  id: string;
  name: string;
}
const COLUMNS: RecordColumn<Row>[] = [{ key: 'name', label: 'Name', kind: 'text', text: (r) => r.name }];
const ROWS: Row[] = [{ id: 'r1', name: 'Acme' }];

let observed: ResizeObserverCallback[] = [];
let widthReads = 0;
beforeEach(() => {
  observed = [];
  widthReads = 0;
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe() {
        observed.push(this.callback);
      }
      disconnect() {}
      unobserve() {}
    },
  );
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => {
    widthReads++;
    return 900;
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function table(props: { rows: Row[]; loading?: boolean }) {
  return render(
    <FluentProvider theme={webLightTheme}>
      <RecordTable<Row>
        aria-label="Things"
        columns={COLUMNS}
        rows={props.rows}
        loading={props.loading}
        getRowId={(r) => r.id}
        sort={null}
        onSortChange={() => {}}
        selection={{ kind: 'ids', ids: new Set() }}
        onSelectionChange={() => {}}
        emptyText="Nothing here"
      />
    </FluentProvider>,
  );
}

describe('RecordTable measuring its box', () => {
  it('measures an empty table before its first paint, to centre its message', () => {
    table({ rows: [] });
    expect(widthReads).toBeGreaterThan(0);
  });

  it('leaves a table opening with its rows, or loading them, to the observer', () => {
    table({ rows: ROWS });
    table({ rows: [], loading: true });
    expect(widthReads).toBe(0);
    expect(observed).toHaveLength(2);
    act(() => observed[1]([], {} as ResizeObserver));
    expect(widthReads).toBe(1);
  });
});
