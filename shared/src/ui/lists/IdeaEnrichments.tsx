// Idea enrichments in the ideas table (spec 002 §3 'List column', §4 'Idea enrichment
// results', 'Starting an enrichment', 'Idea execution display'): one column per list column of the
// list's idea enrichments (or one named after the enrichment reading $.result), cells that follow
// the runs live (the same per-cell cache and realtime events as the companies' tables, on
// org/{oid}/executions/enrichment/idea), and the Enrich dialog of the bulk bar (one of the list's
// idea enrichments, any company enrichment of the organization, or a new LLM prompt one) that runs
// it on the selected ideas; a company enrichment run on a list's ideas gets its column there too.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
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
  Option,
  OptionGroup,
  Radio,
  RadioGroup,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import type { EnrichmentDto, IdeaDto, IdeaFilters, RealtimeEvent } from '../../contracts';
import { ideaEnrichmentCell, realtimePaths, RESULT_TEXTS, type IdeaEnrichmentColumn } from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { useNotify } from '../toast';
import { useRealtimeEvents } from '../realtime';
import { useModalSurfaceStyle } from '../PluginMode';
import { ResultValue } from '../enrichments/ResultValue';
import { listEnrichmentsKey } from './firstView';
import {
  applyEnrichmentEvent,
  applyFetchedResult,
  markPreprocessing,
  markProcessing,
  setCellResult,
  useCellResult,
} from '../enrichments/liveResults';

/**
 * Seeds the cells from the page's ideas (their enrichmentResults) and follows the idea runs while
 * mounted; a finished run re-reads the list's ideas (batched) so the drawer shows the result too.
 */
export function useIdeaEnrichmentLive(listId: string, rows: readonly IdeaDto[]): void {
  const qc = useQueryClient();
  useEffect(() => {
    for (const r of rows) for (const x of r.enrichmentResults) applyFetchedResult(qc, { ...x, entityType: 'idea' });
  }, [rows, qc]);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  const onFinished = (type: string) => {
    if (type !== 'idea' || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void qc.invalidateQueries({ queryKey: queryKeys.ideas(listId) });
    }, 500);
  };
  useRealtimeEvents(
    ({ oid }) => realtimePaths.executions(oid, 'enrichment', 'idea'),
    (e: RealtimeEvent) => applyEnrichmentEvent(qc, e, onFinished),
  );
}

/** One idea's cell of an enrichment column: processing, error (the message on click) or the value at the column's path. */
export function IdeaEnrichmentCell({ column, ideaId }: { column: IdeaEnrichmentColumn; ideaId: string }) {
  const result = useCellResult(column.enrichmentId, ideaId);
  const cell = ideaEnrichmentCell(result, column);
  const common = {
    'data-testid': 'idea-enrichment-cell',
    'data-cell-status': cell.status,
    'data-enrichment-id': column.enrichmentId,
  } as const;
  switch (cell.status) {
    case 'none':
      return (
        <span {...common} style={{ color: tokens.colorNeutralForeground4 }}>
          {RESULT_TEXTS.none}
        </span>
      );
    case 'processing':
      return (
        <span {...common}>
          <ResultValue display={{ kind: 'processing', text: RESULT_TEXTS.processing }} />
        </span>
      );
    case 'error':
      return (
        <span {...common}>
          <ResultValue display={{ kind: 'error', text: RESULT_TEXTS.error, message: cell.message }} />
        </span>
      );
    default:
      return (
        <span {...common}>
          <ResultValue
            display={
              cell.text
                ? { kind: 'value', text: cell.text, formatted: cell.formatted, raw: cell.value }
                : { kind: 'none', text: RESULT_TEXTS.none }
            }
          />
        </span>
      );
  }
}

export interface EnrichIdeasDialogProps {
  open: boolean;
  listId: string;
  /** The selected ideas (null: all selected across pages by `filters`). */
  ideaIds: string[] | null;
  filters: IdeaFilters;
  /** How many ideas the run takes (for the title). */
  count: number;
  /** The table's sort: the run takes the rows in the table's order (the first on screen first). */
  sort?: { key: string; order: 'asc' | 'desc' } | null;
  onClose: () => void;
  /** After the run was started (e.g. clear the selection, show its progress line). */
  onStarted: (runId: string | null) => void;
}

const NEW = '__new__';

/** Runs one of the list's enrichments, a company enrichment, or a new LLM prompt one on the selected ideas. */
export function EnrichIdeasDialog(props: EnrichIdeasDialogProps) {
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  const surface = useModalSurfaceStyle();
  const enrichments = useQuery({
    queryKey: listEnrichmentsKey(props.listId),
    queryFn: () => api.enrichments.forList(props.listId),
    staleTime: 30_000,
    enabled: props.open,
  });
  const configsQuery = {
    queryKey: ['enrichment-configs', 'idea'],
    queryFn: async () => (await api.enrichments.ideaConfigs()).configs,
    staleTime: 5 * 60_000,
  };
  useQuery({ ...configsQuery, enabled: props.open });
  // The organization's company enrichments run on ideas too (an idea is a company by name and website).
  const companyEnrichments = useQuery({
    queryKey: ['enrichments', 'pick', 'company'],
    queryFn: async () => (await api.enrichments.list({ entityType: 'company', take: 100, sortKey: 'name', sortOrder: 'asc' })).enrichments,
    staleTime: 30_000,
    enabled: props.open,
  });
  const ownEnrichments: EnrichmentDto[] = useMemo(
    () => (enrichments.data?.enrichments ?? []).filter((e) => e.entityType === 'idea' || e.entityType === 'company'),
    [enrichments.data],
  );
  const otherEnrichments: EnrichmentDto[] = useMemo(() => {
    const own = new Set(ownEnrichments.map((e) => e.id));
    return (companyEnrichments.data ?? []).filter((e) => !own.has(e.id));
  }, [ownEnrichments, companyEnrichments.data]);
  const ideaEnrichments: EnrichmentDto[] = useMemo(() => [...ownEnrichments, ...otherEnrichments], [ownEnrichments, otherEnrichments]);
  const [choice, setChoice] = useState<string>('');
  const [name, setName] = useState('');
  const [prompt, setPrompt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (props.open) {
      setChoice('');
      setName('');
      setPrompt('');
      setError(null);
    }
  }, [props.open]);
  // The first enrichment is chosen once they are known (a new one when there is none).
  useEffect(() => {
    if (props.open && !choice && enrichments.data) setChoice(ideaEnrichments[0]?.id ?? NEW);
  }, [props.open, choice, enrichments.data, ideaEnrichments]);
  const creating = choice === NEW;

  const run = async () => {
    setError(null);
    if (creating && !name.trim()) return setError('Name is required');
    if (creating && !prompt.trim()) return setError('Prompt is required');
    setBusy(true);
    try {
      let enrichmentId = choice;
      let runId: string | null = null;
      if (creating) {
        // Run pressed before the types arrived waits for them (the same request, not a second one).
        const config = (await qc.ensureQueryData(configsQuery)).find((c) => c.enrichmentType === 'llm');
        if (!config) throw new Error('The idea enrichment types could not be loaded.');
        const res = await api.enrichments.create({
          configId: config.id,
          entityType: 'idea',
          listId: props.listId,
          name: name.trim(),
          prompt: prompt.trim(),
          schema: config.responseSchema ?? [
            { name: 'answer', type: 'string', description: "Your answer to the user's request.", required: true, createColumn: false },
          ],
        });
        enrichmentId = res.id;
      }
      // Spec 002 §4 'Starting an enrichment': the targets first show preprocessing, those started processing.
      const ids = props.ideaIds ?? [];
      const before = markPreprocessing(qc, enrichmentId, ids, () => null);
      try {
        const res = await api.enrichments.execute(
          props.ideaIds
            ? { enrichmentId, entityType: 'idea', entityIds: props.ideaIds, sort: props.sort ?? null }
            : {
                enrichmentId,
                entityType: 'idea',
                ideaFilters: { ...props.filters, listCompanyId: props.listId },
                sort: props.sort ?? null,
              },
        );
        runId = res.runId ?? null;
        for (const item of res.items ?? []) {
          if (item.status === 'failed') setCellResult(qc, enrichmentId, item.entityId, before.get(item.entityId) ?? null);
          else markProcessing(qc, enrichmentId, item.entityId, item.executionId);
        }
        notify.success(res.message);
      } catch (e) {
        for (const [id, r] of before) setCellResult(qc, enrichmentId, id, r ?? null);
        throw e;
      }
      // The run has started: the dialog closes at once and the list catches up behind it. A new
      // enrichment, or a company one run here for the first time, gets its column; all selected,
      // the page's cells come from the server's preprocessing events and a reload.
      void qc.invalidateQueries({ queryKey: listEnrichmentsKey(props.listId) });
      if (!props.ideaIds) void qc.invalidateQueries({ queryKey: queryKeys.ideas(props.listId) });
      props.onStarted(runId);
      props.onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Unable to execute enrichment');
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
      <DialogSurface style={surface} data-testid="enrich-ideas-dialog">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run();
          }}
        >
          <DialogBody>
            <DialogTitle>
              Enrich {props.count.toLocaleString('en-US')} idea{props.count === 1 ? '' : 's'}
            </DialogTitle>
            <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM }}>
              <RadioGroup
                value={creating ? NEW : 'existing'}
                onChange={(_, d) => setChoice(d.value === NEW ? NEW : (ideaEnrichments[0]?.id ?? NEW))}
                layout="horizontal"
              >
                <Radio
                  value="existing"
                  label="Run an existing enrichment"
                  disabled={ideaEnrichments.length === 0}
                  data-testid="enrich-ideas-existing"
                />
                <Radio value={NEW} label="New enrichment" data-testid="enrich-ideas-new" />
              </RadioGroup>
              {!creating && (
                <Field label="Enrichment">
                  <Dropdown
                    value={ideaEnrichments.find((e) => e.id === choice)?.name ?? ''}
                    selectedOptions={[choice]}
                    onOptionSelect={(_, d) => setChoice(d.optionValue ?? '')}
                    data-testid="enrich-ideas-pick"
                  >
                    {ownEnrichments.length > 0 && (
                      <OptionGroup label="This list">
                        {ownEnrichments.map((e) => (
                          <Option key={e.id} value={e.id} text={e.name}>
                            {e.name}
                            {e.entityType === 'company' ? ' (company enrichment)' : ''}
                          </Option>
                        ))}
                      </OptionGroup>
                    )}
                    {otherEnrichments.length > 0 && (
                      <OptionGroup label="Company enrichments">
                        {otherEnrichments.map((e) => (
                          <Option key={e.id} value={e.id}>
                            {e.name}
                          </Option>
                        ))}
                      </OptionGroup>
                    )}
                  </Dropdown>
                </Field>
              )}
              {creating && (
                <>
                  <Field label="Name" required>
                    <Input
                      value={name}
                      maxLength={200}
                      onChange={(_, d) => setName(d.value)}
                      placeholder="e.g. What they sell"
                      data-testid="enrich-ideas-name"
                    />
                  </Field>
                  <Field
                    label="Prompt"
                    required
                    hint="Asked about each idea; the model sees its name, website, domain and the source's columns."
                  >
                    <Textarea
                      value={prompt}
                      rows={4}
                      onChange={(_, d) => setPrompt(d.value)}
                      placeholder="What does the company sell?"
                      data-testid="enrich-ideas-prompt"
                    />
                  </Field>
                </>
              )}
              {error && (
                <Text role="alert" style={{ color: tokens.colorPaletteRedForeground1 }} data-testid="enrich-ideas-error">
                  {error}
                </Text>
              )}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={props.onClose}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={busy || !choice} data-testid="enrich-ideas-run">
                Run
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
