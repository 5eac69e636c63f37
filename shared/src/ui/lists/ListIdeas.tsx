// One list (spec 002 §2 'Other screens', §4 'Bulk selection', §7 'Ideas'): its name and totals, its
// sources (per-source status and totals, removable), the ideas table (shortlist toggles, status
// chips, the sources' extra columns, the list's idea enrichments as live columns, search and filters, newest first, zero-based pages of 10), the
// bulk bar (enrich, shortlist, remove from shortlist, export, delete — by ids or 'all selected across
// pages'), an idea drawer, a manual add dialog and the completion confirmation with its totals.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  Link,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Option,
  SearchBox,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import {
  AddRegular,
  SparkleRegular,
  DatabaseSearchRegular,
  ArrowUploadRegular,
  ArrowDownloadRegular,
  CheckmarkCircleRegular,
  DeleteRegular,
  DismissRegular,
  EditRegular,
  StarFilled,
  StarRegular,
} from '@fluentui/react-icons';
import type { EnrichmentDto, IdeaDto, IdeaFilters, IdeaListBody, ListDto, RunProgressDto } from '../../contracts';
import {
  companyProblems,
  formatValue,
  ideaEnrichmentColumns,
  ideaEnrichmentCell,
  listColumnsWithWidth,
  realtimePaths,
  untypedColumnType,
  valueText,
  LIST_MESSAGES,
  type IdeaEnrichmentColumn,
  type IdeaStatus,
} from '../../domain';
import { ValueView } from '../values/ValueView';
import { useApi, queryKeys } from '../ApiContext';
import { usePluginMode, useModalSurfaceStyle } from '../PluginMode';
import { useNotify } from '../toast';
import { ConfirmDialog } from '../ConfirmDialog';
import { useRealtimeEvents } from '../realtime';
import { PaginationBar } from '../table/PaginationBar';
import { RecordTable, type RecordColumn } from '../table/RecordTable';
import { NO_SELECTION, pageSelectionState, selectedCount, type RowSelection, type SortState } from '../table/tableState';
import { saveResponseAsFile } from '../table/EntityTable';
import { formatDate } from '../table/format';
import { NameDialog } from './NameDialog';
import { IdeaDrawer } from './IdeaDrawer';
import { UploadCsvDialog } from './UploadCsvDialog';
import { AddSourceDialog, PROVIDER_KINDS, type ProviderKind } from './AddSourceDialog';
import { FilterSourceDialog } from './FilterSourceDialog';
import { IDEA_STATUS_LABEL, sourceLabel } from './labels';
import { useListScoring } from '../scoring/useListScoring';
import { EnrichIdeasDialog, IdeaEnrichmentCell, useIdeaEnrichmentLive } from './IdeaEnrichments';
import {
  IDEA_DEFAULT_SORT,
  IDEA_FIRST_PAGE_SIZE,
  ideasPageBody,
  ideasPageQuery,
  listEnrichmentsKey,
  listEnrichmentsQuery,
  listQuery,
} from './firstView';
import { getCellResult } from '../enrichments/liveResults';
import { ActiveRuns } from '../progress/RunProgress';

/** Spec 002 §9: the ideas table sorts descending (newest first) by default. */

type Groups = { contacts: boolean; unassignedEnrichments: boolean; companyFields: boolean };

const useStyles = makeStyles({
  page: { display: 'flex', height: '100%', minHeight: '420px', gap: 0 },
  root: {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    minWidth: 0,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    overflow: 'hidden',
  },
  plugin: { borderRadius: 0, boxShadow: 'none' },
  head: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  name: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  totals: { color: tokens.colorNeutralForeground3 },
  sources: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  source: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    padding: `2px ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  search: { flex: '1 1 160px', maxWidth: '260px' },
  dropdown: { minWidth: '150px' },
  end: { marginLeft: 'auto', display: 'flex', gap: tokens.spacingHorizontalS },
  bulk: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorBrandBackground2,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  bulkActions: { display: 'flex', gap: tokens.spacingHorizontalS, marginLeft: 'auto' },
  star: { minWidth: 'auto' },
  totalsGrid: { display: 'grid', gridTemplateColumns: 'auto auto', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalXS },
});

export interface ListIdeasProps {
  listId: string;
  /** The saved section states of the idea drawer (drawer.idea.details.showGroups). */
  drawerGroups: Groups;
  onDrawerGroupsChange: (groups: Groups) => void;
  /** After the list was deleted. */
  onDeleted: () => void;
  /** The widths the user gave this list's columns (other than its enrichments' list columns, saved on them). */
  columnWidths?: Readonly<Record<string, number>>;
  /** Keeps a column width for this list (the host saves it with the user's settings). */
  onColumnWidthChange?: (key: string, width: number) => void;
}

/** The ideas' filters, search, sort, page and selection (spec 002 §4: any filter change clears the selection and goes back to page 0). */
function useIdeaView(listId: string) {
  const [searchInput, setSearchInput] = useState('');
  const [text, setText] = useState('');
  const [inShortlist, setInShortlist] = useState<boolean | null>(null);
  const [status, setStatus] = useState<IdeaStatus | ''>('');
  const [sourceIds, setSourceIds] = useState<string[]>([]);
  const [sort, setSort] = useState<SortState | null>(IDEA_DEFAULT_SORT);
  const [pageIndex, setPageIndex] = useState(0);
  const [pageSize, setPageSize] = useState(IDEA_FIRST_PAGE_SIZE);
  const [selection, setSelection] = useState<RowSelection>(NO_SELECTION);

  // Any filter change clears the selection and goes back to page 0 (spec 002 §4).
  const resetView = () => {
    setSelection(NO_SELECTION);
    setPageIndex(0);
  };
  useEffect(() => {
    const t = setTimeout(() => {
      setText((prev) => {
        if (prev !== searchInput.trim()) resetView();
        return searchInput.trim();
      });
    }, 300);
    return () => clearTimeout(t);
  }, [searchInput]);

  const filters: IdeaFilters = { text, inShortlist, recordStatus: status || null, listSourceIds: sourceIds, excludeIds: [] };
  const query: IdeaListBody = ideasPageBody(listId, { text, inShortlist, status, sourceIds, sort, pageIndex, pageSize });
  const hasFilters = Boolean(text || inShortlist !== null || status || sourceIds.length);
  return {
    ...{ searchInput, setSearchInput, text, inShortlist, setInShortlist, status, setStatus, sourceIds, setSourceIds },
    ...{ sort, setSort, pageIndex, setPageIndex, pageSize, setPageSize, selection, setSelection },
    ...{ resetView, filters, query, hasFilters },
  };
}
type IdeaView = ReturnType<typeof useIdeaView>;

/** The filters of an action on the selection 'all across pages' (those of the table, less the rows unticked). */
function selectedFilters(filters: IdeaFilters, selection: RowSelection): IdeaFilters {
  return { ...filters, excludeIds: selection.kind === 'all' ? [...selection.excludeIds] : [] };
}

/** The list, the page of ideas and the list's enrichments; reloaded on the list's realtime events. */
function useListIdeasData(listId: string, query: IdeaListBody) {
  const api = useApi();
  const qc = useQueryClient();
  const listQ = useQuery(listQuery(api, listId));
  const list: ListDto | undefined = listQ.data;
  const page = useQuery({ ...ideasPageQuery(api, query), placeholderData: keepPreviousData });
  const enrichments = useQuery(listEnrichmentsQuery(api, listId));
  const rows = useMemo(() => page.data?.listCompanyIdeas ?? [], [page.data]);
  // The idea enrichments' cells: seeded from the page, then live (spec 002 §4).
  useIdeaEnrichmentLive(listId, rows);
  const total = page.data?.totalRecords ?? 0;
  const about = page.data?.totalIsEstimate ? 'about ' : '';

  const reload = async () => {
    await Promise.all([qc.invalidateQueries({ queryKey: queryKeys.ideas(listId) }), qc.invalidateQueries({ queryKey: queryKeys.lists })]);
  };
  // Another tab or user changed the list (ideas, sources, shortlist): reload (spec 002 §4 'List execution').
  useRealtimeEvents(
    ({ oid }) => realtimePaths.lists(oid, listId),
    () => {
      void reload();
    },
  );
  return { listQuery: listQ, list, page, enrichments, rows, total, about, reload };
}

/** Shortlisting and exporting ideas (by ids, or by the table's filters when all are selected across pages). */
function useIdeaActions(listId: string, filters: IdeaFilters, selection: RowSelection, reload: () => Promise<void>) {
  const api = useApi();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const setShortlist = async (ids: string[] | null, value: boolean) => {
    setBusy(true);
    try {
      const res = await api.lists.shortlist(
        ids ? { listId, ideaIds: ids, status: value } : { listId, status: value, ideaFilters: selectedFilters(filters, selection) },
      );
      notify.success(res.message);
      await reload();
    } catch (e) {
      notify.error(e instanceof Error ? e.message : 'Could not update the shortlist');
    } finally {
      setBusy(false);
    }
  };
  /** Downloads the ideas CSV; a refused or broken-off export says why. */
  const exportIdeas = async (body: Parameters<typeof api.lists.exportIdeas>[0]) => {
    try {
      await saveResponseAsFile(await api.lists.exportIdeas(body), 'ideas.csv');
    } catch (e) {
      notify.error(e instanceof Error && e.message ? e.message : 'Export failed');
    }
  };
  return { busy, setShortlist, exportIdeas };
}

/** The ideas table's own columns: shortlist star, name, website, status, sources, the sources' extra columns, enrichments, added. */
function useIdeaColumns(o: {
  rows: IdeaDto[];
  list: ListDto | undefined;
  enrichments: EnrichmentDto[] | undefined;
  setShortlist: (ids: string[] | null, value: boolean) => Promise<void>;
}) {
  const { rows, list, setShortlist } = o;
  const styles = useStyles();
  const qc = useQueryClient();
  // The list columns: the sources' extra columns (a CSV's other columns) seen on this page.
  const dataKeys = useMemo(() => [...new Set(rows.flatMap((r) => Object.keys(r.data ?? {})))].slice(0, 20), [rows]);
  const sourceType = useMemo(() => new Map((list?.sources ?? []).map((s) => [s.id, s.type])), [list]);
  const enrichmentColumns = useMemo(() => ideaEnrichmentColumns(o.enrichments ?? []), [o.enrichments]);
  const columns = useMemo<RecordColumn<IdeaDto>[]>(
    () => [
      shortlistColumn(styles.star, setShortlist),
      { key: 'name', label: 'Name', sortKey: 'name', pinned: true, text: (r) => r.name },
      { key: 'website', label: 'Website', sortKey: 'website', kind: 'url', text: (r) => r.website },
      IDEA_STATUS_COLUMN,
      { key: 'sources', label: 'Sources', text: (r) => r.sourceIds.map((id) => sourceLabel(sourceType.get(id) ?? '')).join(', ') },
      ...dataKeys.map((k) => dataColumn(k, rows)),
      // The idea enrichments' list columns (spec 002 §3 'List column'; width 70 px by default).
      ...enrichmentColumns.map((c): RecordColumn<IdeaDto> => ({
        key: c.key,
        label: c.label,
        width: c.width,
        kind: 'enrichment',
        text: (r) => {
          const cell = ideaEnrichmentCell(getCellResult(qc, c.enrichmentId, r.id), c);
          return cell.status === 'completed' ? cell.text : '';
        },
        render: (r) => <IdeaEnrichmentCell column={c} ideaId={r.id} />,
      })),
      { key: 'createdAt', label: 'Added', sortKey: 'createdAt', kind: 'date', text: (r) => formatDate(r.createdAt) },
    ],
    // setShortlist is not a dependency: the star reads the one of the render that made the columns, as before.
    [dataKeys, rows, sourceType, styles.star, enrichmentColumns, qc],
  );
  return { dataKeys, sourceType, enrichmentColumns, columns };
}

function shortlistColumn(starClass: string, setShortlist: (ids: string[] | null, value: boolean) => Promise<void>): RecordColumn<IdeaDto> {
  return {
    key: 'shortListed',
    label: 'Shortlist',
    sortKey: 'shortListed',
    kind: 'icon',
    pinned: true,
    text: (r) => (r.shortListed ? 'Yes' : 'No'),
    render: (r) => (
      <Button
        appearance="transparent"
        size="small"
        className={starClass}
        icon={r.shortListed ? <StarFilled color={tokens.colorPaletteMarigoldForeground1} /> : <StarRegular />}
        aria-pressed={r.shortListed}
        aria-label={r.shortListed ? `Remove ${r.name} from the shortlist` : `Shortlist ${r.name}`}
        onClick={(e) => {
          e.stopPropagation();
          void setShortlist([r.id], !r.shortListed);
        }}
        data-testid={`idea-shortlist-${r.id}`}
      />
    ),
  };
}

const IDEA_STATUS_COLUMN: RecordColumn<IdeaDto> = {
  key: 'status',
  label: 'Status',
  sortKey: 'status',
  kind: 'status',
  text: (r) => IDEA_STATUS_LABEL[r.status],
  render: (r) => (
    <Badge
      appearance="tint"
      color={r.status === 'inDealscout' ? 'success' : r.status === 'invalid' ? 'danger' : 'informative'}
      data-testid="idea-status"
    >
      {IDEA_STATUS_LABEL[r.status]}
    </Badge>
  ),
};

/** A source column (a CSV's other column); one of plain numbers reads like a number field ('1,625', as in the companies table). */
function dataColumn(k: string, rows: IdeaDto[]): RecordColumn<IdeaDto> {
  const numeric =
    untypedColumnType(
      k,
      rows.map((r) => r.data?.[k]),
    ) === 'number';
  const hint = { key: k, dataType: numeric ? 'number' : undefined };
  return {
    key: `data.${k}`,
    label: k,
    kind: numeric ? ('number' as const) : ('text' as const),
    text: (r: IdeaDto) => valueText(formatValue(r.data?.[k], hint)) ?? '',
    render: (r: IdeaDto) => <ValueView value={formatValue(r.data?.[k], hint)} />,
  };
}

/**
 * Widths: the one just set here, else the saved one (the user's for this list; an enrichment's on its list column), else none:
 * the table sizes the column from its kind and content. A resized enrichment column keeps its width in the enrichment's list
 * columns (PUT /enrichment/column, the list's own, seen by everyone); the others with the user's settings, per list.
 */
function useColumnWidths(o: {
  listId: string;
  columns: RecordColumn<IdeaDto>[];
  scoringColumns: RecordColumn<IdeaDto>[];
  savedWidths: Readonly<Record<string, number>> | undefined;
  enrichmentColumns: IdeaEnrichmentColumn[];
  enrichments: EnrichmentDto[] | undefined;
  onColumnWidthChange: ((key: string, width: number) => void) | undefined;
}) {
  const { columns, scoringColumns, savedWidths } = o;
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  /** Widths the user gave columns in this view (the enrichment columns' are also saved on the enrichment). */
  const [widths, setWidths] = useState<Record<string, number>>({});
  const allColumns = useMemo(
    () =>
      [...columns.slice(0, -1), ...scoringColumns, ...columns.slice(-1)].map((c) => {
        const w = widths[c.key] ?? (c.key.startsWith('enrichment:') ? undefined : savedWidths?.[c.key]);
        return w ? { ...c, width: w } : c;
      }),
    [columns, scoringColumns, widths, savedWidths],
  );
  const onColumnResize = (key: string, width: number) => {
    setWidths((w) => ({ ...w, [key]: width }));
    const col = o.enrichmentColumns.find((c) => c.key === key);
    const e = col && o.enrichments?.find((x) => x.id === col.enrichmentId);
    if (!e) {
      o.onColumnWidthChange?.(key, width);
      return;
    }
    void api.enrichments
      .setColumns({ enrichmentId: e.id, listColumns: listColumnsWithWidth(e, key, width) })
      .then(() => qc.invalidateQueries({ queryKey: listEnrichmentsKey(o.listId) }))
      .catch((err: unknown) => notify.error(err instanceof Error ? err.message : 'Could not save the column width'));
  };
  return { allColumns, onColumnResize };
}

/** Which dialogs (and the idea drawer) are open. */
function useListDialogs() {
  const [openIdeaId, setOpenIdeaId] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [adding, setAdding] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [providerKind, setProviderKind] = useState<ProviderKind | null>(null);
  const [filtering, setFiltering] = useState(false);
  const [completing, setCompleting] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState<{ open: boolean; count: number }>({ open: false, count: 0 });
  const [confirmDeleteList, setConfirmDeleteList] = useState(false);
  const [enriching, setEnriching] = useState(false);
  /** Runs started on this page (their progress lines show at once, before the user's runs are read again). */
  const [startedRuns, setStartedRuns] = useState<string[]>([]);
  return {
    ...{ openIdeaId, setOpenIdeaId, renaming, setRenaming, adding, setAdding, uploading, setUploading, providerKind, setProviderKind },
    ...{ filtering, setFiltering, completing, setCompleting, confirmDelete, setConfirmDelete, confirmDeleteList, setConfirmDeleteList },
    ...{ enriching, setEnriching, startedRuns, setStartedRuns },
  };
}
type ListDialogs = ReturnType<typeof useListDialogs>;

/** This list's runs (its idea enrichments and score runs, and its sources being added) and the enrichments' names and schemas. */
function useListRuns(list: ListDto | undefined, enrichments: EnrichmentDto[] | undefined) {
  const enrichmentNames = useMemo(() => new Map((enrichments ?? []).map((e) => [e.id, e.name])), [enrichments]);
  const isListRun = (r: RunProgressDto) =>
    (r.entityType === 'idea' && (r.type === 'score' || enrichmentNames.has(r.typeId ?? ''))) ||
    (r.type === 'list' && (list?.sources ?? []).some((s) => s.id === r.typeId));
  const enrichmentSchemas = useMemo(() => new Map((enrichments ?? []).map((e) => [e.id, e.data.schema])), [enrichments]);
  return { enrichmentNames, enrichmentSchemas, isListRun };
}

/** The page's state, data and actions, composed from the hooks above. */
function useListIdeasPage(props: ListIdeasProps) {
  const { listId } = props;
  const view = useIdeaView(listId);
  const { selection, filters } = view;
  const data = useListIdeasData(listId, view.query);
  const { list, rows, total, reload } = data;
  const enrichmentList = data.enrichments.data?.enrichments;
  const actions = useIdeaActions(listId, filters, selection, reload);
  const dialogs = useListDialogs();
  const { dataKeys, sourceType, enrichmentColumns, columns } = useIdeaColumns({
    rows,
    list,
    enrichments: enrichmentList,
    setShortlist: actions.setShortlist,
  });
  // Scoring: the Score menu, a score column per model, runs and their breakdowns.
  const scoring = useListScoring({
    listId,
    listName: list?.name ?? '',
    rows,
    dataKeys,
    enrichments: enrichmentList ?? [],
    filters,
    onReload: reload,
  });
  const { allColumns, onColumnResize } = useColumnWidths({
    ...{ listId, columns, scoringColumns: scoring.columns, savedWidths: props.columnWidths, enrichmentColumns },
    ...{ enrichments: enrichmentList, onColumnWidthChange: props.onColumnWidthChange },
  });
  const runs = useListRuns(list, enrichmentList);
  const selectionIds = selection.kind === 'ids' ? [...selection.ids] : null;
  const count = selectedCount(selection, total);
  const openIdea = rows.find((r) => r.id === dialogs.openIdeaId) ?? null;
  return { view, data, actions, dialogs, sourceType, scoring, allColumns, onColumnResize, runs, selectionIds, count, openIdea };
}

export function ListIdeas(props: ListIdeasProps) {
  const { listId } = props;
  const styles = useStyles();
  const pluginMode = usePluginMode();
  const m = useListIdeasPage(props);
  const { view, data, actions, dialogs, scoring, runs, selectionIds, count, openIdea } = m;
  const { list, rows, total, reload } = data;

  if (data.listQuery.isError)
    return <Text role="alert">{data.listQuery.error instanceof Error ? data.listQuery.error.message : LIST_MESSAGES.listNotFound}</Text>;

  return (
    <div className={styles.page} data-testid="list-page">
      <section className={mergeClasses(styles.root, pluginMode && styles.plugin)} aria-label="Ideas">
        <ListHead list={list} dialogs={dialogs} />
        <ListSources list={list} reload={reload} />
        <IdeasToolbar
          view={view}
          list={list}
          sourceType={m.sourceType}
          scoringToolbar={scoring.toolbar}
          exportDisabled={total === 0 || actions.busy}
          onExport={() => void actions.exportIdeas({ listCompanyId: listId, ideaFilters: view.filters })}
        />
        {count > 0 && (
          <BulkBar {...{ listId, view, count, total, about: data.about, pageIds: rows.map((r) => r.id), actions, selectionIds, dialogs }} />
        )}
        <ActiveRuns started={dialogs.startedRuns} match={(r) => runs.isListRun(r)} style={{ marginBottom: tokens.spacingVerticalS }} />
        <IdeasTable {...{ view, page: data.page, rows, total, dialogs }} columns={m.allColumns} onColumnResize={m.onColumnResize} />
      </section>
      {openIdea && list && (
        <IdeaDrawer
          idea={openIdea}
          sources={list.sources}
          enrichmentNames={runs.enrichmentNames}
          enrichmentSchemas={runs.enrichmentSchemas}
          groups={props.drawerGroups}
          onGroupsChange={props.onDrawerGroupsChange}
          onShortlist={(i, v) => void actions.setShortlist([i.id], v)}
          onClose={() => dialogs.setOpenIdeaId(null)}
        />
      )}
      {scoring.dialogs}
      <EnrichIdeasDialog
        open={dialogs.enriching}
        listId={listId}
        ideaIds={selectionIds}
        count={count}
        filters={selectedFilters(view.filters, view.selection)}
        sort={view.sort}
        onClose={() => dialogs.setEnriching(false)}
        onStarted={(runId) => {
          view.setSelection(NO_SELECTION);
          if (runId) dialogs.setStartedRuns((r) => [...r, runId]);
        }}
      />
      <ListDialogsView listId={listId} list={list} dialogs={dialogs} reload={reload} />
      <DeleteIdeasDialog listId={listId} view={view} about={data.about} selectionIds={selectionIds} dialogs={dialogs} reload={reload} />
      <DeleteListDialog listId={listId} list={list} dialogs={dialogs} onDeleted={props.onDeleted} />
    </div>
  );
}

/** '1,234 ideas · 56 shortlisted · 2 sources'. */
function listTotalsText(list: ListDto): string {
  const ideas = `${list.totalIdeas.toLocaleString('en-US')} ideas`;
  const shortlisted = `${list.totalShortListedIdeas.toLocaleString('en-US')} shortlisted`;
  return `${ideas} · ${shortlisted} · ${list.totalSources} source${list.totalSources === 1 ? '' : 's'}`;
}

/** The list's name, totals and actions. */
function ListHead({ list, dialogs }: { list: ListDto | undefined; dialogs: ListDialogs }) {
  const styles = useStyles();
  return (
    <div className={styles.head}>
      <Text className={styles.name} data-testid="list-name">
        {list?.name ?? ''}
      </Text>
      <Button
        appearance="subtle"
        size="small"
        icon={<EditRegular />}
        aria-label="Rename list"
        onClick={() => dialogs.setRenaming(true)}
        data-testid="list-rename"
      />
      {list?.status === 'completed' && (
        <Badge appearance="tint" color="success">
          Completed
        </Badge>
      )}
      <Text className={styles.totals} data-testid="list-totals">
        {list ? listTotalsText(list) : ''}
      </Text>
      <div className={styles.end}>
        <Button size="small" icon={<AddRegular />} onClick={() => dialogs.setAdding(true)} data-testid="list-add-idea">
          Add company
        </Button>
        <Button size="small" icon={<ArrowUploadRegular />} onClick={() => dialogs.setUploading(true)} data-testid="list-upload-csv">
          Upload CSV or Excel
        </Button>
        <AddSourceMenu onFilter={() => dialogs.setFiltering(true)} onProvider={dialogs.setProviderKind} />
        <Button
          size="small"
          appearance="primary"
          icon={<CheckmarkCircleRegular />}
          disabled={!list || list.totalShortListedIdeas === 0}
          onClick={() => dialogs.setCompleting(true)}
          data-testid="list-complete"
        >
          Complete list
        </Button>
        <Button
          size="small"
          appearance="subtle"
          icon={<DeleteRegular />}
          aria-label="Delete list"
          onClick={() => dialogs.setConfirmDeleteList(true)}
          data-testid="list-delete"
        />
      </div>
    </div>
  );
}

function AddSourceMenu(props: { onFilter: () => void; onProvider: (kind: ProviderKind) => void }) {
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" icon={<DatabaseSearchRegular />} data-testid="list-add-source">
          Add source
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem onClick={props.onFilter} data-testid="list-add-source-filter">
            {sourceLabel('filter')}
          </MenuItem>
          {PROVIDER_KINDS.map((k) => (
            <MenuItem key={k} onClick={() => props.onProvider(k)} data-testid={`list-add-source-${k}`}>
              {sourceLabel(k)}
            </MenuItem>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/** The list's sources: per-source status and totals, removable. */
function ListSources({ list, reload }: { list: ListDto | undefined; reload: () => Promise<void> }) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  if (!list || list.sources.length === 0) return null;
  return (
    <div className={styles.sources} aria-label="Sources" data-testid="list-sources">
      {list.sources.map((s) => (
        <span key={s.id} className={styles.source} data-testid="list-source" data-status={s.status}>
          <Text weight="semibold">{sourceLabel(s.type)}</Text>
          <Text size={200}>
            {s.total.toLocaleString('en-US')} ideas · {s.shortlisted.toLocaleString('en-US')} shortlisted
          </Text>
          {s.status !== 'completed' && (
            <Badge size="small" appearance="tint" color={s.status === 'failed' ? 'danger' : 'informative'}>
              {s.status === 'inProgress' ? 'In progress' : s.status}
            </Badge>
          )}
          {s.statusReason && (
            <Text size={200} title={s.statusReason}>
              {s.statusReason}
            </Text>
          )}
          <Button
            appearance="transparent"
            size="small"
            icon={<DismissRegular />}
            aria-label={`Remove source ${sourceLabel(s.type)}`}
            onClick={async () => {
              await api.lists.removeSource(s.id);
              notify.success(LIST_MESSAGES.sourceRemoved);
              await reload();
            }}
          />
        </span>
      ))}
    </div>
  );
}

/** Search, the shortlist, status and source filters, the Score menu and Export. */
function IdeasToolbar(props: {
  view: IdeaView;
  list: ListDto | undefined;
  sourceType: ReadonlyMap<string, string>;
  scoringToolbar: ReactNode;
  exportDisabled: boolean;
  onExport: () => void;
}) {
  const { view, list } = props;
  const styles = useStyles();
  return (
    <div className={styles.toolbar} role="toolbar" aria-label="Ideas toolbar">
      <SearchBox
        className={styles.search}
        placeholder="Search ideas"
        aria-label="Search ideas"
        value={view.searchInput}
        maxLength={200}
        onChange={(_, d) => view.setSearchInput(d.value)}
        data-testid="ideas-search"
      />
      <IdeaFilterDropdowns view={view} />
      {list && list.sources.length > 1 && (
        <Dropdown
          className={styles.dropdown}
          aria-label="Sources"
          multiselect
          placeholder="All sources"
          selectedOptions={view.sourceIds}
          value={view.sourceIds.map((id) => sourceLabel(props.sourceType.get(id) ?? '')).join(', ')}
          onOptionSelect={(_, d) => {
            view.setSourceIds(d.selectedOptions);
            view.resetView();
          }}
        >
          {list.sources.map((s) => (
            <Option key={s.id} value={s.id}>{`${sourceLabel(s.type)} (${s.total})`}</Option>
          ))}
        </Dropdown>
      )}
      <div className={styles.end}>
        {props.scoringToolbar}
        <Button
          size="small"
          appearance="subtle"
          icon={<ArrowDownloadRegular />}
          disabled={props.exportDisabled}
          onClick={props.onExport}
          data-testid="ideas-export"
        >
          Export
        </Button>
      </div>
    </div>
  );
}

/** The shortlist and status filters. */
function IdeaFilterDropdowns({ view }: { view: IdeaView }) {
  const styles = useStyles();
  const { inShortlist, status } = view;
  return (
    <>
      <Dropdown
        className={styles.dropdown}
        aria-label="Shortlist"
        value={inShortlist === null ? 'All ideas' : inShortlist ? 'Shortlisted' : 'Not shortlisted'}
        selectedOptions={[inShortlist === null ? '' : String(inShortlist)]}
        onOptionSelect={(_, d) => {
          view.setInShortlist(d.optionValue === '' ? null : d.optionValue === 'true');
          view.resetView();
        }}
        data-testid="ideas-shortlist-filter"
      >
        <Option value="">All ideas</Option>
        <Option value="true">Shortlisted</Option>
        <Option value="false">Not shortlisted</Option>
      </Dropdown>
      <Dropdown
        className={styles.dropdown}
        aria-label="Status"
        value={status ? IDEA_STATUS_LABEL[status] : 'Any status'}
        selectedOptions={[status]}
        onOptionSelect={(_, d) => {
          view.setStatus((d.optionValue ?? '') as IdeaStatus | '');
          view.resetView();
        }}
        data-testid="ideas-status-filter"
      >
        <Option value="">Any status</Option>
        <Option value="idea">Idea</Option>
        <Option value="inDealscout">In Dealscout</Option>
        <Option value="invalid">Invalid</Option>
      </Dropdown>
    </>
  );
}

/** The bulk bar (spec 002 §4 'Bulk selection'): the count, select all across pages, clear, and the bulk actions. */
function BulkBar(props: {
  listId: string;
  view: IdeaView;
  count: number;
  total: number;
  about: string;
  pageIds: string[];
  actions: ReturnType<typeof useIdeaActions>;
  selectionIds: string[] | null;
  dialogs: ListDialogs;
}) {
  const { listId, view, count, total, about, actions, selectionIds } = props;
  const busy = actions.busy;
  const styles = useStyles();
  const allAcross = view.selection.kind === 'all';
  const shortlist = async (value: boolean) => {
    await actions.setShortlist(selectionIds, value);
    view.setSelection(NO_SELECTION);
  };
  const exportSelected = () =>
    void actions.exportIdeas(
      selectionIds
        ? { listCompanyId: listId, ideaIds: selectionIds }
        : { listCompanyId: listId, ideaFilters: selectedFilters(view.filters, view.selection) },
    );
  return (
    <div
      className={styles.bulk}
      role="region"
      aria-label="Bulk actions"
      data-testid="bulk-action-bar"
      data-all-selected={allAcross ? 'true' : 'false'}
    >
      <Text weight="semibold" data-testid="bulk-selected-count">
        {allAcross ? `All ${about}${count.toLocaleString('en-US')} ideas selected` : `${count.toLocaleString('en-US')} selected`}
      </Text>
      {!allAcross && pageSelectionState(view.selection, props.pageIds) === 'all' && total > count && (
        <Link as="button" onClick={() => view.setSelection({ kind: 'all', excludeIds: new Set() })} data-testid="bulk-select-all-across">
          Select all {about}
          {total.toLocaleString('en-US')} across pages
        </Link>
      )}
      <Link as="button" onClick={() => view.setSelection(NO_SELECTION)} data-testid="bulk-clear">
        Clear selection
      </Link>
      <div className={styles.bulkActions}>
        <Button
          size="small"
          icon={<SparkleRegular />}
          disabled={busy}
          onClick={() => props.dialogs.setEnriching(true)}
          data-testid="bulk-enrich"
        >
          Enrich
        </Button>
        <Button size="small" icon={<StarFilled />} disabled={busy} onClick={() => shortlist(true)} data-testid="bulk-shortlist">
          Shortlist
        </Button>
        <Button size="small" icon={<StarRegular />} disabled={busy} onClick={() => shortlist(false)} data-testid="bulk-unshortlist">
          Remove from shortlist
        </Button>
        <Button size="small" icon={<ArrowDownloadRegular />} disabled={busy} onClick={exportSelected} data-testid="bulk-export">
          Export
        </Button>
        <Button
          size="small"
          icon={<DeleteRegular />}
          disabled={busy}
          onClick={() => props.dialogs.setConfirmDelete({ open: true, count })}
          data-testid="bulk-delete"
        >
          Delete
        </Button>
      </div>
    </div>
  );
}

/** The ideas table and its pagination. */
function IdeasTable(props: {
  view: IdeaView;
  page: ReturnType<typeof useListIdeasData>['page'];
  columns: RecordColumn<IdeaDto>[];
  rows: IdeaDto[];
  total: number;
  onColumnResize: (key: string, width: number) => void;
  dialogs: ListDialogs;
}) {
  const { view, page, dialogs } = props;
  return (
    <>
      <RecordTable<IdeaDto>
        aria-label="Ideas"
        entityType="idea"
        columns={props.columns}
        rows={props.rows}
        getRowId={(r) => r.id}
        sort={view.sort}
        defaultSort={IDEA_DEFAULT_SORT}
        onSortChange={(s) => {
          view.setSort(s);
          view.setPageIndex(0);
        }}
        onColumnResize={props.onColumnResize}
        selection={view.selection}
        onSelectionChange={view.setSelection}
        onRowClick={(r) => dialogs.setOpenIdeaId(r.id)}
        activeRowId={dialogs.openIdeaId}
        loading={page.isPending}
        fetching={page.isFetching}
        error={page.isError && !page.data ? (page.error instanceof Error ? page.error.message : 'Could not load the ideas') : null}
        emptyText={view.hasFilters ? 'No ideas match the search and filters.' : 'No ideas yet. Add a company or a source to start.'}
      />
      <PaginationBar
        pageIndex={view.pageIndex}
        pageSize={view.pageSize}
        totalPages={Math.max(1, page.data?.totalPages ?? 1)}
        totalRecords={page.data ? props.total : undefined}
        totalIsEstimate={page.data?.totalIsEstimate}
        onPageChange={view.setPageIndex}
        onPageSizeChange={(s) => {
          view.setPageSize(s);
          view.resetView();
        }}
      />
    </>
  );
}

/** Rename, add a company, add a source (filter or provider), upload a CSV or Excel file, complete the list. */
function ListDialogsView(props: { listId: string; list: ListDto | undefined; dialogs: ListDialogs; reload: () => Promise<void> }) {
  const { listId, dialogs, reload } = props;
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  const surface = useModalSurfaceStyle();
  const notifyAndReload = async (message: string) => {
    notify.success(message);
    await reload();
  };
  return (
    <>
      <NameDialog
        open={dialogs.renaming}
        title="Rename list"
        initial={props.list?.name}
        confirmLabel="Save"
        onClose={() => dialogs.setRenaming(false)}
        onSave={async (name) => {
          await api.lists.rename(listId, name);
          await notifyAndReload(LIST_MESSAGES.listRenamed);
        }}
      />
      <AddIdeaDialog
        open={dialogs.adding}
        onClose={() => dialogs.setAdding(false)}
        onSave={async (companyName, website) => {
          const res = await api.lists.addIdea({ id: listId, companyName, website });
          await notifyAndReload(res.message);
        }}
        surface={surface}
      />
      {dialogs.providerKind && (
        <AddSourceDialog
          key={dialogs.providerKind}
          open
          kind={dialogs.providerKind}
          listId={listId}
          onClose={() => dialogs.setProviderKind(null)}
          onAdded={notifyAndReload}
        />
      )}
      {dialogs.filtering && (
        <FilterSourceDialog open listId={listId} onClose={() => dialogs.setFiltering(false)} onAdded={notifyAndReload} />
      )}
      <UploadCsvDialog
        open={dialogs.uploading}
        listId={listId}
        onClose={() => dialogs.setUploading(false)}
        onUploaded={(res) => notifyAndReload(res.message)}
      />
      <CompleteDialog
        open={dialogs.completing}
        listId={listId}
        onClose={() => dialogs.setCompleting(false)}
        onDone={async (message) => {
          await notifyAndReload(message);
          await qc.invalidateQueries({ queryKey: queryKeys.companies });
        }}
      />
    </>
  );
}

/** The bulk delete's confirmation: by ids, or by the table's filters when all are selected across pages. */
function DeleteIdeasDialog(props: {
  listId: string;
  view: IdeaView;
  about: string;
  selectionIds: string[] | null;
  dialogs: ListDialogs;
  reload: () => Promise<void>;
}) {
  const { listId, view, selectionIds, dialogs } = props;
  const { confirmDelete, setConfirmDelete, openIdeaId } = dialogs;
  const api = useApi();
  const notify = useNotify();
  const allAcross = view.selection.kind === 'all';
  const n = confirmDelete.count;
  return (
    <ConfirmDialog
      open={confirmDelete.open}
      type="delete"
      title="Delete ideas"
      message={`Delete ${allAcross ? props.about : ''}${n.toLocaleString('en-US')} idea${n === 1 ? '' : 's'}? This cannot be undone.`}
      onCancel={() => setConfirmDelete((c) => ({ ...c, open: false }))}
      onConfirm={async () => {
        const res = await api.lists.deleteIdeas(
          selectionIds
            ? { listCompanyId: listId, listCompanyIdeaIds: selectionIds }
            : { listCompanyId: listId, ideaFilters: selectedFilters(view.filters, view.selection) },
        );
        setConfirmDelete((c) => ({ ...c, open: false }));
        view.setSelection(NO_SELECTION);
        if (openIdeaId && (!selectionIds || selectionIds.includes(openIdeaId))) dialogs.setOpenIdeaId(null);
        notify.success(res.message);
        await props.reload();
      }}
      data-testid="bulk-delete-dialog"
    />
  );
}

function DeleteListDialog(props: { listId: string; list: ListDto | undefined; dialogs: ListDialogs; onDeleted: () => void }) {
  const { dialogs } = props;
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  return (
    <ConfirmDialog
      open={dialogs.confirmDeleteList}
      type="delete"
      title="Delete list"
      message={`Delete the list '${props.list?.name ?? ''}' with its sources and ideas? Companies already taken in stay.`}
      onCancel={() => dialogs.setConfirmDeleteList(false)}
      onConfirm={async () => {
        await api.lists.remove(props.listId);
        dialogs.setConfirmDeleteList(false);
        notify.success(LIST_MESSAGES.listDeleted);
        await qc.invalidateQueries({ queryKey: queryKeys.lists });
        props.onDeleted();
      }}
    />
  );
}

function AddIdeaDialog(props: {
  open: boolean;
  onClose: () => void;
  onSave: (name: string, website: string) => Promise<void>;
  surface: React.CSSProperties | undefined;
}) {
  const [name, setName] = useState('');
  const [website, setWebsite] = useState('');
  const [errors, setErrors] = useState<{ name?: string; website?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (props.open) {
      setName('');
      setWebsite('');
      setErrors({});
    }
  }, [props.open]);
  const save = async () => {
    const problems = companyProblems({ name, website });
    if (problems.name || problems.website) return setErrors(problems);
    setBusy(true);
    try {
      await props.onSave(name.trim(), website.trim());
      props.onClose();
    } catch (e) {
      setErrors({ form: e instanceof Error ? e.message : 'Could not add the company' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={props.open}
      onOpenChange={(_, d) => {
        if (!d.open) props.onClose();
      }}
    >
      <DialogSurface style={props.surface} data-testid="add-idea-dialog">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <DialogBody>
            <DialogTitle>Add company</DialogTitle>
            <DialogContent>
              <Field label="Company name" required validationMessage={errors.name}>
                <Input value={name} onChange={(_, d) => setName(d.value)} data-testid="add-idea-name" autoFocus />
              </Field>
              <Field label="Website" required validationMessage={errors.website}>
                <Input value={website} onChange={(_, d) => setWebsite(d.value)} placeholder="example.com" data-testid="add-idea-website" />
              </Field>
              {errors.form && (
                <Text role="alert" style={{ color: tokens.colorPaletteRedForeground1 }} data-testid="add-idea-error">
                  {errors.form}
                </Text>
              )}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={props.onClose}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={busy} data-testid="add-idea-save">
                Add
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/** The completion confirmation with its totals (spec 002 §2, §7). */
function CompleteDialog(props: { open: boolean; listId: string; onClose: () => void; onDone: (message: string) => Promise<void> }) {
  const api = useApi();
  const styles = useStyles();
  const conf = useQuery({
    queryKey: ['lists', 'complete-confirmation', props.listId],
    queryFn: () => api.lists.completeConfirmation(props.listId),
    enabled: props.open,
    staleTime: 0,
  });
  return (
    <ConfirmDialog
      open={props.open}
      type="warning"
      title="Complete list"
      confirmLabel="Complete"
      message="The shortlisted ideas are taken into your companies. A company that already exists with the same domain is linked, not duplicated."
      confirmDisabled={!conf.data || conf.data.total === 0}
      onCancel={props.onClose}
      onConfirm={async () => {
        const res = await api.lists.complete(props.listId);
        props.onClose();
        await props.onDone(`${res.message}: ${res.created} new compan${res.created === 1 ? 'y' : 'ies'}, ${res.linked} linked`);
      }}
      data-testid="complete-dialog"
    >
      <div className={styles.totalsGrid} data-testid="complete-totals">
        <Text>Shortlisted ideas</Text>
        <Text weight="semibold" data-testid="complete-total">
          {conf.data?.total ?? '…'}
        </Text>
        <Text>Already companies</Text>
        <Text weight="semibold" data-testid="complete-existing">
          {conf.data?.existing ?? '…'}
        </Text>
        <Text>New companies</Text>
        <Text weight="semibold" data-testid="complete-candidate">
          {conf.data?.candidate ?? '…'}
        </Text>
      </div>
    </ConfirmDialog>
  );
}
