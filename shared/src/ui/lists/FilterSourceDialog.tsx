// The list source 'Companies matching filters' (POST /list-company/filter): the companies table's
// own search and filter builder (FilterBar, the same conditions and messages), a live count of the
// matching companies (a dry run), and 'Add N companies' adding them to the list as ideas
// (de-duplicated by domain; the answer is the upload's report: added, already in the list, skipped).
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { TableFilter } from '../../domain';
import { queryKeys, useApi } from '../ApiContext';
import { useModalSurfaceStyle } from '../PluginMode';
import { FilterBar } from '../table/FilterBar';
import type { FilterFieldInfo, FilterOption } from '../table/FilterEditor';
import { personName } from '../table/format';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minHeight: '180px' },
  count: { fontWeight: tokens.fontWeightSemibold },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** How long typing in the search waits before counting again. */
const COUNT_DELAY_MS = 300;

export function FilterSourceDialog(props: {
  open: boolean;
  listId: string;
  onClose: () => void;
  onAdded: (message: string) => Promise<void> | void;
}) {
  const api = useApi();
  const styles = useStyles();
  const surface = useModalSurfaceStyle();
  const [filters, setFilters] = useState<TableFilter[]>([]);
  const [text, setText] = useState('');
  const [count, setCount] = useState<number | null>(null);
  const [counting, setCounting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const fieldsQuery = useQuery({
    queryKey: queryKeys.filterFields('company'),
    queryFn: async () => (await api.fields.filterFields('company')).fields,
    staleTime: 60_000,
    enabled: props.open,
  });
  const needsOwners = (fieldsQuery.data ?? []).some((f) => f.dataType === 'uuid');
  const ownersQuery = useQuery({
    queryKey: queryKeys.owners,
    queryFn: () => api.companies.owners(),
    staleTime: 60_000,
    enabled: props.open && needsOwners,
  });
  const ownerOptions = useMemo<FilterOption[]>(
    () => (ownersQuery.data?.owners ?? []).map((o) => ({ value: o.id, label: personName(o) || o.email })),
    [ownersQuery.data],
  );
  const optionsFor = useCallback((f: FilterFieldInfo) => (f.dataType === 'uuid' ? ownerOptions : undefined), [ownerOptions]);

  // The count follows the conditions (the search after a pause); an answer to older conditions is dropped.
  useEffect(() => {
    if (!props.open) return undefined;
    let stale = false;
    setCounting(true);
    const t = setTimeout(
      () => {
        api.lists
          .filterSource({ listCompanyId: props.listId, text, filters, dryRun: true })
          .then((r) => {
            if (!stale) {
              setCount(r.total);
              setError(null);
            }
          })
          .catch((e: unknown) => {
            if (!stale) {
              setCount(null);
              setError(e instanceof Error ? e.message : 'Could not count the companies');
            }
          })
          .finally(() => {
            if (!stale) setCounting(false);
          });
      },
      text ? COUNT_DELAY_MS : 0,
    );
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [api, props.open, props.listId, text, filters]);

  // The list page mounts the dialog only while it is open: its conditions start empty each time.
  const close = () => props.onClose();
  const add = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await api.lists.filterSource({ listCompanyId: props.listId, text, filters });
      await props.onAdded(res.message);
      close();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Could not add the companies');
    } finally {
      setBusy(false);
    }
  };

  const countText = count === null ? '' : `${count.toLocaleString('en-US')} ${count === 1 ? 'company matches' : 'companies match'}`;
  return (
    <Dialog
      open={props.open}
      onOpenChange={(_, d) => {
        if (!d.open) close();
      }}
    >
      <DialogSurface style={surface} aria-label="Add companies matching filters" data-testid="filter-source-dialog">
        <DialogBody>
          <DialogTitle>Add a source: Companies matching filters</DialogTitle>
          <DialogContent className={styles.form}>
            <Text>Pick conditions as in the companies table; the matching companies join the list as ideas (one per domain).</Text>
            <Field label="Search companies">
              <Input value={text} onChange={(_, d) => setText(d.value)} placeholder="Name or domain" data-testid="filter-source-text" />
            </Field>
            <FilterBar
              fields={fieldsQuery.data ?? []}
              fieldsLoading={fieldsQuery.isPending}
              filters={filters}
              onChange={setFilters}
              optionsFor={optionsFor}
            />
            <Text className={styles.count} aria-live="polite" data-testid="filter-source-count">
              {counting && count === null ? <Spinner size="tiny" label="Counting…" /> : countText}
            </Text>
            {error && (
              <Text role="alert" className={styles.error} data-testid="filter-source-error">
                {error}
              </Text>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>Cancel</Button>
            <Button
              appearance="primary"
              style={{ whiteSpace: 'nowrap' }}
              disabled={busy || counting || !count}
              onClick={() => void add()}
              data-testid="filter-source-add"
            >
              {count ? `Add ${count.toLocaleString('en-US')} ${count === 1 ? 'company' : 'companies'}` : 'Add companies'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
