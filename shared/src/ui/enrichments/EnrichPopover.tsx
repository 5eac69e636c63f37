// The Enrich popover of the companies and contacts tables (spec 001 §2 'Enrich popover', §5 'Run
// enrichment', §8; spec 002 §4 'Starting an enrichment', §8 'Enrichment execution'): pick a field,
// then one of its enrichments, then Only Empty Rows or All Rows (with the overwrite warning), and
// run it on the selected rows — the page's or all of them across pages. A button opens the type
// selector to create an enrichment for the field.
// Enrichments that fill no field (the LinkedIn one: its modal has a name only, spec 001 §2) are run
// through the 'No field (unassigned enrichments)' choice of the field list; their results show in
// the drawer's Unassigned Enrichments section, and Only Empty Rows means rows without a finished
// result (the server decides which, as it does for rows on other pages).
import { lazy, Suspense, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Field,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Radio,
  RadioGroup,
  Select,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, SparkleRegular, WarningRegular } from '@fluentui/react-icons';
import type { ExecuteEnrichmentBody, FieldDto } from '../../contracts';
import { RUN_ENRICHMENT_MESSAGES, RUN_OPTION_LABELS, executionToasts, runEnrichmentProblem, type RunOption } from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { enrichmentKeys } from './keys';
import { markPreprocessing, markProcessing, setCellResult } from './liveResults';

type Entity = 'company' | 'contact';

// The New Enrichment flow (type selector and editors) is a chunk of its own, loaded when first opened:
// the table's first view does not need it.
const NewEnrichmentFlow = lazy(() => import('./NewEnrichment').then((m) => ({ default: m.NewEnrichmentFlow })));

/** The rows a run targets: explicit ids, or every row of the table's filters but the excluded ones. */
export type EnrichTargets =
  | { kind: 'ids'; ids: readonly string[] }
  | {
      kind: 'all';
      text: string;
      filters: NonNullable<ExecuteEnrichmentBody['entityFilters']>['filters'];
      excludeIds: readonly string[];
      count: number;
    };

export interface EnrichRow {
  id: string;
  fields: Record<string, { value: unknown } | undefined>;
}

const useStyles = makeStyles({
  surface: { width: '320px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL },
  warning: {
    display: 'flex',
    gap: tokens.spacingHorizontalXS,
    color: tokens.colorPaletteDarkOrangeForeground1,
    fontSize: tokens.fontSizeBase200,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'space-between' },
  hint: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

/** The field list's choice for enrichments that fill no field. */
export const UNASSIGNED_CHOICE = '__unassigned__';
export const UNASSIGNED_LABEL = 'No field (unassigned enrichments)';

const isEmptyValue = (v: unknown) =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

export function EnrichPopover({
  entityType,
  targets,
  rows,
  sort,
  onStarted,
}: {
  entityType: Entity;
  targets: EnrichTargets | null;
  /** The page's rows (for empty-row checks and marking cells). */
  rows: readonly EnrichRow[];
  /** The table's sort: the run takes the rows in the table's order (the first on screen first). */
  sort?: { key: string; order: 'asc' | 'desc' } | null;
  /** The run started (its id, for its progress line; null when nothing new started). */
  onStarted?: (runId: string | null) => void;
}) {
  const styles = useStyles();
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  // Mounted once first opened, and kept (closing keeps its transition).
  const [createdOnce, setCreatedOnce] = useState(false);
  if (creating && !createdOnce) setCreatedOnce(true);
  const [fieldId, setFieldId] = useState<string | null>(null);
  const [enrichmentId, setEnrichmentId] = useState<string | null>(null);
  const [option, setOption] = useState<RunOption>('empty');
  const [busy, setBusy] = useState(false);

  const fieldsQuery = useQuery({
    queryKey: queryKeys.fields(entityType),
    queryFn: async () => (await api.fields.list(entityType)).fields,
    staleTime: 60_000,
  });
  const fields = useMemo(
    () =>
      (fieldsQuery.data ?? [])
        .filter((f: FieldDto) => !f.builtIn && f.entityType === entityType)
        .sort((a, b) => a.label.localeCompare(b.label)),
    [fieldsQuery.data, entityType],
  );
  const enrichmentsQuery = useQuery({
    queryKey: enrichmentKeys.forEntity(entityType),
    queryFn: async () => (await api.enrichments.list({ entityType, take: 100 })).enrichments,
    staleTime: 30_000,
    enabled: open,
  });
  const unassigned = fieldId === UNASSIGNED_CHOICE;
  const field = fields.find((f) => f.id === fieldId) ?? null;
  const unassignedEnrichments = useMemo(
    () =>
      (enrichmentsQuery.data ?? [])
        .filter((e) => !e.entityFieldId && e.entityType === entityType)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [enrichmentsQuery.data, entityType],
  );
  const forField = useMemo(
    () =>
      unassigned
        ? unassignedEnrichments
        : (enrichmentsQuery.data ?? [])
            .filter((e) => e.entityFieldId === fieldId)
            .sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || a.name.localeCompare(b.name)),
    [enrichmentsQuery.data, fieldId, unassigned, unassignedEnrichments],
  );

  const pickField = (id: string | null) => {
    setFieldId(id);
    if (id === UNASSIGNED_CHOICE) {
      setEnrichmentId(unassignedEnrichments[0]?.id ?? null);
      return;
    }
    const f = fields.find((x) => x.id === id);
    setEnrichmentId(f?.assignedEnrichments.find((a) => a.isPrimary)?.id ?? f?.assignedEnrichments[0]?.id ?? null);
  };

  const selectedCount = !targets ? 0 : targets.kind === 'ids' ? targets.ids.length : targets.count;
  const rowById = useMemo(() => new Map(rows.map((r) => [r.id, r])), [rows]);
  /** The row's value of the chosen field (none for unassigned enrichments). */
  const valueOf = (id: string) => (field ? rowById.get(id)?.fields[field.id]?.value : null);
  /** The selected rows on this page (the ones whose cells can be marked). */
  const pageTargets = !targets
    ? []
    : targets.kind === 'ids'
      ? targets.ids.filter((id) => rowById.has(id))
      : rows.map((r) => r.id).filter((id) => !targets.excludeIds.includes(id));
  const isEmptyRow = (id: string) => isEmptyValue(valueOf(id));
  // Known only when every selected row is on this page and the enrichment fills a field.
  const emptyCount =
    !unassigned && targets?.kind === 'ids' && targets.ids.every((id) => rowById.has(id)) ? targets.ids.filter(isEmptyRow).length : null;

  // What the run will take, before it starts (model calls, AI credits, expected time).
  const estimate = useQuery({
    queryKey: ['enrichments', 'estimate', enrichmentId, selectedCount],
    queryFn: () => api.enrichments.estimate({ enrichmentId: enrichmentId!, count: selectedCount }),
    enabled: open && !!enrichmentId && selectedCount > 0,
    staleTime: 10_000,
  });

  const run = async () => {
    const problem = runEnrichmentProblem({ fieldId, enrichmentId, selectedCount, entity: entityType, option, emptyCount });
    if (problem) {
      notify.error(problem.message, problem.timeout);
      return;
    }
    if (!targets || !enrichmentId) return;
    // Unassigned: every targeted row is marked; the ones the server skips go back below.
    const marked = option === 'empty' && !unassigned ? pageTargets.filter(isEmptyRow) : pageTargets;
    const before = markPreprocessing(qc, enrichmentId, marked, valueOf);
    const restore = (ids: Iterable<string>) => {
      for (const id of ids) setCellResult(qc, enrichmentId, id, before.get(id) ?? null);
    };
    setBusy(true);
    try {
      // The table's order, when the table gives it (null: its default order).
      const ordered = sort !== undefined ? { sort } : {};
      const body: ExecuteEnrichmentBody =
        targets.kind === 'ids'
          ? { enrichmentId, entityType, entityIds: [...targets.ids], ...ordered, options: { onlyEmpty: option === 'empty' } }
          : {
              enrichmentId,
              entityType,
              entityFilters: { allSelected: true, text: targets.text, filters: targets.filters, excludeIds: [...targets.excludeIds] },
              ...ordered,
              options: { onlyEmpty: option === 'empty' },
            };
      const res = await api.enrichments.execute(body);
      if (res.items) {
        const failed: string[] = [];
        for (const it of res.items) {
          if (it.status === 'failed') failed.push(it.entityId);
          else if (before.has(it.entityId)) markProcessing(qc, enrichmentId, it.entityId, it.executionId);
        }
        restore(failed);
        // Rows the server skipped (only empty rows) go back to what they showed.
        const answered = new Set(res.items.map((i) => i.entityId));
        restore([...before.keys()].filter((id) => !answered.has(id)));
      }
      for (const t of executionToasts(res)) notify[t.level](t.message);
      setOpen(false);
      onStarted?.(res.runId ?? null);
    } catch (e) {
      restore(before.keys());
      const message = serverMessage(e) ?? RUN_ENRICHMENT_MESSAGES.failedToStart;
      notify.error(message, message === RUN_ENRICHMENT_MESSAGES.noEmptyRows ? 1000 : undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Popover open={open} onOpenChange={(_, d) => setOpen(d.open)} positioning="below-end" trapFocus>
        <PopoverTrigger disableButtonEnhancement>
          <Button size="small" icon={<SparkleRegular />} data-testid="enrich-button">
            Enrich
          </Button>
        </PopoverTrigger>
        <PopoverSurface className={styles.surface} data-testid="enrich-popover" aria-label="Enrich">
          <Field label="Field">
            <Select value={fieldId ?? ''} onChange={(_, d) => pickField(d.value || null)} data-testid="enrich-field">
              <option value="">Pick a field</option>
              {fields.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
              {(unassigned || unassignedEnrichments.length > 0) && <option value={UNASSIGNED_CHOICE}>{UNASSIGNED_LABEL}</option>}
            </Select>
          </Field>
          <Field
            label="Enrichment"
            hint={
              unassigned
                ? 'Results show in the drawer under Unassigned Enrichments.'
                : field && forField.length === 0 && !enrichmentsQuery.isPending
                  ? 'No enrichment fills this field yet.'
                  : undefined
            }
          >
            <Select
              value={enrichmentId ?? ''}
              disabled={!field && !unassigned}
              onChange={(_, d) => setEnrichmentId(d.value || null)}
              data-testid="enrich-enrichment"
            >
              <option value="">Pick an enrichment</option>
              {forField.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                  {e.isPrimary ? ' (primary)' : ''}
                </option>
              ))}
            </Select>
          </Field>
          <RadioGroup value={option} onChange={(_, d) => setOption(d.value as RunOption)} data-testid="enrich-option">
            <Radio value="empty" label={RUN_OPTION_LABELS.empty} data-testid="enrich-option-empty" />
            <Radio value="all" label={RUN_OPTION_LABELS.all} data-testid="enrich-option-all" />
          </RadioGroup>
          {option === 'all' && (
            <Text className={styles.warning} role="note" data-testid="enrich-warning">
              <WarningRegular aria-hidden />
              {RUN_ENRICHMENT_MESSAGES.allRowsWarning}
            </Text>
          )}
          <Text className={styles.hint} data-testid="enrich-selected-count">
            {selectedCount === 0
              ? 'No rows selected.'
              : `${selectedCount.toLocaleString('en-US')} ${selectedCount === 1 ? 'row' : 'rows'} selected.`}
          </Text>
          {enrichmentId && selectedCount > 0 && estimate.data && (
            <Text className={estimate.data.exceedsCredits ? styles.warning : styles.hint} data-testid="enrich-estimate">
              {estimate.data.message}
              {estimate.data.creditsRemaining !== null && !estimate.data.exceedsCredits
                ? ` ${estimate.data.creditsRemaining.toLocaleString('en-US')} AI credits remaining.`
                : ''}
              {option === 'empty' && estimate.data.modelCalls > 0 ? ' Rows already filled are skipped.' : ''}
            </Text>
          )}
          <div className={styles.actions}>
            <Button
              size="small"
              appearance="subtle"
              icon={<AddRegular />}
              onClick={() => {
                setOpen(false);
                setCreating(true);
              }}
              data-testid="enrich-new-enrichment"
            >
              New Enrichment
            </Button>
            <Button
              size="small"
              appearance="primary"
              disabled={busy}
              icon={busy ? <Spinner aria-hidden size="extra-tiny" /> : undefined}
              onClick={() => void run()}
              data-testid="enrich-run"
            >
              Run
            </Button>
          </div>
        </PopoverSurface>
      </Popover>
      {createdOnce && (
        <Suspense fallback={null}>
          <NewEnrichmentFlow
            open={creating}
            onOpenChange={setCreating}
            initialEntity={entityType}
            entities={[entityType]}
            initialFieldId={field?.id ?? null}
            // Back to the popover with the new enrichment picked (under its field, or with the
            // unassigned ones: a LinkedIn enrichment has no field).
            onSaved={(e) => {
              if (e.entityType !== entityType) return;
              setFieldId(e.entityFieldId ?? UNASSIGNED_CHOICE);
              setEnrichmentId(e.id);
              setOpen(true);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
