// A companies or contacts table with everything around it: search (debounced 300 ms), filters,
// the columns menu saved per user, server paging with the pagination bar, sortable headers, bulk
// selection (the page, then every row across pages) with export and delete, and a row click
// that opens the detail drawer. Spec 001 §2 'Table filters', §4, §5; spec 002 §2, §4, §7, §9.
import { useCallback, useEffect, useMemo, useReducer, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Link, SearchBox, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, DeleteRegular } from '@fluentui/react-icons';
import type { CompanyDto, ContactDto, ExportBody, FieldDto, Selection, TableQuery, TableTotalQuery } from '../../contracts';
import type { Api } from '../../client';
import { formatFieldParts, type TableFilter } from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { useDrawer } from '../DrawerContext';
import { ConfirmDialog } from '../ConfirmDialog';
import { useNotify } from '../toast';
import { usePluginMode } from '../PluginMode';
import { PaginationBar } from './PaginationBar';
import { FilterBar } from './FilterBar';
import { ColumnsMenu } from './ColumnsMenu';
import { RecordTable, type RecordColumn } from './RecordTable';
import { useTableLayout } from './useTableLayout';
import { entityFieldsQuery, entityFilterFieldsQuery } from './firstPage';
import { RunPlayPopover } from '../plays';
import { ActiveRuns } from '../progress/RunProgress';
import { fieldValueText, personName } from './format';
import {
  EnrichPopover,
  FieldResultCell,
  primaryEnrichmentId,
  useEnrichmentLiveUpdates,
  useSeedResults,
  type EnrichTargets,
} from '../enrichments';
import { ValueView } from '../values/ValueView';
import type { FilterFieldInfo, FilterOption } from './FilterEditor';
import {
  initialTableState,
  pageSelectionState,
  selectedCount,
  tableReducer,
  toSelectionBody,
  type SortState,
  type TableAction,
  type TableState,
} from './tableState';

export const TABLE_SEARCH_DEBOUNCE_MS = 300;
export const CUSTOM_COLUMN_WIDTH = 160;

/** A custom field's column width before the user sets one: from its data type (a number needs less than an address). */
export function customColumnWidth(field: Pick<FieldDto, 'dataType' | 'label'>): number {
  const byType: Record<string, number> = {
    int: 120,
    double: 130,
    number: 130,
    currency: 150,
    boolean: 100,
    date: 130,
    time: 110,
    url: 210,
    email: 220,
    phone: 150,
    address: 260,
    object: 220,
  };
  // Wide enough for the header's label too (about 8 px a character, the sort arrow and padding), up to 260.
  const header = Math.min(260, Math.round(field.label.length * 8 + 48));
  return Math.max(byType[field.dataType] ?? CUSTOM_COLUMN_WIDTH, header);
}

type EntityType = 'company' | 'contact';
type RecordRow = CompanyDto | ContactDto;

interface PageResult<Row> {
  rows: Row[];
  totalRecords: number;
  /** totalRecords is an estimate (more than 10,000 matches): shown as 'about N'. */
  totalIsEstimate?: boolean;
  totalPages: number;
}

/** The calls of one entity type. */
function recordsApi(api: Api, entityType: EntityType) {
  return entityType === 'company'
    ? {
        page: (q: TableQuery): Promise<PageResult<RecordRow>> => api.companies.page(q),
        total: (q: TableTotalQuery) => api.companies.total(q),
        totalKey: queryKeys.companiesTotal,
        exportCsv: (body: ExportBody) => api.companies.export(body),
        bulkDelete: (selection: Selection) => api.companies.bulkDelete(selection),
        pageKey: queryKeys.companiesPage,
        listKey: queryKeys.companies,
      }
    : {
        page: (q: TableQuery): Promise<PageResult<RecordRow>> => api.contacts.page(q),
        total: (q: TableTotalQuery) => api.contacts.total(q),
        totalKey: queryKeys.contactsTotal,
        exportCsv: (body: ExportBody) => api.contacts.export(body),
        bulkDelete: (selection: Selection) => api.contacts.bulkDelete(selection),
        pageKey: queryKeys.contactsPage,
        listKey: queryKeys.contacts,
      };
}

/**
 * The column of a custom field: its value from row.fields[field.id], '' when empty. Keyed by the
 * field's key, as the server's sort and export take it (keys are unique per entity type and never
 * collide with the built-in columns).
 */
export function customFieldColumn<Row extends RecordRow>(field: FieldDto): RecordColumn<Row> {
  return {
    key: field.key,
    label: field.label,
    sortKey: field.key,
    width: customColumnWidth(field),
    text: (row) => fieldValueText(row.fields[field.id]?.value, field.dataType, field.currency),
    // While the field's primary enrichment runs on the row, its status shows instead (spec 002 §4).
    // Fields without one render their value (links, chips, labelled fields) with no per-cell subscription.
    render: primaryEnrichmentId(field)
      ? (row) => (
          <FieldResultCell
            field={field}
            entityId={row.id}
            text={fieldValueText(row.fields[field.id]?.value, field.dataType, field.currency)}
            value={row.fields[field.id]?.value}
          />
        )
      : (row) => <ValueView value={formatFieldParts(field.dataType, row.fields[field.id]?.value, { currency: field.currency })} />,
  };
}

/** 'companies.csv' or the name in the Content-Disposition header. */
export function downloadName(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1].trim() : fallback;
}

/** A download whose CSV stopped before its end (the server lost its database connection, or the network dropped). */
export const EXPORT_INTERRUPTED = 'The export was interrupted before it finished; please export again.';

/** Saves a CSV answer as a file: only a whole one (a body broken off fails with EXPORT_INTERRUPTED). */
export async function saveResponseAsFile(res: Response, fallbackName: string): Promise<void> {
  let blob: Blob;
  try {
    blob = await res.blob();
  } catch {
    throw new Error(EXPORT_INTERRUPTED);
  }
  const name = downloadName(res.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export interface EntityTableProps<Row extends RecordRow> {
  entityType: EntityType;
  /** The built-in columns; custom fields follow as columns of their own. */
  columns: readonly RecordColumn<Row>[];
  defaultSort: SortState | null;
  nouns: { one: string; many: string };
  searchPlaceholder: string;
  /** Buttons at the end of the toolbar ('New Company'). */
  toolbarEnd?: ReactNode;
  /** The Run Play popover's 'New Play' action (the host opens its play editor). */
  onNewPlay?: () => void;
}

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    height: '100%',
    minHeight: '360px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    overflow: 'hidden',
  },
  /** Under a plugin the table fills its panel edge to edge. */
  plugin: { borderRadius: 0, boxShadow: 'none' },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  // The toolbar keeps to one line while it can (the drawer open beside a 1440 px page): the search
  // gives up width first (260 px down to 120: its basis, which decides the line break), the filters
  // take what is left; a plugin's narrow panel still wraps.
  search: { flex: '1 1 120px', maxWidth: '260px', minWidth: '120px' },
  // Never narrower than its widest piece (the Add Filter button on one line): below that it wraps
  // as a whole instead of breaking the button's label.
  filters: { flex: '1 1 0', minWidth: 'min-content' },
  actions: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, marginLeft: 'auto', flexShrink: 0 },
  bulk: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorBrandBackground2,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  bulkCount: { fontWeight: tokens.fontWeightSemibold },
  bulkActions: { display: 'flex', gap: tokens.spacingHorizontalS, marginLeft: 'auto' },
});

type Records = ReturnType<typeof recordsApi>;
type Dispatch = (action: TableAction) => void;

/** The fields (for the custom columns) and the filterable fields; the owner filter ('in' over member ids) picks from the account owners. */
function useEntityFields(entityType: EntityType) {
  const api = useApi();
  const fieldsQuery = useQuery(entityFieldsQuery(api, entityType));
  const filterFieldsQuery = useQuery(entityFilterFieldsQuery(api, entityType));

  // The owner filter ('in' over member ids) picks from the account owners.
  const needsOwners = (filterFieldsQuery.data ?? []).some((f) => f.dataType === 'uuid');
  const ownersQuery = useQuery({
    queryKey: queryKeys.owners,
    queryFn: () => api.companies.owners(),
    staleTime: 60_000,
    enabled: needsOwners,
  });
  const ownerOptions = useMemo<FilterOption[]>(
    () => (ownersQuery.data?.owners ?? []).map((o) => ({ value: o.id, label: personName(o) || o.email })),
    [ownersQuery.data],
  );
  const optionsFor = useCallback((f: FilterFieldInfo) => (f.dataType === 'uuid' ? ownerOptions : undefined), [ownerOptions]);
  return { fieldsQuery, filterFieldsQuery, optionsFor };
}

/** The built-in columns and one per custom field, laid out as the user saved them (order, visibility, widths). */
function useEntityColumns<Row extends RecordRow>(
  entityType: EntityType,
  columns: readonly RecordColumn<Row>[],
  fields: FieldDto[] | undefined,
) {
  const allColumns = useMemo(() => {
    const custom = (fields ?? [])
      .filter((f) => !f.builtIn && f.entityType === entityType)
      .sort((a, b) => a.label.localeCompare(b.label))
      .map((f) => customFieldColumn<Row>(f));
    return [...columns, ...custom];
  }, [columns, fields, entityType]);
  const columnByKey = useMemo(() => new Map(allColumns.map((c) => [c.key, c])), [allColumns]);
  const labels = useMemo(() => Object.fromEntries(allColumns.map((c) => [c.key, c.label])), [allColumns]);
  const defaults = useMemo(() => allColumns.map((c) => ({ key: c.key, width: c.width ?? CUSTOM_COLUMN_WIDTH })), [allColumns]);
  const layout = useTableLayout(entityType, defaults);
  const visibleColumns = useMemo(
    () => layout.layout.filter((l) => l.visible && columnByKey.has(l.key)).map((l) => ({ ...columnByKey.get(l.key)!, width: l.width })),
    [layout.layout, columnByKey],
  );
  return { labels, layout, visibleColumns };
}

/**
 * The page of rows and its totals. Next / Previous on an estimated set: the page starts right after the last row shown (before
 * the first), so paging one page at a time neither skips nor repeats rows (the server places a page reached by a jump at its
 * estimated position); the cursor is kept only for the page and the query it was made for. An estimated total ('about 37,700')
 * is followed by the exact one, asked for once per search and filters in a second request that never holds the page back.
 */
function useEntityPage<Row extends RecordRow>(records: Records, state: TableState, dispatch: Dispatch) {
  const base: TableQuery = {
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
    sortKey: state.sort?.key ?? null,
    sortOrder: state.sort?.order ?? null,
    text: state.text,
    filters: state.filters.map((f) => ({ ...f, operator: f.operator ?? 'and' })),
  };
  const [cursor, setCursor] = useState<{ of: string; pageIndex: number; afterId?: string; beforeId?: string } | null>(null);
  const queryOf = JSON.stringify([base.pageSize, base.sortKey, base.sortOrder, base.text, base.filters]);
  const query: TableQuery =
    cursor && cursor.of === queryOf && cursor.pageIndex === state.pageIndex
      ? { ...base, ...(cursor.afterId ? { afterId: cursor.afterId } : { beforeId: cursor.beforeId }) }
      : base;
  const page = useQuery({ queryKey: records.pageKey(query), queryFn: () => records.page(query), placeholderData: keepPreviousData });
  const rows = (page.data?.rows ?? []) as Row[];
  const totalQuery: TableTotalQuery = { text: query.text, filters: query.filters };
  const estimated = page.data?.totalIsEstimate === true && !page.isPlaceholderData;
  const exact = useQuery({
    queryKey: records.totalKey(totalQuery),
    queryFn: () => records.total(totalQuery),
    enabled: estimated,
    staleTime: 60_000,
  });
  const exactTotal = estimated && exact.data ? exact.data.totalRecords : null;
  const totalRecords = exactTotal ?? page.data?.totalRecords ?? 0;
  const totalPages = exactTotal !== null ? Math.max(1, Math.ceil(exactTotal / state.pageSize)) : Math.max(1, page.data?.totalPages ?? 1);
  const totalIsEstimate = page.data?.totalIsEstimate === true && exactTotal === null;

  // After a delete the page may be past the end: go to the last page there is.
  useEffect(() => {
    if (page.data && !page.isPlaceholderData && state.pageIndex > Math.max(0, page.data.totalPages - 1)) {
      dispatch({ type: 'page', pageIndex: Math.max(0, page.data.totalPages - 1) });
    }
  }, [page.data, page.isPlaceholderData, state.pageIndex]);

  const onPageChange = (pageIndex: number) => {
    const shown = page.data && !page.isPlaceholderData && page.data.totalIsEstimate === true ? page.data.rows : [];
    const step = pageIndex - state.pageIndex;
    setCursor(
      shown.length > 0 && (step === 1 || step === -1)
        ? { of: queryOf, pageIndex, ...(step === 1 ? { afterId: shown[shown.length - 1].id } : { beforeId: shown[0].id }) }
        : null,
    );
    dispatch({ type: 'page', pageIndex });
  };
  /** 'about ' before a count derived from an estimated total. */
  const about = totalIsEstimate ? 'about ' : '';
  return { query, page, rows, totalRecords, totalPages, totalIsEstimate, about, onPageChange };
}

/** Enrichment runs: live statuses in the cells of fields whose primary enrichment runs. */
function useEnrichmentCells(entityType: EntityType, fields: FieldDto[] | undefined, rows: readonly RecordRow[]) {
  useEnrichmentLiveUpdates(entityType);
  const customFields = useMemo(() => (fields ?? []).filter((f) => !f.builtIn && f.entityType === entityType), [fields, entityType]);
  const primaryIds = useMemo(() => customFields.map(primaryEnrichmentId).filter((x): x is string => !!x), [customFields]);
  const rowIds = useMemo(() => rows.map((r) => r.id), [rows]);
  useSeedResults(entityType, rowIds, primaryIds);
}

/** Export (the selection, or every row matching the search and filters) and the bulk delete with its confirmation. */
function useEntityActions(o: {
  entityType: EntityType;
  records: Records;
  state: TableState;
  dispatch: Dispatch;
  visibleColumns: readonly { key: string }[];
  manyNoun: string;
  selectionBody: Selection | null;
}) {
  const { entityType, records, state, selectionBody } = o;
  const qc = useQueryClient();
  const notify = useNotify();
  const drawer = useDrawer();
  const [exporting, setExporting] = useState(false);
  /** The delete confirmation and the number of rows it is about (kept while it fades out). */
  const [confirmDelete, setConfirmDelete] = useState({ open: false, count: 0, about: '' });
  const closeConfirm = () => setConfirmDelete((c) => ({ ...c, open: false }));
  const { visibleColumns, manyNoun } = o;
  const runExport = useCallback(
    async (selection: Selection) => {
      setExporting(true);
      try {
        const res = await records.exportCsv({
          selection,
          columns: visibleColumns.map((c) => c.key),
          sortKey: state.sort?.key ?? null,
          sortOrder: state.sort?.order ?? null,
        });
        await saveResponseAsFile(res, `${manyNoun}.csv`);
      } catch (e) {
        notify.error(e instanceof Error && e.message ? e.message : 'Export failed');
      } finally {
        setExporting(false);
      }
    },
    [records, visibleColumns, state.sort, manyNoun, notify],
  );
  const deleteSelected = async () => {
    if (!selectionBody) return;
    const res = await records.bulkDelete(selectionBody);
    closeConfirm();
    o.dispatch({ type: 'clearSelection' });
    notify.success(res.message);
    // A deleted record shown in the drawer closes; with 'all selected' the drawer re-reads it.
    const shown = drawer.target?.entityType === entityType ? drawer.target.id : null;
    const shownKey = shown ? (entityType === 'company' ? queryKeys.company(shown) : queryKeys.contact(shown)) : null;
    const shownDeleted = !!shown && 'ids' in selectionBody && selectionBody.ids.includes(shown);
    if (shownDeleted) drawer.close();
    await Promise.all([
      qc.invalidateQueries({ queryKey: queryKeys.companies }),
      qc.invalidateQueries({ queryKey: queryKeys.contacts }),
      ...(shownKey && !shownDeleted ? [qc.invalidateQueries({ queryKey: shownKey })] : []),
    ]);
    if (shownKey && shownDeleted) qc.removeQueries({ queryKey: shownKey });
  };
  return { exporting, runExport, confirmDelete, setConfirmDelete, closeConfirm, deleteSelected };
}
type EntityActions = ReturnType<typeof useEntityActions>;

/** What Enrich acts on: the selected ids, or every row matching the search and filters less those unticked. */
function enrichTargetsOf(selectionBody: Selection | null, count: number): EnrichTargets | null {
  return !selectionBody
    ? null
    : 'ids' in selectionBody
      ? { kind: 'ids', ids: selectionBody.ids }
      : {
          kind: 'all',
          text: selectionBody.text ?? '',
          filters: selectionBody.filters ?? [],
          excludeIds: selectionBody.excludeIds ?? [],
          count,
        };
}

/** Runs started from this table's Enrich and Run Play: their progress lines show at once above it. */
function useStartedRuns() {
  const [startedRuns, setStartedRuns] = useState<string[]>([]);
  const onRunStarted = (runId: string | null) => {
    if (runId) setStartedRuns((ids) => (ids.includes(runId) ? ids : [runId, ...ids]));
  };
  return { startedRuns, onRunStarted };
}

export function EntityTable<Row extends RecordRow>(props: EntityTableProps<Row>) {
  const { entityType, nouns } = props;
  const styles = useStyles();
  const pluginMode = usePluginMode();
  const api = useApi();
  const drawer = useDrawer();
  const records = useMemo(() => recordsApi(api, entityType), [api, entityType]);
  const [state, dispatch] = useReducer(tableReducer, props.defaultSort, initialTableState);
  const fields = useEntityFields(entityType);
  const { labels, layout, visibleColumns } = useEntityColumns(entityType, props.columns, fields.fieldsQuery.data);
  const { query, page, rows, totalRecords, totalPages, totalIsEstimate, about, onPageChange } = useEntityPage<Row>(
    records,
    state,
    dispatch,
  );
  useEnrichmentCells(entityType, fields.fieldsQuery.data, rows);

  const count = selectedCount(state.selection, totalRecords);
  const selectionBody = toSelectionBody(state.selection, state.text, state.filters);
  const manyNoun = nouns.many;
  const actions = useEntityActions({ entityType, records, state, dispatch, visibleColumns, manyNoun, selectionBody });
  const { startedRuns, onRunStarted } = useStartedRuns();
  const activeRowId = drawer.target?.entityType === entityType ? drawer.target.id : null;
  const filtered = state.text !== '' || state.filters.length > 0;

  return (
    <section
      className={mergeClasses(styles.root, pluginMode && styles.plugin)}
      data-testid={`${entityType}-table`}
      data-plugin-mode={pluginMode ? 'true' : undefined}
      aria-label={nouns.many}
    >
      <EntityToolbar
        {...{ table: props, state, dispatch, fields, actions, count, totalRecords, filtered, labels, layout, rows, onRunStarted }}
        enrichTargets={enrichTargetsOf(selectionBody, count)}
        exportAll={() => void actions.runExport({ allSelected: true, text: state.text, filters: query.filters ?? [], excludeIds: [] })}
      />
      {count > 0 && <EntityBulkBar {...{ nouns, state, dispatch, count, totalRecords, about, rows, selectionBody, actions }} />}
      <ActiveRuns
        started={startedRuns}
        match={(r) => r.entityType === entityType && (r.type === 'enrichment' || r.type === 'play')}
        style={{ padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}` }}
      />
      <RecordTable<Row>
        aria-label={nouns.many}
        entityType={entityType}
        columns={visibleColumns}
        rows={rows}
        getRowId={(r) => r.id}
        sort={state.sort}
        defaultSort={props.defaultSort}
        onSortChange={(sort) => dispatch({ type: 'sort', sort })}
        selection={state.selection}
        onSelectionChange={(selection) => dispatch({ type: 'select', selection })}
        onRowClick={(row) => drawer.open({ entityType, id: row.id })}
        onColumnResize={(key, width) => layout.save(layout.layout.map((c) => (c.key === key ? { ...c, width } : c)))}
        activeRowId={activeRowId}
        loading={page.isPending}
        fetching={page.isFetching}
        error={page.isError && !page.data ? (page.error instanceof Error ? page.error.message : 'Could not load the table') : null}
        emptyText={filtered ? `No ${nouns.many} match the search and filters.` : `No ${nouns.many} yet.`}
      />
      <PaginationBar
        pageIndex={state.pageIndex}
        pageSize={state.pageSize}
        totalPages={totalPages}
        totalRecords={page.data ? totalRecords : undefined}
        totalIsEstimate={totalIsEstimate}
        onPageChange={onPageChange}
        onPageSizeChange={(pageSize) => dispatch({ type: 'pageSize', pageSize })}
      />
      <EntityDeleteDialog nouns={nouns} actions={actions} />
    </section>
  );
}

/** Search (debounced, then it resets the page and the selection like a filter change), filters, Export, Enrich, Run Play, Columns. */
function EntityToolbar<Row extends RecordRow>(props: {
  table: EntityTableProps<Row>;
  state: TableState;
  dispatch: Dispatch;
  fields: ReturnType<typeof useEntityFields>;
  actions: EntityActions;
  count: number;
  totalRecords: number;
  filtered: boolean;
  labels: Record<string, string>;
  layout: ReturnType<typeof useTableLayout>;
  rows: Row[];
  enrichTargets: EnrichTargets | null;
  exportAll: () => void;
  onRunStarted: (runId: string | null) => void;
}) {
  const { table, state, dispatch, fields, layout, onRunStarted } = props;
  const { entityType, nouns } = table;
  const styles = useStyles();
  const [searchInput, setSearchInput] = useState('');
  useEffect(() => {
    const t = setTimeout(() => dispatch({ type: 'text', text: searchInput.trim() }), TABLE_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [searchInput]);
  return (
    <div className={styles.toolbar} role="toolbar" aria-label={`${nouns.many} toolbar`}>
      <SearchBox
        className={styles.search}
        size="medium"
        placeholder={table.searchPlaceholder}
        aria-label={table.searchPlaceholder}
        value={searchInput}
        maxLength={200}
        onChange={(_, d) => setSearchInput(d.value)}
        data-testid="table-search"
      />
      <div className={styles.filters}>
        <FilterBar
          fields={fields.filterFieldsQuery.data ?? []}
          fieldsLoading={fields.filterFieldsQuery.isPending}
          filters={state.filters}
          onChange={(filters: TableFilter[]) => dispatch({ type: 'filters', filters })}
          optionsFor={fields.optionsFor}
        />
      </div>
      <div className={styles.actions}>
        {props.count === 0 && (
          <Button
            appearance="subtle"
            size="small"
            icon={<ArrowDownloadRegular />}
            disabled={props.actions.exporting || props.totalRecords === 0}
            onClick={props.exportAll}
            title={props.filtered ? `Export the ${nouns.many} matching the search and filters` : `Export all ${nouns.many}`}
            data-testid="table-export"
          >
            Export
          </Button>
        )}
        <EnrichPopover entityType={entityType} targets={props.enrichTargets} rows={props.rows} sort={state.sort} onStarted={onRunStarted} />
        <RunPlayPopover
          entityType={entityType}
          targetIds={props.enrichTargets?.kind === 'ids' ? props.enrichTargets.ids : null}
          onNewPlay={table.onNewPlay}
          onStarted={(_, runId) => onRunStarted(runId)}
        />
        <ColumnsMenu labels={props.labels} layout={layout.layout} onChange={layout.save} onReset={layout.reset} saving={layout.saving} />
        {table.toolbarEnd}
      </div>
    </div>
  );
}

/** The bulk bar (spec 001 §4): the count, select all across pages, clear, Export and Delete. */
function EntityBulkBar(props: {
  nouns: { one: string; many: string };
  state: TableState;
  dispatch: Dispatch;
  count: number;
  totalRecords: number;
  about: string;
  rows: readonly RecordRow[];
  selectionBody: Selection | null;
  actions: EntityActions;
}) {
  const { nouns, state, dispatch, count, totalRecords, about, selectionBody, actions } = props;
  const styles = useStyles();
  // With 'all selected' the count comes from the total, so it is an estimate too; the server acts on the exact set.
  const countAbout = state.selection.kind === 'all' ? about : '';
  const pageAllSelected =
    pageSelectionState(
      state.selection,
      props.rows.map((r) => r.id),
    ) === 'all';
  const allAcross = state.selection.kind === 'all';
  return (
    <div
      className={styles.bulk}
      role="region"
      aria-label="Bulk actions"
      data-testid="bulk-action-bar"
      data-all-selected={allAcross ? 'true' : 'false'}
    >
      <Text className={styles.bulkCount} data-testid="bulk-selected-count" data-count={count}>
        {allAcross
          ? `All ${countAbout}${count.toLocaleString('en-US')} ${count === 1 ? nouns.one : nouns.many} selected`
          : `${count.toLocaleString('en-US')} selected`}
      </Text>
      {!allAcross && pageAllSelected && totalRecords > count && (
        <Link
          as="button"
          onClick={() => dispatch({ type: 'select', selection: { kind: 'all', excludeIds: new Set() } })}
          data-testid="bulk-select-all-across"
        >
          Select all {about}
          {totalRecords.toLocaleString('en-US')} across pages
        </Link>
      )}
      <Link as="button" onClick={() => dispatch({ type: 'clearSelection' })} data-testid="bulk-clear">
        Clear selection
      </Link>
      <div className={styles.bulkActions}>
        <Button
          size="small"
          icon={<ArrowDownloadRegular />}
          disabled={actions.exporting || !selectionBody}
          onClick={() => selectionBody && void actions.runExport(selectionBody)}
          data-testid="bulk-export"
        >
          {actions.exporting ? 'Exporting…' : 'Export'}
        </Button>
        <Button
          size="small"
          icon={<DeleteRegular />}
          disabled={!selectionBody}
          onClick={() => actions.setConfirmDelete({ open: true, count, about: countAbout })}
          data-testid="bulk-delete"
        >
          Delete
        </Button>
      </div>
    </div>
  );
}

function EntityDeleteDialog({ nouns, actions }: { nouns: { one: string; many: string }; actions: EntityActions }) {
  const { confirmDelete } = actions;
  const n = confirmDelete.count;
  const noun = n === 1 ? nouns.one : nouns.many;
  return (
    <ConfirmDialog
      open={confirmDelete.open}
      type="delete"
      title={`Delete ${noun}`}
      message={`Delete ${confirmDelete.about}${n.toLocaleString('en-US')} ${noun}? This cannot be undone.`}
      onConfirm={actions.deleteSelected}
      onCancel={actions.closeConfirm}
      data-testid="bulk-delete-dialog"
    />
  );
}
