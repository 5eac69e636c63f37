// The progress line of a long run, the same in the web app, the Outlook pane and the Chrome side
// panel (no router, no window.location): done / total, failed, the rate and the time left, with
// Cancel. Fed by the realtime feed ('run.progress' events of runs, 'execution.updated' of an
// execution that reports its own rows) with POST /execution/progress as the fallback (read every
// few seconds while it runs, and whenever the socket is not open).
//
//   <RunProgress id={runId} />                  one run (where it was started)
//   <ActiveRuns match={(r) => …} />             the user's running and recent runs (a page, the bell)
import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Button, ProgressBar, Text, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { ExecutionDto, RealtimeEvent, RunProgressDto } from '../../contracts';
import { RUN_LABELS, progressFraction, progressRate, progressText, realtimePaths, settledOf, type ProgressSample } from '../../domain';
import { useApi } from '../ApiContext';
import { useRealtimeEvents, useRealtimeStatus } from '../realtime';
import { useNotify } from '../toast';

export const runProgressKey = (id: string) => ['run-progress', id] as const;
export const activeRunsKey = ['run-progress', 'active'] as const;

const useStyles = makeStyles({
  line: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: '6px 10px',
    minWidth: 0,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  texts: { display: 'flex', flexDirection: 'column', gap: '4px', flex: 1, minWidth: 0 },
  head: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'baseline', flexWrap: 'wrap' },
  label: { fontWeight: tokens.fontWeightSemibold },
  detail: { color: tokens.colorNeutralForeground2, fontVariantNumeric: 'tabular-nums' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

/** Counters only grow: the newer of two views of a run keeps the larger of each (an event may lag a read). */
export function mergeProgress(prev: RunProgressDto | undefined, next: RunProgressDto): RunProgressDto {
  if (!prev || prev.id !== next.id) return next;
  const ended = (s: RunProgressDto['status']) => s !== 'running';
  return {
    ...next,
    status: ended(prev.status) && !ended(next.status) ? prev.status : next.status,
    finishedAt: next.finishedAt ?? prev.finishedAt,
    total: next.total ?? prev.total,
    done: Math.max(prev.done, next.done),
    failed: Math.max(prev.failed, next.failed),
    cancelled: Math.max(prev.cancelled, next.cancelled),
  };
}

/** An execution that reports its own rows, as a progress line (the server's executionProgressDto). */
export function progressOfExecution(e: ExecutionDto): RunProgressDto {
  const status =
    e.status === 'completed' ? 'completed' : e.status === 'cancelled' ? 'cancelled' : e.status === 'error' ? 'error' : 'running';
  return {
    id: e.id,
    kind: 'execution',
    type: e.type,
    typeId: e.typeId,
    entityType: e.entityType,
    status,
    total: e.progress.total,
    done: e.status === 'completed' ? (e.progress.total ?? e.progress.processed) : e.progress.processed,
    failed: 0,
    cancelled: 0,
    startedAt: e.startedAt ?? e.createdAt,
    finishedAt: status === 'running' ? null : (e.completedAt ?? e.updatedAt),
    cancellable: e.cancellable ?? true,
  };
}

/** An execution shown on its own progress line (not one row of a run). */
export const reportsOwnRows = (x: Pick<ExecutionDto, 'type' | 'runId'>) =>
  !x.runId && (x.type === 'list' || x.type === 'score' || x.type === 'crmsync');

/** Applies a realtime event to the cached lines it concerns (a run's or an execution's). */
export function applyProgressEvent(qc: QueryClient, e: RealtimeEvent): void {
  let dto: RunProgressDto | null = null;
  if (e.kind === 'run.progress') dto = e.data as RunProgressDto;
  else if (e.kind === 'execution.updated') {
    const x = e.data as ExecutionDto;
    if (qc.getQueryData(runProgressKey(x.id))) dto = progressOfExecution(x);
    else if (reportsOwnRows(x) && x.listening) {
      // A new execution that reports its own rows (a CSV upload, a list source, a CRM sync): the
      // lists of active runs read again, so its line appears where it belongs.
      const active = qc.getQueryData<RunProgressDto[]>(activeRunsKey);
      if (active && !active.some((r) => r.id === x.id)) void qc.invalidateQueries({ queryKey: activeRunsKey });
    }
  }
  if (!dto) return;
  const current = qc.getQueryData<RunProgressDto>(runProgressKey(dto.id));
  qc.setQueryData(runProgressKey(dto.id), mergeProgress(current, dto));
  const active = qc.getQueryData<RunProgressDto[]>(activeRunsKey);
  if (active && !active.some((r) => r.id === dto!.id) && e.kind === 'run.progress') void qc.invalidateQueries({ queryKey: activeRunsKey });
}

/** Follows every run's progress events while mounted (once per client: the providers of the shells mount it). */
export function useRunProgressFeed(): void {
  const qc = useQueryClient();
  useRealtimeEvents(
    ({ oid }) => realtimePaths.executions(oid),
    (e) => applyProgressEvent(qc, e),
    { kinds: ['run.progress', 'execution.updated'] },
  );
}

export interface RunProgressProps {
  id: string;
  /** What the server answered last (a list of active runs), shown until the line's own read. */
  initial?: RunProgressDto;
  /** Overrides the type's label ('Enriching'…), e.g. with the enrichment's name. */
  label?: string;
  /** Shown once ended: hides the line. */
  onDismiss?: () => void;
}

/** One run's live line: a bar, 'Enriching · 120 / 295 done · 3 failed · 7.2 rows/s · about 25 s left', and Cancel. */
export function RunProgress({ id, initial, label, onDismiss }: RunProgressProps) {
  const styles = useStyles();
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  const socket = useRealtimeStatus();
  useRunProgressFeed();
  const q = useQuery({
    queryKey: runProgressKey(id),
    queryFn: async () => {
      const [run] = (await api.executions.progress([id])).runs;
      if (!run) throw new Error('Execution not found.');
      return mergeProgress(qc.getQueryData<RunProgressDto>(runProgressKey(id)), run);
    },
    initialData: initial,
    // The fallback: read again while it runs (more often when the socket is not open).
    refetchInterval: (query) =>
      query.state.data?.status === 'running' || !query.state.data ? (socket.status === 'open' ? 4_000 : 1_500) : false,
  });
  const p = q.data;
  // What this client has seen of the run, for the rate.
  const samples = useRef<ProgressSample[]>([]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!p) return;
    const settled = settledOf(p);
    const last = samples.current[samples.current.length - 1];
    if (!last || last.settled !== settled)
      samples.current = [...samples.current.filter((s) => s.at > Date.now() - 60_000), { at: Date.now(), settled }];
  }, [p]);
  // The time left counts down between events.
  useEffect(() => {
    if (p?.status !== 'running') return undefined;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [p?.status]);
  const cancel = useMutation({
    mutationFn: async () => {
      if (p?.kind === 'execution') return progressOfExecution((await api.executions.cancel(id)).execution);
      return (await api.executions.cancelRun(id)).run;
    },
    onSuccess: (run) => qc.setQueryData(runProgressKey(id), (prev: RunProgressDto | undefined) => mergeProgress(prev, run)),
    onError: (e) => notify.error(e instanceof Error ? e.message : 'Unable to cancel.'),
  });
  const rate = useMemo(() => (p ? progressRate(samples.current, Date.parse(p.startedAt), now) : null), [p, now]);
  if (!p) return null;
  const fraction = progressFraction(p);
  const text = progressText(p, rate);
  const name = label ?? RUN_LABELS[p.type];
  return (
    <div
      className={styles.line}
      role="status"
      aria-live="polite"
      aria-label={`${name}: ${text}`}
      data-testid="run-progress"
      data-run-id={p.id}
      data-type={p.type}
      data-status={p.status}
      data-done={p.done}
      data-failed={p.failed}
      data-total={p.total ?? ''}
    >
      <div className={styles.texts}>
        <div className={styles.head}>
          <Text size={200} className={styles.label}>
            {name}
          </Text>
          <Text size={200} className={styles.detail} data-testid="run-progress-text">
            {text}
          </Text>
        </div>
        <ProgressBar
          value={fraction ?? undefined}
          max={1}
          thickness="medium"
          color={
            p.status === 'error' || (p.status === 'completed' && p.failed > 0 && p.done === 0)
              ? 'error'
              : p.status === 'completed'
                ? 'success'
                : 'brand'
          }
          aria-label={`${name} progress`}
        />
      </div>
      {p.status === 'running' ? (
        p.cancellable === false ? null : (
          <Button
            size="small"
            appearance="secondary"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
            data-testid="run-progress-cancel"
          >
            Cancel
          </Button>
        )
      ) : onDismiss ? (
        <Button
          size="small"
          appearance="subtle"
          icon={<DismissRegular />}
          aria-label="Dismiss"
          onClick={onDismiss}
          data-testid="run-progress-dismiss"
        />
      ) : null}
    </div>
  );
}

export interface ActiveRunsProps {
  /** Which of the user's runs belong here (e.g. the ideas' runs on a list page); all by default. */
  match?: (run: RunProgressDto) => boolean;
  /** Runs started here that the list may not know yet (their ids): shown at once. */
  started?: readonly string[];
  /** Shown when there is no run (the bell shows nothing). */
  empty?: ReactNode;
  /** The list's own style (padding, a border), applied only when there is a run. */
  style?: CSSProperties;
}

/** The user's running and recently finished runs, each a live line (ended ones can be dismissed). */
export function ActiveRuns({ match, started = [], empty = null, style }: ActiveRunsProps) {
  const styles = useStyles();
  const api = useApi();
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  useRunProgressFeed();
  const q = useQuery({
    queryKey: activeRunsKey,
    queryFn: async () => (await api.executions.progress()).runs,
    staleTime: 2_000,
    refetchInterval: (query) => ((query.state.data ?? []).some((r) => r.status === 'running') ? 10_000 : 30_000),
  });
  const runs = (q.data ?? []).filter((r) => !dismissed.has(r.id) && (!match || match(r)));
  const ids = [...new Set([...started.filter((id) => !dismissed.has(id)), ...runs.map((r) => r.id)])];
  if (ids.length === 0) return <>{empty}</>;
  return (
    <div className={styles.list} style={style} data-testid="active-runs">
      {ids.map((id) => (
        <RunProgress key={id} id={id} initial={runs.find((r) => r.id === id)} onDismiss={() => setDismissed((d) => new Set([...d, id]))} />
      ))}
    </div>
  );
}
