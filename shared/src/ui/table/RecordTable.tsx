// The record table: sortable headers (descending → ascending → none, spec 001 §4), a checkbox per
// row and one for the page, resizable columns, a sticky header, and row windowing for the large
// page sizes (up to 1000 rows) so paging stays quick. Presentational: state lives in the caller.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type MouseEvent, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { Checkbox, ProgressBar, Spinner, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ArrowSortDownRegular, ArrowSortUpRegular } from '@fluentui/react-icons';
import { isRowSelected, pageSelectionState, setPageSelected, toggleRow, nextSort, type RowSelection, type SortState } from './tableState';

export interface RecordColumn<Row> {
  key: string;
  label: string;
  /** The server's sort key; absent or null: not sortable. */
  sortKey?: string | null;
  width: number;
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
  },
  tr: {
    height: `${ROW_HEIGHT}px`,
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  selected: { backgroundColor: tokens.colorNeutralBackground1Selected, ':hover': { backgroundColor: tokens.colorNeutralBackground1Selected } },
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

export function RecordTable<Row>(props: RecordTableProps<Row>) {
  const { columns, rows, getRowId, sort: chosenSort, defaultSort = null, onSortChange, selection, onSelectionChange, onRowClick, onColumnResize } = props;
  const styles = useStyles();
  const wrapRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 0, width: 0 });
  const [drafts, setDrafts] = useState<Record<string, number>>({});

  const pageIds = rows.map(getRowId);
  const pageState = pageSelectionState(selection, pageIds);
  const windowed = rows.length > WINDOW_AFTER;

  useLayoutEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const measure = () => setView({ top: el.scrollTop, height: el.clientHeight, width: el.clientWidth });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const frame = useRef<number | null>(null);
  const onScroll = useCallback(() => {
    if (!windowed || frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const el = wrapRef.current;
      if (el) setView({ top: el.scrollTop, height: el.clientHeight, width: el.clientWidth });
    });
  }, [windowed]);
  useEffect(() => () => { if (frame.current !== null) cancelAnimationFrame(frame.current); }, []);

  // A new page starts at the top.
  const firstId = pageIds[0];
  useEffect(() => {
    const el = wrapRef.current;
    if (el && el.scrollTop > 0) {
      el.scrollTop = 0;
      setView((v) => ({ ...v, top: 0 }));
    }
  }, [firstId, rows.length]);

  let start = 0;
  let end = rows.length;
  if (windowed) {
    const visible = Math.ceil((view.height || 800) / ROW_HEIGHT);
    start = Math.max(0, Math.floor(view.top / ROW_HEIGHT) - OVERSCAN);
    end = Math.min(rows.length, start + visible + OVERSCAN * 2);
  }

  const widthOf = (c: RecordColumn<Row>) => drafts[c.key] ?? c.width;
  const tableWidth = SELECT_WIDTH + columns.reduce((s, c) => s + widthOf(c), 0);

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

  const onRow = (e: MouseEvent<HTMLTableRowElement>, row: Row) => {
    if ((e.target as HTMLElement).closest('[data-no-row-click], a, button, input, label')) return;
    onRowClick?.(row);
  };

  const colSpan = columns.length + 2;
  const message = props.loading ? (
    <Spinner size="small" label="Loading..." data-testid="record-table-loading" />
  ) : props.error ? (
    <span className={styles.error} role="alert" data-testid="record-table-error">{props.error}</span>
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
            <col key={c.key} style={{ width: `${widthOf(c)}px` }} />
          ))}
          <col data-testid="record-table-filler-col" />
        </colgroup>
        <thead>
          <tr>
            <th className={mergeClasses(styles.th, styles.selectTh)} scope="col">
              <Checkbox
                aria-label="Select all rows on this page"
                checked={pageState === 'all' ? true : pageState === 'some' ? 'mixed' : false}
                disabled={rows.length === 0}
                onChange={() => onSelectionChange(setPageSelected(selection, pageIds, pageState !== 'all'))}
                data-testid="record-table-select-page"
              />
            </th>
            {columns.map((c) => {
              const sort = chosenSort ?? defaultSort;
              const sorted = sort && c.sortKey && sort.key === c.sortKey ? sort.order : null;
              return (
                <th
                  key={c.key}
                  className={styles.th}
                  style={{ position: 'sticky' }}
                  scope="col"
                  aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : c.sortKey ? 'none' : undefined}
                  data-testid="record-table-header"
                  data-key={c.key}
                  data-sort={sorted ?? 'none'}
                >
                  {c.sortKey ? (
                    <button
                      type="button"
                      className={styles.sortButton}
                      onClick={() => onSortChange(nextSort(chosenSort, c.sortKey!, defaultSort))}
                      title={`Sort by ${c.label}`}
                      data-testid="record-table-sort"
                      data-key={c.key}
                    >
                      <span className={styles.headLabel} title={c.label}>{c.label}</span>
                      {sorted === 'asc' && <ArrowSortUpRegular className={styles.sortIcon} aria-hidden />}
                      {sorted === 'desc' && <ArrowSortDownRegular className={styles.sortIcon} aria-hidden />}
                    </button>
                  ) : (
                    <span className={styles.headLabel} title={c.label}>{c.label}</span>
                  )}
                  {onColumnResize && (
                    <span
                      className={styles.resize}
                      role="separator"
                      aria-orientation="vertical"
                      aria-label={`Resize ${c.label}`}
                      onPointerDown={(e) => startResize(e, c)}
                      data-testid="column-resize-handle"
                      data-key={c.key}
                    />
                  )}
                </th>
              );
            })}
            <th className={mergeClasses(styles.th, styles.filler)} aria-hidden data-testid="record-table-header-filler" />
          </tr>
        </thead>
        <tbody>
          {message ? (
            <tr>
              <td className={styles.messageCell} colSpan={colSpan}>
                {/* Centred in the visible part of the table, however wide the columns are. */}
                <div className={styles.message} style={view.width ? { width: `${view.width}px` } : undefined}>{message}</div>
              </td>
            </tr>
          ) : (
            <>
              {start > 0 && (
                <tr aria-hidden style={{ height: `${start * ROW_HEIGHT}px` }}>
                  <td className={styles.spacer} colSpan={colSpan} />
                </tr>
              )}
              {rows.slice(start, end).map((row, i) => {
                const id = getRowId(row);
                const selected = isRowSelected(selection, id);
                const active = props.activeRowId === id;
                return (
                  <tr
                    key={id}
                    className={mergeClasses(styles.tr, selected && styles.selected, active && styles.active)}
                    tabIndex={0}
                    aria-rowindex={start + i + 2}
                    aria-selected={selected}
                    onClick={(e) => onRow(e, row)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' && e.target === e.currentTarget) onRowClick?.(row);
                    }}
                    data-testid="record-table-row"
                    data-id={id}
                    data-selected={selected ? 'true' : undefined}
                    data-active={active ? 'true' : undefined}
                  >
                    <td className={mergeClasses(styles.td, styles.selectTd)} data-no-row-click onClick={(e) => e.stopPropagation()}>
                      <Checkbox
                        aria-label="Select row"
                        checked={selected}
                        onChange={() => onSelectionChange(toggleRow(selection, id))}
                        data-testid="record-table-select-row"
                      />
                    </td>
                    {columns.map((c) => {
                      const text = c.text(row);
                      return (
                        <td key={c.key} className={styles.td} title={text || undefined} data-testid="record-table-cell" data-key={c.key}>
                          {c.render ? c.render(row) : text}
                        </td>
                      );
                    })}
                    <td className={mergeClasses(styles.td, styles.filler)} aria-hidden />
                  </tr>
                );
              })}
              {end < rows.length && (
                <tr aria-hidden style={{ height: `${(rows.length - end) * ROW_HEIGHT}px` }}>
                  <td className={styles.spacer} colSpan={colSpan} />
                </tr>
              )}
            </>
          )}
        </tbody>
      </table>
    </div>
  );
}
