// /enrichments: the enrichment table (spec 001 §2 'Enrichment table', §4 'Table filters', §5, §9;
// spec 002 §7 POST /enrichment/list). Columns Enrichment, Entity, Assigned Field, Is Primary,
// Created By, Created Date, Last Modified At, Actions; a Search Enrichment box, the Provider,
// Created By and Created Date filters, Clear filters, and the pagination bar.
import { useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Menu,
  MenuItemCheckbox,
  MenuList,
  MenuPopover,
  MenuTrigger,
  SearchBox,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular, DismissCircleRegular, EditRegular, FilterRegular } from '@fluentui/react-icons';
import type { EnrichmentDto, EnrichmentListBody } from '@dealscout/shared/contracts';
import { ENRICHMENT_PROVIDERS, ENRICHMENT_TYPE_LABELS, DEFAULT_PAGE_SIZE, timeAgo } from '@dealscout/shared/domain';
import {
  ColorDot,
  ConfirmDialog,
  DateRangePicker,
  EditEnrichment,
  NewEnrichmentFlow,
  PaginationBar,
  enrichmentKeys,
  nextSort,
  useNotify,
  type DateRange,
  type SortState,
} from '@dealscout/shared/ui';
import { api, errorMessage } from '../../../app/api';

export const ENRICHMENT_SEARCH_DEBOUNCE_MS = 300;

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
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  search: { width: '260px', maxWidth: '100%' },
  end: { marginLeft: 'auto' },
  scroll: { flexGrow: 1, minHeight: 0, overflow: 'auto' },
  name: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  nameText: { fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  sub: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  muted: { color: tokens.colorNeutralForeground4 },
  message: { padding: tokens.spacingVerticalXXL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  sortable: { cursor: 'pointer' },
});

const COLUMNS: { key: string; label: string; sortKey?: string; width: string }[] = [
  { key: 'name', label: 'Enrichment', sortKey: 'name', width: '24%' },
  { key: 'entity', label: 'Entity', sortKey: 'entityType', width: '9%' },
  { key: 'field', label: 'Assigned Field', sortKey: 'field', width: '15%' },
  { key: 'primary', label: 'Is Primary', sortKey: 'isPrimary', width: '9%' },
  { key: 'createdBy', label: 'Created By', sortKey: 'createdBy', width: '13%' },
  { key: 'createdAt', label: 'Created Date', sortKey: 'createdAt', width: '11%' },
  { key: 'updatedAt', label: 'Last Modified At', sortKey: 'updatedAt', width: '11%' },
  { key: 'actions', label: 'Actions', width: '8%' },
];

const fmtDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const personName = (p: { firstName: string; lastName: string } | null) => (p ? `${p.firstName} ${p.lastName}`.trim() : '');

function MultiFilter({
  label,
  options,
  selected,
  onChange,
  testId,
}: {
  label: string;
  options: readonly { value: string; label: string }[];
  selected: readonly string[];
  onChange: (v: string[]) => void;
  testId: string;
}) {
  const chosen = options.filter((o) => selected.includes(o.value)).map((o) => o.label);
  const text =
    chosen.length === 0
      ? label
      : chosen.length <= 2
        ? `${label}: ${chosen.join(', ')}`
        : `${label}: ${chosen.slice(0, 2).join(', ')} +${chosen.length - 2} more`;
  return (
    <Menu checkedValues={{ [testId]: [...selected] }} onCheckedValueChange={(_, d) => onChange(d.checkedItems)}>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" appearance={selected.length ? 'primary' : 'outline'} icon={<FilterRegular />} data-testid={testId}>
          {text}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {options.length === 0 && (
            <Text size={200} style={{ padding: 8 }}>
              Nothing to pick yet.
            </Text>
          )}
          {options.map((o) => (
            <MenuItemCheckbox key={o.value} name={testId} value={o.value} data-testid={`${testId}-option`}>
              {o.label}
            </MenuItemCheckbox>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

export default function EnrichmentsPage() {
  const styles = useStyles();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [searchInput, setSearchInput] = useState('');
  const [text, setText] = useState('');
  const [provider, setProvider] = useState<string[]>([]);
  const [createdBy, setCreatedBy] = useState<string[]>([]);
  const [createdAt, setCreatedAt] = useState<DateRange | null>(null);
  const [sort, setSort] = useState<SortState | null>(null);
  const [pageIndex, setPageIndex] = useState(0);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<EnrichmentDto | null>(null);
  const [deleting, setDeleting] = useState<EnrichmentDto | null>(null);

  // Any filter change goes back to the first page (spec 001 §4).
  useEffect(() => {
    const t = setTimeout(() => {
      setText(searchInput.trim());
      setPageIndex(0);
    }, ENRICHMENT_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [searchInput]);
  const filter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPageIndex(0);
    };

  const body: EnrichmentListBody = {
    text,
    provider: provider as EnrichmentListBody['provider'],
    createdBy,
    createdAt: createdAt ? { from: createdAt.from, to: createdAt.to } : null,
    pageIndex,
    pageSize,
    sortKey: sort?.key ?? null,
    sortOrder: sort?.order ?? null,
  };
  // Enrichments have no realtime events: the table re-reads on each visit (staleTime 0).
  const list = useQuery({
    queryKey: enrichmentKeys.list(body),
    queryFn: () => api.enrichments.list(body),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const creators = useQuery({
    queryKey: enrichmentKeys.creators,
    queryFn: async () => (await api.enrichments.creators()).users,
    staleTime: 60_000,
  });
  const creatorOptions = useMemo(() => (creators.data ?? []).map((u) => ({ value: u.id, label: personName(u) })), [creators.data]);
  const rows = list.data?.enrichments ?? [];
  const totalPages = Math.max(1, list.data?.totalPages ?? 1);
  const filtered = text !== '' || provider.length > 0 || createdBy.length > 0 || !!createdAt;

  // After a delete the page may be past the end.
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && pageIndex > Math.max(0, list.data.totalPages - 1))
      setPageIndex(Math.max(0, list.data.totalPages - 1));
  }, [list.data, list.isPlaceholderData, pageIndex]);

  const clearFilters = () => {
    setSearchInput('');
    setText('');
    setProvider([]);
    setCreatedBy([]);
    setCreatedAt(null);
    setPageIndex(0);
  };

  const remove = async () => {
    if (!deleting) return;
    const res = await api.enrichments.remove(deleting.id).catch((e: unknown) => {
      throw new Error(errorMessage(e, 'Could not delete the enrichment.'));
    });
    setDeleting(null);
    notify.success(res.message);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: enrichmentKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['fields'] }),
    ]);
  };

  return (
    <div className="ds-table-page" data-testid="enrichments-page">
      <section className={styles.root} aria-label="Enrichments">
        <div className={styles.toolbar} role="toolbar" aria-label="Enrichments toolbar">
          <SearchBox
            className={styles.search}
            size="medium"
            placeholder="Search Enrichment"
            aria-label="Search Enrichment"
            value={searchInput}
            maxLength={200}
            onChange={(_, d) => setSearchInput(d.value)}
            data-testid="enrichment-search"
          />
          <MultiFilter
            label="Provider"
            options={ENRICHMENT_PROVIDERS}
            selected={provider}
            onChange={filter(setProvider)}
            testId="enrichment-filter-provider"
          />
          <MultiFilter
            label="Created By"
            options={creatorOptions}
            selected={createdBy}
            onChange={filter(setCreatedBy)}
            testId="enrichment-filter-created-by"
          />
          <DateRangePicker label="Created Date" value={createdAt} onChange={filter(setCreatedAt)} />
          {filtered && (
            <Button
              size="small"
              appearance="subtle"
              icon={<DismissCircleRegular />}
              onClick={clearFilters}
              data-testid="enrichment-clear-filters"
            >
              Clear filters
            </Button>
          )}
          <Button
            className={styles.end}
            appearance="primary"
            size="small"
            icon={<AddRegular />}
            onClick={() => setCreating(true)}
            data-testid="enrichment-new"
          >
            New Enrichment
          </Button>
        </div>
        <div className={styles.scroll}>
          <Table aria-label="Enrichments" size="small" data-testid="enrichment-table" style={{ tableLayout: 'fixed', minWidth: 900 }}>
            <TableHeader>
              <TableRow>
                {COLUMNS.map((c) => {
                  const sorted = sort && c.sortKey && sort.key === c.sortKey ? sort.order : undefined;
                  return (
                    <TableHeaderCell
                      key={c.key}
                      style={{ width: c.width }}
                      sortDirection={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                      onClick={
                        c.sortKey
                          ? () => {
                              setSort(nextSort(sort, c.sortKey!));
                              setPageIndex(0);
                            }
                          : undefined
                      }
                      className={c.sortKey ? styles.sortable : undefined}
                      data-testid="enrichment-table-header"
                    >
                      {c.label}
                    </TableHeaderCell>
                  );
                })}
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.isPending ? (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length}>
                    <div className={styles.message}>
                      <Spinner size="small" label="Loading..." />
                    </div>
                  </TableCell>
                </TableRow>
              ) : list.isError && !list.data ? (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length}>
                    <div className={styles.message} role="alert">
                      {errorMessage(list.error, 'Could not load the enrichments.')}
                    </div>
                  </TableCell>
                </TableRow>
              ) : rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length}>
                    <div className={styles.message} data-testid="enrichment-table-empty">
                      {filtered
                        ? 'No enrichments match the search and filters.'
                        : 'No enrichments yet. Create one to fill your fields with AI.'}
                    </div>
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((e) => (
                  <TableRow key={e.id} data-testid="enrichment-row" data-id={e.id}>
                    <TableCell>
                      <div className={styles.name}>
                        <ColorDot color={e.color} />
                        <div style={{ minWidth: 0 }}>
                          <div className={styles.nameText} title={e.name}>
                            {e.name}
                          </div>
                          <div className={styles.sub}>{ENRICHMENT_TYPE_LABELS[e.config.enrichmentType]}</div>
                        </div>
                      </div>
                    </TableCell>
                    <TableCell>
                      {e.entityType === 'company'
                        ? 'Company'
                        : e.entityType === 'contact'
                          ? 'Contact'
                          : e.entityType === 'idea'
                            ? 'Idea'
                            : 'List'}
                    </TableCell>
                    <TableCell>{e.field ? e.field.label : <span className={styles.muted}>-</span>}</TableCell>
                    <TableCell data-testid="enrichment-is-primary">{e.isPrimary ? 'Yes' : 'No'}</TableCell>
                    <TableCell>{personName(e.createdBy) || <span className={styles.muted}>-</span>}</TableCell>
                    <TableCell title={new Date(e.createdAt).toLocaleString()}>{fmtDate(e.createdAt)}</TableCell>
                    <TableCell title={new Date(e.updatedAt).toLocaleString()}>{timeAgo(e.updatedAt)}</TableCell>
                    <TableCell>
                      <Tooltip content="Edit" relationship="label">
                        <Button
                          appearance="subtle"
                          size="small"
                          icon={<EditRegular />}
                          onClick={() => setEditing(e)}
                          data-testid="enrichment-edit"
                        />
                      </Tooltip>
                      <Tooltip content="Delete" relationship="label">
                        <Button
                          appearance="subtle"
                          size="small"
                          icon={<DeleteRegular />}
                          onClick={() => setDeleting(e)}
                          data-testid="enrichment-delete"
                        />
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </div>
        <PaginationBar
          pageIndex={pageIndex}
          pageSize={pageSize}
          totalPages={totalPages}
          totalRecords={list.data?.totalRecords}
          onPageChange={setPageIndex}
          onPageSizeChange={(s) => {
            setPageSize(s);
            setPageIndex(0);
          }}
        />
      </section>
      <NewEnrichmentFlow open={creating} onOpenChange={setCreating} />
      <EditEnrichment enrichment={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={!!deleting}
        type="delete"
        title="Are you sure?"
        message={
          deleting ? `Delete the enrichment '${deleting.name}'? Its results are deleted with it and its field keeps its values.` : ''
        }
        onConfirm={remove}
        onCancel={() => setDeleting(null)}
        data-testid="enrichment-delete-dialog"
      />
    </div>
  );
}
