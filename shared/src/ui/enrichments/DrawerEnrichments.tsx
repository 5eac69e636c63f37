// The drawer's enrichment pieces (spec 000 §2 'Details tab'): the Unassigned Enrichments section
// (enrichments of the record's type not tied to a field, sorted by name, each with its result, a run
// button and a copy button) and the run of one enrichment on one record, used by the field rows too.
import { useCallback, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Spinner, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { CopyRegular, PlayRegular } from '@fluentui/react-icons';
import { RUN_ENRICHMENT_MESSAGES, executionToasts, resultDisplay, type RecordEntityType, type ValueSchemaItem } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { DrawerSection, SectionNote } from '../drawer/DrawerSection';
import { COPIED_MESSAGE, COPY_TOAST_MS } from '../drawer/drawer-rules';
import { enrichmentKeys } from './keys';
import { markPreprocessing, markProcessing, setCellResult, useCellResult, useEnrichmentLiveUpdates, useSeedResults } from './liveResults';
import { ResultValue } from './ResultValue';
import { ColorDot } from './ColorPalette';

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  row: {
    display: 'grid',
    gridTemplateColumns: 'minmax(90px, 38%) 1fr auto',
    alignItems: 'start',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalXS}`,
    borderRadius: tokens.borderRadiusMedium,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  label: {
    display: 'flex',
    alignItems: 'center',
    gap: '6px',
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
    paddingTop: '6px',
    overflowWrap: 'anywhere',
  },
  value: { minWidth: 0, padding: '5px 0' },
  actions: { display: 'flex', gap: '2px' },
});

/** Runs one enrichment on one record: marks it, starts it, reports it (spec 002 §4, §8). */
export function useRunEnrichment(entityType: RecordEntityType) {
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  return useCallback(
    async (enrichmentId: string, entityId: string, interim?: unknown) => {
      const before = markPreprocessing(qc, enrichmentId, [entityId], () => interim ?? null);
      try {
        const res = await api.enrichments.execute({ enrichmentId, entityType, entityIds: [entityId], options: { onlyEmpty: false } });
        const item = res.items?.find((i) => i.entityId === entityId);
        if (item && item.status !== 'failed') markProcessing(qc, enrichmentId, entityId, item.executionId);
        else setCellResult(qc, enrichmentId, entityId, before.get(entityId) ?? null);
        for (const t of executionToasts(res)) notify[t.level](t.message);
      } catch (e) {
        setCellResult(qc, enrichmentId, entityId, before.get(entityId) ?? null);
        notify.error(serverMessage(e) ?? RUN_ENRICHMENT_MESSAGES.failedToStart);
      }
    },
    [api, qc, notify, entityType],
  );
}

/** Copies a text with the spec's toast ('Value copied to clipboard', 0.5 s). */
export function useCopyValue() {
  const notify = useNotify();
  return useCallback(
    async (text: string | null) => {
      if (text === null) return;
      try {
        await navigator.clipboard.writeText(text);
        notify.success(COPIED_MESSAGE, COPY_TOAST_MS);
      } catch {
        notify.error('Could not copy the value');
      }
    },
    [notify],
  );
}

/** A result's text for copying, as it reads on screen (null when there is none to copy). */
export function copyableResultText(result: Parameters<typeof resultDisplay>[0], schema?: readonly ValueSchemaItem[] | null): string | null {
  const d = resultDisplay(result, schema);
  return d.kind === 'value' ? d.text : null;
}

function UnassignedRow({
  enrichment,
  entityType,
  entityId,
}: {
  enrichment: { id: string; name: string; color: string | null; data?: { schema?: readonly ValueSchemaItem[] } };
  entityType: RecordEntityType;
  entityId: string;
}) {
  const styles = useStyles();
  const result = useCellResult(enrichment.id, entityId);
  const run = useRunEnrichment(entityType);
  const copy = useCopyValue();
  const running = result?.status === 'preprocessing' || result?.status === 'processing';
  const schema = enrichment.data?.schema;
  const text = copyableResultText(result, schema);
  return (
    <li className={styles.row} data-testid="drawer-enrichment-row" data-enrichment-id={enrichment.id}>
      <span className={styles.label}>
        <ColorDot color={enrichment.color} />
        <span data-testid="drawer-enrichment-name">{enrichment.name}</span>
      </span>
      <span className={styles.value}>
        <ResultValue errorOpen result={result ?? null} schema={schema} />
      </span>
      <span className={styles.actions}>
        <Tooltip content={`Run ${enrichment.name}`} relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={running ? <Spinner aria-hidden size="extra-tiny" /> : <PlayRegular />}
            disabled={running}
            onClick={() => void run(enrichment.id, entityId, result?.value)}
            data-testid="drawer-enrichment-run"
          />
        </Tooltip>
        <Tooltip content={text === null ? 'Nothing to copy' : 'Copy value'} relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<CopyRegular />}
            disabledFocusable={text === null}
            onClick={() => void copy(text)}
            data-testid="drawer-enrichment-copy"
          />
        </Tooltip>
      </span>
    </li>
  );
}

export function UnassignedEnrichmentsSection({
  entityType,
  entityId,
  open,
  onToggle,
}: {
  entityType: RecordEntityType;
  entityId: string;
  open: boolean;
  onToggle: () => void;
}) {
  const styles = useStyles();
  const api = useApi();
  useEnrichmentLiveUpdates(entityType);
  const q = useQuery({
    queryKey: enrichmentKeys.forEntity(entityType),
    queryFn: async () => (await api.enrichments.list({ entityType, take: 100 })).enrichments,
    // Enrichments have no realtime events: each drawer opening reads the list again.
    staleTime: 0,
  });
  const unassigned = useMemo(
    () =>
      (q.data ?? [])
        .filter((e) => !e.entityFieldId)
        .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true })),
    [q.data],
  );
  const ids = useMemo(() => unassigned.map((e) => e.id), [unassigned]);
  const entityIds = useMemo(() => [entityId], [entityId]);
  useSeedResults(entityType, entityIds, ids);
  return (
    <DrawerSection id="unassignedEnrichments" title="Unassigned Enrichments" count={unassigned.length} open={open} onToggle={onToggle}>
      {q.isPending ? (
        <Spinner size="tiny" label="Loading enrichments..." />
      ) : q.isError ? (
        <SectionNote testId="drawer-enrichments-error">Could not load the enrichments.</SectionNote>
      ) : unassigned.length === 0 ? (
        <SectionNote testId="drawer-enrichments-empty">
          No unassigned {entityType} enrichments. Enrichments not tied to a field are listed here, each with run and copy.
        </SectionNote>
      ) : (
        <ul className={styles.list} aria-label="Unassigned Enrichments">
          {unassigned.map((e) => (
            <UnassignedRow key={e.id} enrichment={e} entityType={entityType} entityId={entityId} />
          ))}
        </ul>
      )}
    </DrawerSection>
  );
}
