// The record table: sortable headers (descending → ascending → none, spec 001 §4), a checkbox per
// row and one for the page, a sticky header, and row windowing for the large page sizes (up to 1000
// rows) so paging stays quick. Columns: a width the user set, else one chosen from the column's kind
// and content (columnSizing.ts); resizable by drag and by keyboard (the header's separator: arrows,
// Shift for larger steps; a double click fits the content); the full header label on hover. The
// selection column and the pinned columns (the name) stay in place when the table scrolls
// sideways; header and rows share one column grid (a fixed layout with one <colgroup>), so they
// stay aligned, windowed rows included. Presentational: state lives in the caller.
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type Dispatch,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
  type SetStateAction,
} from 'react';
import { Checkbox, ProgressBar, Spinner, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ArrowSortDownRegular, ArrowSortUpRegular } from '@fluentui/react-icons';
import { isRowSelected, pageSelectionState, setPageSelected, toggleRow, nextSort, type RowSelection, type SortState } from './tableState';
import { RESIZE_STEP, RESIZE_STEP_LARGE, autoColumnWidth, type ColumnKind } from './columnSizing';

export interface RecordColumn<Row> {
  key: string;
  label: string;
  /** The server's sort key; absent or null: not sortable. */
  sortKey?: string | null;
  /** The width the user set (or the host fixes); absent: chosen from `kind` and the content. */
  width?: number;
  /** What the column holds, for its automatic width (default text). */
  kind?: ColumnKind;
  /** Stays in place, after the selection column, when the table scrolls sideways (the name). */
  pinned?: boolean;
  /** Plain text of the cell (also its tooltip and the default rendering). */
  text: (row: Row) => string;
  render?: (row: Row) => ReactNode;
}

export interface RecordTableProps<Row> {
  columns: readonly RecordColumn<Row>[];
  rows: readonly Row[];
  getRowId: (row: Row) => string;
  sort: SortState | null;
  /** The order of the rows when nothing is sorted (shown on its header; see nextSort). */
  defaultSort?: SortState | null;
  onSortChange: (sort: SortState | null) => void;
  selection: RowSelection;
  onSelectionChange: (selection: RowSelection) => void;
  onRowClick?: (row: Row) => void;
  onColumnResize?: (key: string, width: number) => void;
  /** The row shown in the drawer. */
  activeRowId?: string | null;
  /** First load (nothing to show yet). */
  loading?: boolean;
  /** A newer page is on its way (the previous one stays on screen). */
  fetching?: boolean;
  error?: string | null;
  emptyText: string;
  'aria-label': string;
  entityType?: string;
}

export const ROW_HEIGHT = 40;
/** Pages longer than this render only the rows in view (plus an overscan). */
export const WINDOW_AFTER = 120;
const OVERSCAN = 12;
const SELECT_WIDTH = 44;
export const MIN_COLUMN_WIDTH = 40;
export const MAX_COLUMN_WIDTH = 2000;

const useStyles = makeStyles({
  wrap: {
    position: 'relative',
    flexGrow: 1,
    minHeight: 0,
    overflow: 'auto',
    backgroundColor: tokens.colorNeutralBackground1,
  },
  progress: { position: 'sticky', top: 0, left: 0, zIndex: 3, height: 0 },
  table: {
    tableLayout: 'fixed',
    borderCollapse: 'separate',
    borderSpacing: 0,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    color: tokens.colorNeutralForeground1,
  },
  th: {
    position: 'sticky',
    top: 0,
    zIndex: 2,
    height: `${ROW_HEIGHT}px`,
    padding: `0 ${tokens.spacingHorizontalM}`,
    textAlign: 'left',
    fontWeight: tokens.fontWeightSemibold,
    backgroundColor: tokens.colorNeutralBackground2,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    boxSizing: 'border-box',
  },
  selectTh: { padding: 0, textAlign: 'center', left: 0, zIndex: 3 },
  sortButton: {
    border: 'none',
    background: 'none',
    padding: 0,
    margin: 0,
    font: 'inherit',
    color: 'inherit',
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    maxWidth: '100%',
    cursor: 'pointer',
    fontWeight: tokens.fontWeightSemibold,
    borderRadius: tokens.borderRadiusSmall,
    ':hover': { color: tokens.colorBrandForeground1 },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  headLabel: { overflow: 'hidden', textOverflow: 'ellipsis' },
  sortIcon: { flexShrink: 0, fontSize: '14px' },
  resize: {
    position: 'absolute',
    top: 0,
    right: 0,
    width: '6px',
    height: '100%',
    cursor: 'col-resize',
    touchAction: 'none',
    ':hover': { backgroundColor: tokens.colorBrandStroke2 },
    // A keyboard user sees which edge moves: a focus ring around the handle, filled with the brand colour.
    ':focus-visible': {
      outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`,
      outlineOffset: '-1px',
      backgroundColor: tokens.colorBrandStroke1,
    },
  },
  tr: {
    height: `${ROW_HEIGHT}px`,
    cursor: 'pointer',
    // An explicit background: the sticky cells take it (inherit) and hide what scrolls beneath them.
    backgroundColor: tokens.colorNeutralBackground1,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  selected: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Selected },
  },
  active: { boxShadow: `inset 3px 0 0 ${tokens.colorBrandStroke1}` },
  td: {
    height: `${ROW_HEIGHT}px`,
    padding: `0 ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    boxSizing: 'border-box',
  },
  selectTd: { padding: 0, textAlign: 'center', cursor: 'default' },
  /** A cell that stays in place when the table scrolls sideways (its `left` is set per column). */
  stickyTd: { position: 'sticky', zIndex: 1, backgroundColor: 'inherit' },
  stickyTh: { zIndex: 3 },
  /** The last pinned column: a line marks where the scrolling part starts. */
  pinnedEdge: { boxShadow: `inset -1px 0 0 ${tokens.colorNeutralStroke2}` },
  messageCell: { padding: 0, cursor: 'default' },
  message: {
    position: 'sticky',
    left: 0,
    boxSizing: 'border-box',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
  },
  error: { color: tokens.colorPaletteRedForeground1 },
  spacer: { padding: 0, border: 'none' },
  // The rest of the width when the columns are narrower than the table's box: the header band and
  // the rows' lines reach the right edge (an empty table's header stopped short of it).
  filler: { padding: 0, width: 'auto' },
});

/** The scroll box and the rows to render: all of them, or on a long page those in view plus an overscan. */
function useRowWindow(rowCount: number, firstId: string | undefined, loading: boolean) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 0, width: 0 });
  const windowed = rowCount > WINDOW_AFTER;

  // Measured before the first paint only when the first view uses it (a windowed page, or the message of an
  // empty table centred in the box): a table opening with its rows, or loading them, leaves it to the
  // observer's first call, so its first paint does not wait on a style and layout pass forced in the middle
  // of React's commit (a page's first view whose rows arrive after its frame: 60-70 ms of style over the
  // whole document). The loading spinner is centred once the observer has measured the box.
  const [measureFirst] = useState(windowed || (rowCount === 0 && !loading));
  useLayoutEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const measure = () => setView({ top: el.scrollTop, height: el.clientHeight, width: el.clientWidth });
    if (measureFirst || typeof ResizeObserver === 'undefined') measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [measureFirst]);

  const frame = useRef<number | null>(null);
  // Whether the box has scrolled since its last return to the top: until it has, a new page has nothing to undo (and
  // reading scrollTop in the effect below would force a style and layout pass while the page's first rows render).
  const scrolled = useRef(false);
  const onScroll = useCallback(() => {
    scrolled.current = true;
    if (!windowed || frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const el = wrapRef.current;
      if (el) setView({ top: el.scrollTop, height: el.clientHeight, width: el.clientWidth });
    });
  }, [windowed]);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  // A new page starts at the top.
  useEffect(() => {
    const el = wrapRef.current;
    if (!scrolled.current) return;
    scrolled.current = false;
    if (el && el.scrollTop > 0) {
      el.scrollTop = 0;
      setView((v) => ({ ...v, top: 0 }));
    }
  }, [firstId, rowCount]);

  let start = 0;
  let end = rowCount;
  if (windowed) {
    const visible = Math.ceil((view.height || 800) / ROW_HEIGHT);
    start = Math.max(0, Math.floor(view.top / ROW_HEIGHT) - OVERSCAN);
    end = Math.min(rowCount, start + visible + OVERSCAN * 2);
  }
  return { wrapRef, view, onScroll, start, end };
}

/** Each column's width (a resize under way, else the one set, else the automatic one) and where the pinned ones stick. */
function useColumnLayout<Row>(columns: readonly RecordColumn<Row>[], rows: readonly Row[], drafts: Readonly<Record<string, number>>) {
  // Automatic widths (columns without one): from the header and the page's cells; within one
  // table they only grow, so paging never makes columns jump narrower.
  const autoWidths = useRef(new Map<string, number>());
  const auto = useMemo(() => {
    const out = new Map<string, number>();
    for (const c of columns) {
      if (c.width !== undefined) continue;
      const w = autoColumnWidth({ label: c.label, kind: c.kind ?? 'text', sortable: !!c.sortKey, texts: rows.map((r) => c.text(r)) });
      const kept = Math.max(w, autoWidths.current.get(c.key) ?? 0);
      autoWidths.current.set(c.key, kept);
      out.set(c.key, kept);
    }
    return out;
  }, [columns, rows]);
  const widthOf = (c: RecordColumn<Row>) => drafts[c.key] ?? c.width ?? auto.get(c.key) ?? MIN_COLUMN_WIDTH;
  const tableWidth = SELECT_WIDTH + columns.reduce((s, c) => s + widthOf(c), 0);
  // Where each pinned column sticks (after the selection column and the pinned ones before it).
  const pinnedLeft = new Map<string, number>();
  let lastPinned: string | null = null;
  {
    let left = SELECT_WIDTH;
    for (const c of columns) {
      if (!c.pinned) break;
      pinnedLeft.set(c.key, left);
      left += widthOf(c);
      lastPinned = c.key;
    }
  }
  const stickyStyle = (key: string): CSSProperties | undefined => (pinnedLeft.has(key) ? { left: `${pinnedLeft.get(key)}px` } : undefined);
  return { widthOf, tableWidth, lastPinned, stickyStyle };
}

/** Resizing by drag, by keyboard (the width moves at once and is saved when the keys rest) and by double click (fit). */
function useColumnResize<Row>(o: {
  rows: readonly Row[];
  widthOf: (c: RecordColumn<Row>) => number;
  setDrafts: Dispatch<SetStateAction<Record<string, number>>>;
  onColumnResize: ((key: string, width: number) => void) | undefined;
}) {
  const { rows, widthOf, setDrafts, onColumnResize } = o;
  const keyCommit = useRef<{ key: string; timer: ReturnType<typeof setTimeout> } | null>(null);
  useEffect(
    () => () => {
      if (keyCommit.current) clearTimeout(keyCommit.current.timer);
    },
    [],
  );
  const clampWidth = (w: number) => Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, w)));
  const commitDraft = (key: string, w: number) => {
    setDrafts((d) => {
      const { [key]: _, ...rest } = d;
      return rest;
    });
    onColumnResize?.(key, w);
  };
  const onResizeKey = (e: KeyboardEvent<HTMLSpanElement>, col: RecordColumn<Row>) => {
    const step = e.shiftKey ? RESIZE_STEP_LARGE : RESIZE_STEP;
    const delta = e.key === 'ArrowRight' ? step : e.key === 'ArrowLeft' ? -step : 0;
    if (!delta) return;
    e.preventDefault();
    e.stopPropagation();
    const w = clampWidth(widthOf(col) + delta);
    setDrafts((d) => ({ ...d, [col.key]: w }));
    if (keyCommit.current) clearTimeout(keyCommit.current.timer);
    keyCommit.current = {
      key: col.key,
      timer: setTimeout(() => {
        keyCommit.current = null;
        commitDraft(col.key, w);
      }, 600),
    };
  };
  /** Double click on the edge: the width that fits the header and the page's cells. */
  const fitColumn = (col: RecordColumn<Row>) => {
    const w = autoColumnWidth({ label: col.label, kind: col.kind ?? 'text', sortable: !!col.sortKey, texts: rows.map((r) => col.text(r)) });
    if (w !== widthOf(col)) onColumnResize?.(col.key, w);
  };
  const startResize = (e: ReactPointerEvent<HTMLSpanElement>, col: RecordColumn<Row>) => {
    e.preventDefault();
    e.stopPropagation();
    const startX = e.clientX;
    const startW = widthOf(col);
    let w = startW;
    const move = (ev: PointerEvent) => {
      w = Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, startW + ev.clientX - startX)));
      setDrafts((d) => ({ ...d, [col.key]: w }));
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      setDrafts((d) => {
        const { [col.key]: _, ...rest } = d;
        return rest;
      });
      if (w !== startW) onColumnResize?.(col.key, w);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  return { onResizeKey, fitColumn, startResize };
}

type ColumnLayout<Row> = ReturnType<typeof useColumnLayout<Row>>;
type ColumnResize<Row> = ReturnType<typeof useColumnResize<Row>>;

export function RecordTable<Row>(props: RecordTableProps<Row>) {
  const { rows, getRowId, onColumnResize } = props;
  // Pinned columns first (in their order), then the others.
  const columns = useMemo(() => [...props.columns.filter((c) => c.pinned), ...props.columns.filter((c) => !c.pinned)], [props.columns]);
  const styles = useStyles();
  const [drafts, setDrafts] = useState<Record<string, number>>({});
  const pageIds = rows.map(getRowId);
  const { wrapRef, view, onScroll, start, end } = useRowWindow(rows.length, pageIds[0], Boolean(props.loading));
  const layout = useColumnLayout(columns, rows, drafts);
  const resize = useColumnResize({ rows, widthOf: layout.widthOf, setDrafts, onColumnResize });
  const { tableWidth } = layout;

  const message = props.loading ? (
    <Spinner size="small" label="Loading..." data-testid="record-table-loading" />
  ) : props.error ? (
    <span className={styles.error} role="alert" data-testid="record-table-error">
      {props.error}
    </span>
  ) : rows.length === 0 ? (
    <span data-testid="record-table-empty">{props.emptyText}</span>
  ) : null;

  return (
    <div ref={wrapRef} className={styles.wrap} onScroll={onScroll} data-testid="record-table-scroll">
      {props.fetching && !props.loading && (
        <div className={styles.progress}>
          <ProgressBar thickness="medium" aria-label="Loading" data-testid="record-table-fetching" />
        </div>
      )}
      <table
        className={styles.table}
        style={{ width: `max(${tableWidth}px, 100%)`, minWidth: `${tableWidth}px` }}
        aria-label={props['aria-label']}
        aria-rowcount={rows.length + 1}
        data-testid="record-table"
        data-entity-type={props.entityType}
        data-row-count={rows.length}
      >
        <colgroup>
          <col style={{ width: `${SELECT_WIDTH}px` }} />
          {columns.map((c) => (
            <col key={c.key} style={{ width: `${layout.widthOf(c)}px` }} />
          ))}
          <col data-testid="record-table-filler-col" />
        </colgroup>
        <RecordTableHead table={props} columns={columns} pageIds={pageIds} layout={layout} resize={onColumnResize ? resize : null} />
        <tbody>
          {message ? (
            <tr>
              <td className={styles.messageCell} colSpan={columns.length + 2}>
                {/* Centred in the visible part of the table, however wide the columns are. */}
                <div className={styles.message} style={view.width ? { width: `${view.width}px` } : undefined}>
                  {message}
                </div>
              </td>
            </tr>
          ) : (
            <RecordTableRows table={props} columns={columns} start={start} end={end} layout={layout} />
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The header row: the page's checkbox, a header per column (sort button, resize handle), the filler. */
function RecordTableHead<Row>(props: {
  table: RecordTableProps<Row>;
  columns: readonly RecordColumn<Row>[];
  pageIds: string[];
  layout: ColumnLayout<Row>;
  resize: ColumnResize<Row> | null;
}) {
  const { table, pageIds, layout } = props;
  const { rows, selection, onSelectionChange, defaultSort = null } = table;
  const styles = useStyles();
  const pageState = pageSelectionState(selection, pageIds);
  const sort = table.sort ?? defaultSort;
  return (
    <thead>
      <tr>
        <th
          className={mergeClasses(styles.th, styles.selectTh, !layout.lastPinned && styles.pinnedEdge)}
          scope="col"
          data-testid="record-table-select-header"
        >
          <Checkbox
            aria-label="Select all rows on this page"
            checked={pageState === 'all' ? true : pageState === 'some' ? 'mixed' : false}
            disabled={rows.length === 0}
            onChange={() => onSelectionChange(setPageSelected(selection, pageIds, pageState !== 'all'))}
            data-testid="record-table-select-page"
          />
        </th>
        {props.columns.map((c) => (
          <HeaderCell
            key={c.key}
            column={c}
            sorted={sort && c.sortKey && sort.key === c.sortKey ? sort.order : null}
            onSort={() => table.onSortChange(nextSort(table.sort, c.sortKey!, defaultSort))}
            layout={layout}
            resize={props.resize}
          />
        ))}
        <th className={mergeClasses(styles.th, styles.filler)} aria-hidden data-testid="record-table-header-filler" />
      </tr>
    </thead>
  );
}

/** A column's header: its label (a sort button when sortable; the full label on hover) and its resize handle. */
function HeaderCell<Row>(props: {
  column: RecordColumn<Row>;
  sorted: SortState['order'] | null;
  onSort: () => void;
  layout: ColumnLayout<Row>;
  resize: ColumnResize<Row> | null;
}) {
  const { column: c, sorted, layout, resize } = props;
  const styles = useStyles();
  return (
    <th
      className={mergeClasses(styles.th, c.pinned && styles.stickyTh, c.key === layout.lastPinned && styles.pinnedEdge)}
      style={{ position: 'sticky', ...layout.stickyStyle(c.key) }}
      scope="col"
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : c.sortKey ? 'none' : undefined}
      data-testid="record-table-header"
      data-key={c.key}
      data-sort={sorted ?? 'none'}
    >
      {/* The full label on hover and on focus, however narrow the column. */}
      <Tooltip content={c.label} relationship="inaccessible" positioning="above-start" showDelay={400}>
        {c.sortKey ? (
          <button type="button" className={styles.sortButton} onClick={props.onSort} data-testid="record-table-sort" data-key={c.key}>
            <span className={styles.headLabel}>{c.label}</span>
            {sorted === 'asc' && <ArrowSortUpRegular className={styles.sortIcon} aria-hidden />}
            {sorted === 'desc' && <ArrowSortDownRegular className={styles.sortIcon} aria-hidden />}
          </button>
        ) : (
          <span className={styles.headLabel} data-testid="record-table-header-label">
            {c.label}
          </span>
        )}
      </Tooltip>
      {resize && (
        <span
          className={styles.resize}
          role="separator"
          tabIndex={0}
          aria-orientation="vertical"
          aria-label={`Resize ${c.label}`}
          aria-valuenow={layout.widthOf(c)}
          aria-valuemin={MIN_COLUMN_WIDTH}
          aria-valuemax={MAX_COLUMN_WIDTH}
          onPointerDown={(e) => resize.startResize(e, c)}
          onKeyDown={(e) => resize.onResizeKey(e, c)}
          onDoubleClick={() => resize.fitColumn(c)}
          data-testid="column-resize-handle"
          data-key={c.key}
        />
      )}
    </th>
  );
}

/** The rows from `start` to `end`, with a spacer for those above and below that are not rendered. */
function RecordTableRows<Row>(props: {
  table: RecordTableProps<Row>;
  columns: readonly RecordColumn<Row>[];
  start: number;
  end: number;
  layout: ColumnLayout<Row>;
}) {
  const { table, start, end } = props;
  const { rows, getRowId, selection } = table;
  const styles = useStyles();
  const colSpan = props.columns.length + 2;
  return (
    <>
      {start > 0 && (
        <tr aria-hidden style={{ height: `${start * ROW_HEIGHT}px` }}>
          <td className={styles.spacer} colSpan={colSpan} />
        </tr>
      )}
      {rows.slice(start, end).map((row, i) => {
        const id = getRowId(row);
        return (
          <RecordRow
            key={id}
            {...{ table, row, id }}
            columns={props.columns}
            rowIndex={start + i + 2}
            selected={isRowSelected(selection, id)}
            active={table.activeRowId === id}
            layout={props.layout}
          />
        );
      })}
      {end < rows.length && (
        <tr aria-hidden style={{ height: `${(rows.length - end) * ROW_HEIGHT}px` }}>
          <td className={styles.spacer} colSpan={colSpan} />
        </tr>
      )}
    </>
  );
}

function RecordRow<Row>(props: {
  table: RecordTableProps<Row>;
  columns: readonly RecordColumn<Row>[];
  row: Row;
  id: string;
  rowIndex: number;
  selected: boolean;
  active: boolean;
  layout: ColumnLayout<Row>;
}) {
  const { table, row, id, selected, active, layout } = props;
  const { onRowClick } = table;
  const styles = useStyles();
  const onRow = (e: MouseEvent<HTMLTableRowElement>) => {
    if ((e.target as HTMLElement).closest('[data-no-row-click], a, button, input, label')) return;
    onRowClick?.(row);
  };
  return (
    <tr
      className={mergeClasses(styles.tr, selected && styles.selected, active && styles.active)}
      tabIndex={0}
      aria-rowindex={props.rowIndex}
      aria-selected={selected}
      onClick={onRow}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target === e.currentTarget) onRowClick?.(row);
      }}
      data-testid="record-table-row"
      data-id={id}
      data-selected={selected ? 'true' : undefined}
      data-active={active ? 'true' : undefined}
    >
      <td
        className={mergeClasses(styles.td, styles.selectTd, styles.stickyTd, !layout.lastPinned && styles.pinnedEdge)}
        style={{ left: 0 }}
        data-no-row-click
        onClick={(e) => e.stopPropagation()}
      >
        <Checkbox
          aria-label="Select row"
          checked={selected}
          onChange={() => table.onSelectionChange(toggleRow(table.selection, id))}
          data-testid="record-table-select-row"
        />
      </td>
      {props.columns.map((c) => {
        const text = c.text(row);
        return (
          <td
            key={c.key}
            className={mergeClasses(styles.td, c.pinned && styles.stickyTd, c.key === layout.lastPinned && styles.pinnedEdge)}
            style={layout.stickyStyle(c.key)}
            title={text || undefined}
            data-testid="record-table-cell"
            data-key={c.key}
          >
            {c.render ? c.render(row) : text}
          </td>
        );
      })}
      <td className={mergeClasses(styles.td, styles.filler)} aria-hidden />
    </tr>
  );
}
