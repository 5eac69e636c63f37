// /playbooks: the playbook table (spec 001 §2 'Playbook table', §9; §7 POST /play/playbook).
// Columns Play Name (description or template as subtext), Type, Enrichment Incl., Use Count,
// Created By, Created At, and Modify / Duplicate / Remove (Modify and Remove disabled for plays
// provided by the product); sort cycles descending → ascending → none; 500 px high, pages of 10
// below; toolbar Search Play, Type, Created By, Created Date and Clear filters.
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
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
import { AddRegular, CopyRegular, DeleteRegular, DismissCircleRegular, EditRegular, FilterRegular } from '@fluentui/react-icons';
import type { PlayDto, PlaybookBody } from '@dealscout/shared/contracts';
import { PLAY_MESSAGES, PLAY_PAGE_SIZE, PLAY_TYPE_LABELS } from '@dealscout/shared/domain';
import { ConfirmDialog, DateRangePicker, PaginationBar, nextSort, useNotify, type DateRange, type SortState } from '@dealscout/shared/ui';
import { api, errorMessage } from '../../../app/api';
import { PLAYBOOK_STALE_MS, playKeys, playbookUsersQuery } from '../firstView';

const SEARCH_DEBOUNCE_MS = 300;

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
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
  // The table has a fixed height of 500 px (spec 001 §2, §9); pagination sits below it.
  scroll: { height: '500px', overflow: 'auto' },
  nameText: { fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  sub: {
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  muted: { color: tokens.colorNeutralForeground4 },
  message: { padding: tokens.spacingVerticalXXL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  sortable: { cursor: 'pointer' },
});

const COLUMNS: { key: string; label: string; sortKey?: PlaybookBody['sortKey']; width: string }[] = [
  { key: 'name', label: 'Play Name', sortKey: 'name', width: '30%' },
  { key: 'type', label: 'Type', sortKey: 'playType', width: '9%' },
  { key: 'enrichments', label: 'Enrichment Incl.', sortKey: 'enrichmentsIncluded', width: '13%' },
  { key: 'useCount', label: 'Use Count', sortKey: 'useCount', width: '9%' },
  { key: 'createdBy', label: 'Created By', sortKey: 'createdBy', width: '13%' },
  { key: 'createdAt', label: 'Created At', sortKey: 'createdAt', width: '12%' },
  { key: 'actions', label: 'Actions', width: '14%' },
];

const fmtDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
/** YYYY-MM-DD → DD/MM/YYYY (the playbook route's date format). */
const ddmmyyyy = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

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
  const [query, setQuery] = useState('');
  const chosen = options.filter((o) => selected.includes(o.value)).map((o) => o.label);
  const text =
    chosen.length === 0
      ? label
      : chosen.length <= 2
        ? `${label}: ${chosen.join(', ')}`
        : `${label}: ${chosen.slice(0, 2).join(', ')} +${chosen.length - 2} more`;
  const shown = options.filter((o) => o.label.toLowerCase().includes(query.trim().toLowerCase()));
  return (
    <Menu checkedValues={{ [testId]: [...selected] }} onCheckedValueChange={(_, d) => onChange(d.checkedItems)}>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" appearance={selected.length ? 'primary' : 'outline'} icon={<FilterRegular />} data-testid={testId}>
          {text}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <SearchBox size="small" placeholder="Search" value={query} onChange={(_, d) => setQuery(d.value)} style={{ margin: 4 }} />
        <MenuList>
          {shown.length === 0 && (
            <Text size={200} style={{ padding: 8 }}>
              Nothing to pick.
            </Text>
          )}
          {shown.map((o) => (
            <MenuItemCheckbox key={o.value} name={testId} value={o.value} data-testid={`${testId}-option`}>
              {o.label}
            </MenuItemCheckbox>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

export default function PlaybooksPage() {
  const styles = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchInput, setSearchInput] = useState('');
  const [text, setText] = useState('');
  const [playType, setPlayType] = useState<string[]>([]);
  const [createdBy, setCreatedBy] = useState<string[]>([]);
  const [createdAt, setCreatedAt] = useState<DateRange | null>(null);
  const [sort, setSort] = useState<SortState | null>(null);
  const [pageIndex, setPageIndex] = useState(0);
  const [removing, setRemoving] = useState<PlayDto | null>(null);

  useEffect(() => {
    const t = setTimeout(() => {
      setText(searchInput.trim());
      setPageIndex(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [searchInput]);
  const filter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPageIndex(0);
    };

  const users = useQuery(playbookUsersQuery(api));
  const userOptions = useMemo(
    () => (users.data ?? []).map((u) => ({ value: u.id, label: `${u.firstName} ${u.lastName}`.trim() })),
    [users.data],
  );
  const body: PlaybookBody = {
    text,
    playType: playType as PlaybookBody['playType'],
    createdBy: createdBy.map((id) => {
      const u = users.data?.find((x) => x.id === id);
      return { id, originalId: u?.originalId ?? id, isProvidedByProduct: u?.isProvidedByProduct ?? false };
    }),
    createdAt: createdAt ? [ddmmyyyy(createdAt.from), ddmmyyyy(createdAt.to)] : [],
    pageIndex,
    sortKey: (sort?.key as PlaybookBody['sortKey']) ?? null,
    sortOrder: sort?.order ?? null,
  };
  const list = useQuery({
    queryKey: playKeys.book(body),
    queryFn: () => api.plays.playbook(body),
    placeholderData: keepPreviousData,
    staleTime: PLAYBOOK_STALE_MS,
  });
  const rows = list.data?.playbooks ?? [];
  const totalPages = Math.max(1, list.data?.totalPages ?? 1);
  const filtered = text !== '' || playType.length > 0 || createdBy.length > 0 || !!createdAt;

  useEffect(() => {
    if (list.data && !list.isPlaceholderData && pageIndex > Math.max(0, list.data.totalPages - 1))
      setPageIndex(Math.max(0, list.data.totalPages - 1));
  }, [list.data, list.isPlaceholderData, pageIndex]);

  const clearFilters = () => {
    setSearchInput('');
    setText('');
    setPlayType([]);
    setCreatedBy([]);
    setCreatedAt(null);
    setPageIndex(0);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: playKeys.all });
  const duplicate = async (p: PlayDto) => {
    try {
      const res = await api.plays.duplicate(p.id);
      notify.success(res.message ?? PLAY_MESSAGES.duplicated);
      await refresh();
    } catch (e) {
      notify.error(errorMessage(e, PLAY_MESSAGES.error));
    }
  };
  const remove = async () => {
    if (!removing) return;
    try {
      const res = await api.plays.remove(removing.id);
      notify.success(res.message);
      await refresh();
    } catch (e) {
      notify.error(errorMessage(e, PLAY_MESSAGES.error));
    } finally {
      setRemoving(null);
    }
  };

  return (
    <div className="ds-table-page" data-testid="playbooks-page">
      <section className={styles.root} aria-label="Playbook">
        <div className={styles.toolbar} role="toolbar" aria-label="Playbook toolbar">
          <SearchBox
            className={styles.search}
            placeholder="Search Play"
            aria-label="Search Play"
            value={searchInput}
            maxLength={200}
            onChange={(_, d) => setSearchInput(d.value)}
            data-testid="play-search"
          />
          <MultiFilter
            label="Type"
            options={[
              { value: 'openai', label: PLAY_TYPE_LABELS.openai },
              { value: 'non_ai', label: PLAY_TYPE_LABELS.non_ai },
            ]}
            selected={playType}
            onChange={filter(setPlayType)}
            testId="play-filter-type"
          />
          <MultiFilter
            label="Created By"
            options={userOptions}
            selected={createdBy}
            onChange={filter(setCreatedBy)}
            testId="play-filter-created-by"
          />
          <DateRangePicker label="Created Date" value={createdAt} onChange={filter(setCreatedAt)} />
          {filtered && (
            <Button
              size="small"
              appearance="subtle"
              icon={<DismissCircleRegular />}
              onClick={clearFilters}
              data-testid="play-clear-filters"
            >
              Clear filters
            </Button>
          )}
          <Button
            className={styles.end}
            appearance="primary"
            size="small"
            icon={<AddRegular />}
            onClick={() => navigate('/playbooks/new')}
            data-testid="playbooks-new-play"
          >
            New Play
          </Button>
        </div>
        <div className={styles.scroll}>
          <Table aria-label="Plays" size="small" data-testid="play-table" style={{ tableLayout: 'fixed', minWidth: 860 }}>
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
                      data-testid="play-table-header"
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
                      {errorMessage(list.error, PLAY_MESSAGES.fetchFailed)}
                    </div>
                  </TableCell>
                </TableRow>
              ) : rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length}>
                    <div className={styles.message} data-testid="play-table-empty">
                      {filtered ? 'No plays match the search and filters.' : 'No plays yet.'}
                    </div>
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((p) => (
                  <TableRow key={p.id} data-testid="play-row" data-id={p.id}>
                    <TableCell>
                      <div style={{ minWidth: 0 }}>
                        <div className={styles.nameText} title={p.name}>
                          {p.name}
                          {p.status === 'draft' ? ' (draft)' : ''}
                        </div>
                        <div className={styles.sub} title={p.description || p.template}>
                          {p.description || p.template}
                        </div>
                      </div>
                    </TableCell>
                    <TableCell>{PLAY_TYPE_LABELS[p.playType]}</TableCell>
                    <TableCell title={p.enrichmentsIncluded.map((e) => e.name).join(', ')}>{p.enrichmentsIncluded.length}</TableCell>
                    <TableCell>{p.useCount}</TableCell>
                    <TableCell>
                      {p.isProvidedByProduct ? (
                        'Dealscout'
                      ) : p.createdBy ? (
                        `${p.createdBy.firstName} ${p.createdBy.lastName}`.trim()
                      ) : (
                        <span className={styles.muted}>-</span>
                      )}
                    </TableCell>
                    <TableCell title={new Date(p.createdAt).toLocaleString()}>{fmtDate(p.createdAt)}</TableCell>
                    <TableCell>
                      <Tooltip content="Modify" relationship="label">
                        <Button
                          appearance="subtle"
                          size="small"
                          icon={<EditRegular />}
                          disabled={p.isProvidedByProduct}
                          onClick={() => navigate(`/playbooks/${p.id}`)}
                          data-testid="play-modify"
                        />
                      </Tooltip>
                      <Tooltip content="Duplicate" relationship="label">
                        <Button
                          appearance="subtle"
                          size="small"
                          icon={<CopyRegular />}
                          onClick={() => void duplicate(p)}
                          data-testid="play-duplicate"
                        />
                      </Tooltip>
                      <Tooltip content="Remove" relationship="label">
                        <Button
                          appearance="subtle"
                          size="small"
                          icon={<DeleteRegular />}
                          disabled={p.isProvidedByProduct}
                          onClick={() => setRemoving(p)}
                          data-testid="play-remove"
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
          pageSize={PLAY_PAGE_SIZE}
          totalPages={totalPages}
          totalRecords={list.data?.totalRecords}
          onPageChange={setPageIndex}
          onPageSizeChange={() => setPageIndex(0)}
        />
      </section>
      <ConfirmDialog
        open={!!removing}
        type="delete"
        title="Are you sure?"
        confirmLabel="Delete"
        message={removing ? `Remove the play '${removing.name}'?` : ''}
        onConfirm={remove}
        onCancel={() => setRemoving(null)}
        data-testid="play-remove-dialog"
      />
    </div>
  );
}
