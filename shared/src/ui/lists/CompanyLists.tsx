// A company's lists, outside the list page (the Chrome side panel): 'Add to list' puts the company
// into an existing list or a new one as an idea (POST /list-company/idea: de-duplicated by domain,
// a domain already in the list is a 409 and reads 'Already in <list>'), and the section below shows
// every list that holds it (POST /list-company/idea/memberships) with its shortlist flag, its score
// on each of the list's scoring models and its key enrichments (the list's enrichment columns, read
// like the ideas table reads them). No table code: the panel's bundle stays small.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Combobox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Option,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { StarFilled, TextBulletListAddRegular } from '@fluentui/react-icons';
import type { IdeaMembershipDto } from '../../contracts';
import { ApiError } from '../../client/http';
import { ideaEnrichmentCell, ideaEnrichmentColumns, realtimePaths, LIST_MESSAGES } from '../../domain';
import { useRealtimeEvents } from '../realtime';
import { useApi, queryKeys } from '../ApiContext';
import { useNotify } from '../toast';
import { useModalSurfaceStyle } from '../PluginMode';
import { ResultValue } from '../enrichments/ResultValue';

export const COMPANY_LISTS_TEXTS = {
  addToList: 'Add to list',
  title: 'Lists',
  none: 'Not in any list yet.',
  newList: 'New list',
  newListName: 'Name of the new list',
  pickList: 'List',
  added: (list: string) => `Added to ${list}`,
  already: (list: string) => `Already in ${list}`,
  noScore: 'Not scored yet',
  noEnrichment: 'No enrichment results yet',
} as const;

/** The query key of a company's lists (by its website's domain). */
export const companyListsKey = (website: string) => ['company-lists', website] as const;

const useStyles = makeStyles({
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
  },
  heading: { fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase300 },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  listName: { fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis' },
  label: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, minWidth: '96px' },
  star: { color: tokens.colorPaletteMarigoldForeground1 },
  muted: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

/** The company's lists with its scores and key enrichments. */
export function CompanyListsSection({ website }: { website: string }) {
  const styles = useStyles();
  const api = useApi();
  const q = useQuery({
    queryKey: companyListsKey(website),
    queryFn: () => api.lists.memberships({ website }),
    enabled: !!website,
    staleTime: 15_000,
  });
  const memberships = q.data?.memberships ?? [];
  // Live: an idea enrichment or a score run that ends re-reads the lists (batched), so a score and
  // a result arrive without a reload.
  const qc = useQueryClient();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  const reread = () => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void qc.invalidateQueries({ queryKey: companyListsKey(website) });
    }, 400);
  };
  useRealtimeEvents(
    ({ oid }) => realtimePaths.executions(oid, 'enrichment', 'idea'),
    (e) => {
      if (e.kind !== 'execution.updated' || isDone(e.data)) reread();
    },
  );
  useRealtimeEvents(
    ({ oid }) => realtimePaths.executions(oid, 'score'),
    (e) => {
      if (isDone(e.data)) reread();
    },
  );
  return (
    <section className={styles.section} aria-label={COMPANY_LISTS_TEXTS.title} data-testid="company-lists">
      <Text className={styles.heading}>{COMPANY_LISTS_TEXTS.title}</Text>
      {q.isPending && <Spinner aria-label="Loading" size="tiny" />}
      {q.isError && (
        <Text role="alert" className={styles.muted}>
          {q.error instanceof Error ? q.error.message : 'Could not read the lists.'}
        </Text>
      )}
      {q.isSuccess && memberships.length === 0 && (
        <Text className={styles.muted} data-testid="company-lists-none">
          {COMPANY_LISTS_TEXTS.none}
        </Text>
      )}
      {memberships.map((m) => (
        <MembershipCard key={m.list.id} m={m} />
      ))}
    </section>
  );
}

function MembershipCard({ m }: { m: IdeaMembershipDto }) {
  const styles = useStyles();
  const columns = useMemo(() => ideaEnrichmentColumns(m.enrichments), [m.enrichments]);
  const results = new Map(m.idea.enrichmentResults.map((r) => [r.enrichmentId, r]));
  const cells = columns
    .map((c) => ({ c, cell: ideaEnrichmentCell(results.get(c.enrichmentId) ?? null, c) }))
    .filter((x) => x.cell.status === 'completed');
  const scores = m.scoringModels.map((model) => ({
    model,
    result: m.idea.scoringResults.find((s) => s.scoringModelId === model.id) ?? null,
  }));
  return (
    <div className={styles.card} data-testid="company-list" data-list-id={m.list.id}>
      <div className={styles.row}>
        {m.idea.shortListed && <StarFilled className={styles.star} aria-label="Shortlisted" />}
        <Text className={styles.listName} data-testid="company-list-name">
          {m.list.name}
        </Text>
        {m.list.status === 'completed' && (
          <Badge appearance="tint" size="small">
            Completed
          </Badge>
        )}
        {m.idea.status === 'inDealscout' && (
          <Badge appearance="tint" color="success" size="small">
            In Dealscout
          </Badge>
        )}
      </div>
      {scores.map(({ model, result }) => (
        <div className={styles.row} key={model.id} data-testid="company-list-score">
          <Text className={styles.label}>{model.name}</Text>
          {result?.totalScore != null ? (
            <Text weight="semibold" data-testid="company-list-score-value">
              {formatScore(result.totalScore)}
            </Text>
          ) : (
            <Text className={styles.muted}>
              {result?.status === 'error' ? 'Error' : result ? 'Processing...' : COMPANY_LISTS_TEXTS.noScore}
            </Text>
          )}
        </div>
      ))}
      {cells.map(
        ({ c, cell }) =>
          cell.status === 'completed' && (
            <div className={styles.row} key={c.key} data-testid="company-list-enrichment">
              <Text className={styles.label}>{c.label}</Text>
              <ResultValue display={{ kind: 'value', text: cell.text, formatted: cell.formatted, raw: cell.value }} />
            </div>
          ),
      )}
      {columns.length > 0 && cells.length === 0 && <Text className={styles.muted}>{COMPANY_LISTS_TEXTS.noEnrichment}</Text>}
    </div>
  );
}

const isDone = (d: unknown) => {
  const status = d && typeof d === 'object' ? (d as { status?: unknown }).status : undefined;
  return status === 'completed' || status === 'complete' || status === 'error';
};

const formatScore = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

const NEW = '__new__';

/** 'Add to list': the company into an existing list or a new one, as an idea. */
export function AddToListButton({ name, website, disabled }: { name: string; website: string; disabled?: boolean }) {
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  const surface = useModalSurfaceStyle();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [choice, setChoice] = useState<string>('');
  const [newName, setNewName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const lists = useQuery({
    queryKey: [...queryKeys.lists, 'pick', text],
    queryFn: () => api.lists.page({ text, pageSize: 50, sortKey: 'updatedAt', sortOrder: 'desc' }),
    enabled: open,
    staleTime: 10_000,
  });
  const memberships = useQuery({
    queryKey: companyListsKey(website),
    queryFn: () => api.lists.memberships({ website }),
    enabled: open && !!website,
    staleTime: 15_000,
  });
  const holding = new Set((memberships.data?.memberships ?? []).map((m) => m.list.id));
  const options = lists.data?.lists ?? [];
  const picked = options.find((l) => l.id === choice);

  const reset = () => {
    setText('');
    setChoice('');
    setNewName('');
    setError(null);
  };
  const add = async () => {
    setError(null);
    if (!choice) return setError('Please pick a list.');
    if (choice === NEW && !newName.trim()) return setError(LIST_MESSAGES.listNameRequired);
    setBusy(true);
    let listName = picked?.name ?? newName.trim();
    try {
      let listId = choice;
      if (choice === NEW) {
        const res = await api.lists.create(newName.trim());
        listId = res.list.id;
        listName = res.list.name;
        void qc.invalidateQueries({ queryKey: queryKeys.lists });
      }
      await api.lists.addIdea({ id: listId, companyName: name, website });
      notify.success(COMPANY_LISTS_TEXTS.added(listName));
      setOpen(false);
      reset();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        notify.info(COMPANY_LISTS_TEXTS.already(listName));
        setOpen(false);
        reset();
      } else {
        setError(e instanceof Error ? e.message : 'Could not add the company to the list.');
      }
    } finally {
      setBusy(false);
      void qc.invalidateQueries({ queryKey: companyListsKey(website) });
    }
  };

  return (
    <>
      <Button
        size="small"
        icon={<TextBulletListAddRegular />}
        disabled={disabled}
        onClick={() => {
          reset();
          setOpen(true);
        }}
        data-testid="panel-add-to-list"
      >
        {COMPANY_LISTS_TEXTS.addToList}
      </Button>
      <Dialog open={open} onOpenChange={(_, d) => setOpen(d.open)}>
        <DialogSurface style={surface} data-testid="add-to-list-dialog">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void add();
            }}
          >
            <DialogBody>
              <DialogTitle>Add {name} to a list</DialogTitle>
              <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM }}>
                <Field label={COMPANY_LISTS_TEXTS.pickList} required>
                  <Combobox
                    placeholder="Search lists"
                    freeform={false}
                    value={choice === NEW ? COMPANY_LISTS_TEXTS.newList : (picked?.name ?? text)}
                    selectedOptions={choice ? [choice] : []}
                    onChange={(e) => {
                      setText(e.target.value);
                      setChoice('');
                    }}
                    onOptionSelect={(_, d) => {
                      setChoice(d.optionValue ?? '');
                      setText('');
                    }}
                    data-testid="add-to-list-pick"
                  >
                    <Option value={NEW} text={COMPANY_LISTS_TEXTS.newList} data-testid="add-to-list-new">
                      + {COMPANY_LISTS_TEXTS.newList}
                    </Option>
                    {options.map((l) => (
                      <Option key={l.id} value={l.id} text={l.name} disabled={holding.has(l.id)}>
                        {l.name}
                        {holding.has(l.id) ? ' (already in it)' : ''}
                      </Option>
                    ))}
                  </Combobox>
                </Field>
                {choice === NEW && (
                  <Field label={COMPANY_LISTS_TEXTS.newListName} required>
                    <Input value={newName} maxLength={255} onChange={(_, d) => setNewName(d.value)} data-testid="add-to-list-new-name" />
                  </Field>
                )}
                {error && (
                  <Text role="alert" style={{ color: tokens.colorPaletteRedForeground1 }} data-testid="add-to-list-error">
                    {error}
                  </Text>
                )}
              </DialogContent>
              <DialogActions>
                <Button appearance="secondary" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button appearance="primary" type="submit" disabled={busy || !choice} data-testid="add-to-list-save">
                  Add
                </Button>
              </DialogActions>
            </DialogBody>
          </form>
        </DialogSurface>
      </Dialog>
    </>
  );
}
