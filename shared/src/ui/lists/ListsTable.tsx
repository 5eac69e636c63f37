// The lists table at /list-company (spec 002 §2 'Other screens'): search, status and created-by
// filters, sortable columns (newest first by default), zero-based pages of 10, a New List dialog.
import { useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dropdown, Option, SearchBox, makeStyles, mergeClasses, tokens, Badge } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import type { ListDto, ListsQuery } from '../../contracts';
import { realtimePaths, LIST_MESSAGES } from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { usePluginMode } from '../PluginMode';
import { useNotify } from '../toast';
import { useRealtimeEvents } from '../realtime';
import { PaginationBar } from '../table/PaginationBar';
import { RecordTable, type RecordColumn } from '../table/RecordTable';
import { NO_SELECTION, selectedCount, type RowSelection, type SortState } from '../table/tableState';
import { ConfirmDialog } from '../ConfirmDialog';
import { NameDialog } from './NameDialog';
import { formatDate, personName } from '../table/format';

/** Spec 002 §9: lists sort descending (newest first) by default. */
export const LIST_DEFAULT_SORT: SortState = { key: 'createdAt', order: 'desc' };

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
  plugin: { borderRadius: 0, boxShadow: 'none' },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  search: { flex: '1 1 160px', maxWidth: '260px' },
  dropdown: { minWidth: '150px' },
  end: { marginLeft: 'auto' },
});

const COLUMNS: RecordColumn<ListDto>[] = [
  { key: 'name', label: 'Name', sortKey: 'name', width: 260, text: (l) => l.name },
  {
    key: 'status',
    label: 'Status',
    sortKey: 'status',
    width: 120,
    text: (l) => (l.status === 'completed' ? 'Completed' : 'Active'),
    render: (l) => (
      <Badge appearance="tint" color={l.status === 'completed' ? 'success' : 'brand'}>
        {l.status === 'completed' ? 'Completed' : 'Active'}
      </Badge>
    ),
  },
  { key: 'totalIdeas', label: 'Ideas', sortKey: 'totalIdeas', width: 100, text: (l) => l.totalIdeas.toLocaleString('en-US') },
  {
    key: 'totalShortListedIdeas',
    label: 'Shortlisted',
    sortKey: 'totalShortListedIdeas',
    width: 110,
    text: (l) => l.totalShortListedIdeas.toLocaleString('en-US'),
  },
  { key: 'sources', label: 'Sources', width: 90, text: (l) => String(l.totalSources) },
  {
    key: 'createdBy',
    label: 'Created by',
    sortKey: 'createdBy',
    width: 160,
    text: (l) => (l.createdBy ? personName(l.createdBy) || l.createdBy.email : ''),
  },
  { key: 'createdAt', label: 'Created', sortKey: 'createdAt', width: 130, text: (l) => formatDate(l.createdAt) },
];

export function ListsTable(props: { onOpen: (listId: string) => void }) {
  const styles = useStyles();
  const pluginMode = usePluginMode();
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  const [searchInput, setSearchInput] = useState('');
  const [text, setText] = useState('');
  const [status, setStatus] = useState<'' | 'active' | 'completed'>('');
  const [createdBy, setCreatedBy] = useState<string[]>([]);
  const [sort, setSort] = useState<SortState | null>(LIST_DEFAULT_SORT);
  const [pageIndex, setPageIndex] = useState(0);
  const [pageSize, setPageSize] = useState(10);
  const [creating, setCreating] = useState(false);
  const [selection, setSelection] = useState<RowSelection>(NO_SELECTION);
  const [confirmDelete, setConfirmDelete] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => {
      setText(searchInput.trim());
      setPageIndex(0);
    }, 300);
    return () => clearTimeout(t);
  }, [searchInput]);
  const query: ListsQuery = {
    text,
    status: status || null,
    createdBy,
    pageIndex,
    pageSize,
    sortKey: sort?.key ?? null,
    sortOrder: sort?.order ?? null,
  };
  const page = useQuery({ queryKey: queryKeys.listsPage(query), queryFn: () => api.lists.page(query), placeholderData: keepPreviousData });
  const users = useQuery({ queryKey: [...queryKeys.lists, 'users'], queryFn: () => api.lists.users(), staleTime: 60_000 });
  useRealtimeEvents(
    ({ oid }) => realtimePaths.lists(oid),
    () => {
      void qc.invalidateQueries({ queryKey: queryKeys.lists });
    },
  );
  const userOptions = useMemo(() => users.data?.users ?? [], [users.data]);
  const total = page.data?.totalRecords ?? 0;
  const filtered = !!text || !!status || createdBy.length > 0;
  return (
    <section className={mergeClasses(styles.root, pluginMode && styles.plugin)} data-testid="lists-table" aria-label="Lists">
      <div className={styles.toolbar} role="toolbar" aria-label="Lists toolbar">
        <SearchBox
          className={styles.search}
          placeholder="Search lists"
          aria-label="Search lists"
          value={searchInput}
          maxLength={200}
          onChange={(_, d) => setSearchInput(d.value)}
          data-testid="lists-search"
        />
        <Dropdown
          className={styles.dropdown}
          aria-label="Status"
          placeholder="Any status"
          value={status === '' ? 'Any status' : status === 'active' ? 'Active' : 'Completed'}
          selectedOptions={[status]}
          onOptionSelect={(_, d) => {
            setStatus((d.optionValue ?? '') as typeof status);
            setPageIndex(0);
          }}
          data-testid="lists-status-filter"
        >
          <Option value="">Any status</Option>
          <Option value="active">Active</Option>
          <Option value="completed">Completed</Option>
        </Dropdown>
        <Dropdown
          className={styles.dropdown}
          aria-label="Created by"
          multiselect
          placeholder="Created by anyone"
          selectedOptions={createdBy}
          value={
            createdBy.length
              ? userOptions
                  .filter((u) => createdBy.includes(u.id))
                  .map((u) => personName(u) || u.email)
                  .join(', ')
              : ''
          }
          onOptionSelect={(_, d) => {
            setCreatedBy(d.selectedOptions);
            setPageIndex(0);
          }}
          data-testid="lists-created-by-filter"
        >
          {userOptions.map((u) => (
            <Option key={u.id} value={u.id}>
              {personName(u) || u.email}
            </Option>
          ))}
        </Dropdown>
        {selectedCount(selection, total) > 0 && (
          <Button size="small" onClick={() => setConfirmDelete(true)} data-testid="lists-delete">
            Delete {selectedCount(selection, total)} selected
          </Button>
        )}
        <Button
          className={styles.end}
          appearance="primary"
          size="small"
          icon={<AddRegular />}
          onClick={() => setCreating(true)}
          data-testid="lists-new"
        >
          New List
        </Button>
      </div>
      <RecordTable<ListDto>
        aria-label="Lists"
        entityType="list"
        columns={COLUMNS}
        rows={page.data?.lists ?? []}
        getRowId={(l) => l.id}
        sort={sort}
        defaultSort={LIST_DEFAULT_SORT}
        onSortChange={(s) => {
          setSort(s);
          setPageIndex(0);
        }}
        selection={selection}
        onSelectionChange={(s) =>
          setSelection(s.kind === 'ids' ? s : { kind: 'ids', ids: new Set((page.data?.lists ?? []).map((l) => l.id)) })
        }
        onRowClick={(l) => props.onOpen(l.id)}
        loading={page.isPending}
        fetching={page.isFetching}
        error={page.isError && !page.data ? (page.error instanceof Error ? page.error.message : 'Could not load the lists') : null}
        emptyText={filtered ? 'No lists match the search and filters.' : 'No lists yet. Create one to start collecting ideas.'}
      />
      <PaginationBar
        pageIndex={pageIndex}
        pageSize={pageSize}
        totalPages={Math.max(1, page.data?.totalPages ?? 1)}
        totalRecords={page.data ? total : undefined}
        onPageChange={setPageIndex}
        onPageSizeChange={(s) => {
          setPageSize(s);
          setPageIndex(0);
        }}
      />
      <ConfirmDialog
        open={confirmDelete}
        type="delete"
        title="Delete lists"
        message={`Delete ${selectedCount(selection, total)} list(s) with their sources and ideas? Companies already taken in stay.`}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={async () => {
          if (selection.kind !== 'ids') return;
          for (const id of selection.ids) await api.lists.remove(id);
          setConfirmDelete(false);
          setSelection(NO_SELECTION);
          notify.success(LIST_MESSAGES.listDeleted);
          await qc.invalidateQueries({ queryKey: queryKeys.lists });
        }}
        data-testid="lists-delete-dialog"
      />
      <NameDialog
        open={creating}
        title="New List"
        confirmLabel="Create"
        onClose={() => setCreating(false)}
        onSave={async (name) => {
          const res = await api.lists.create(name);
          notify.success(LIST_MESSAGES.listCreated);
          await qc.invalidateQueries({ queryKey: queryKeys.lists });
          props.onOpen(res.list.id);
        }}
      />
    </section>
  );
}
