// Live enrichment results in cells and drawer rows (spec 002 §4 'Starting an enrichment'): all
// targets are marked preprocessing, those the server reports as started become processing, then
// realtime events set the results. Each (enrichment, record) result is one TanStack Query entry
// (enrichmentKeys.result) that the views read and that starts, events and fetches write.
import { useEffect, useMemo, useRef } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { EnrichmentResultDto, ExecutionDto, FieldValueEvent, RealtimeEvent } from '../../contracts';
import { ENRICHMENT_EVENT_KINDS } from '../../domain';
import { realtimePaths } from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { useRealtimeEvents } from '../realtime';
import { enrichmentKeys } from './keys';

export interface CellResult {
  status: 'preprocessing' | 'processing' | 'error' | 'complete';
  value: unknown;
  statusMessage: string | null;
  executionId?: string | null;
  /** When the server wrote it; local marks have none and give way to any server state. */
  updatedAt?: string | null;
}

export function getCellResult(qc: QueryClient, enrichmentId: string, entityId: string): CellResult | undefined {
  return qc.getQueryData<CellResult | null>(enrichmentKeys.result(enrichmentId, entityId)) ?? undefined;
}

export function setCellResult(qc: QueryClient, enrichmentId: string, entityId: string, r: CellResult | null): void {
  qc.setQueryData(enrichmentKeys.result(enrichmentId, entityId), r);
}

/** One record's result of one enrichment, as last known (undefined: none). */
export function useCellResult(enrichmentId: string | null | undefined, entityId: string): CellResult | undefined {
  const qc = useQueryClient();
  const key = enrichmentKeys.result(enrichmentId ?? '-', entityId);
  const q = useQuery<CellResult | null>({
    queryKey: key,
    queryFn: () => qc.getQueryData<CellResult | null>(key) ?? null,
    enabled: false,
    staleTime: Infinity,
    gcTime: 30 * 60_000,
  });
  return enrichmentId ? (q.data ?? undefined) : undefined;
}

const fromDto = (r: EnrichmentResultDto): CellResult => ({
  status: r.status,
  value: r.value,
  statusMessage: r.statusMessage,
  executionId: r.executionId,
  updatedAt: r.updatedAt,
});

/** A fetched result replaces what is known unless what is known is newer. */
export function applyFetchedResult(qc: QueryClient, r: EnrichmentResultDto): void {
  const cur = getCellResult(qc, r.enrichmentId, r.entityId);
  if (cur?.updatedAt && cur.updatedAt > r.updatedAt) return;
  // A local mark (no updatedAt) made after the fetch started stays until the server moves on.
  if (cur && !cur.updatedAt && (cur.status === 'preprocessing' || cur.status === 'processing') && r.status === 'complete') return;
  setCellResult(qc, r.enrichmentId, r.entityId, fromDto(r));
}

/** Seeds the cells of records (a table page, a drawer) from POST /enrichment/results. */
export function useSeedResults(entityType: 'company' | 'contact', entityIds: readonly string[], enrichmentIds: readonly string[]): void {
  const api = useApi();
  const qc = useQueryClient();
  const ids = useMemo(() => [...new Set(entityIds)].sort(), [entityIds]);
  const eids = useMemo(() => [...new Set(enrichmentIds)].sort(), [enrichmentIds]);
  const q = useQuery({
    queryKey: enrichmentKeys.results(entityType, ids, eids),
    queryFn: async () => (await api.enrichments.results({ entityType, entityIds: ids.slice(0, 1000), enrichmentIds: eids })).results,
    enabled: ids.length > 0 && eids.length > 0,
    staleTime: 10_000,
  });
  useEffect(() => {
    for (const r of q.data ?? []) applyFetchedResult(qc, r);
  }, [q.data, qc]);
}

/** Marks targets before the execute call answers: preprocessing, keeping the interim answer. */
export function markPreprocessing(
  qc: QueryClient,
  enrichmentId: string,
  entityIds: readonly string[],
  interim: (id: string) => unknown,
): Map<string, CellResult | undefined> {
  const before = new Map<string, CellResult | undefined>();
  for (const id of entityIds) {
    const cur = getCellResult(qc, enrichmentId, id);
    before.set(id, cur);
    setCellResult(qc, enrichmentId, id, {
      status: 'preprocessing',
      value: cur?.value ?? interim(id) ?? null,
      statusMessage: null,
      executionId: null,
      updatedAt: null,
    });
  }
  return before;
}

export function markProcessing(qc: QueryClient, enrichmentId: string, entityId: string, executionId: string | null): void {
  const cur = getCellResult(qc, enrichmentId, entityId);
  // An event may already have finished it.
  if (cur && cur.updatedAt && (cur.status === 'complete' || cur.status === 'error')) return;
  setCellResult(qc, enrichmentId, entityId, {
    status: 'processing',
    value: cur?.value ?? null,
    statusMessage: null,
    executionId,
    updatedAt: cur?.updatedAt ?? null,
  });
}

/** Applies an event of `org/{oid}/executions/enrichment/…` or `org/{oid}/entities/…`. */
export function applyEnrichmentEvent(qc: QueryClient, e: RealtimeEvent, onFinished: (entityType: string, entityId: string) => void): void {
  if (e.kind === ENRICHMENT_EVENT_KINDS.result) {
    const r = e.data as EnrichmentResultDto | null;
    if (!r || typeof r.enrichmentId !== 'string' || typeof r.entityId !== 'string') return;
    const cur = getCellResult(qc, r.enrichmentId, r.entityId);
    if (cur?.updatedAt && r.updatedAt && cur.updatedAt > r.updatedAt) return;
    setCellResult(qc, r.enrichmentId, r.entityId, fromDto(r));
    if (r.status === 'complete' || r.status === 'error') onFinished(r.entityType, r.entityId);
    return;
  }
  if (e.kind === ENRICHMENT_EVENT_KINDS.execution) {
    const x = e.data as ExecutionDto | null;
    if (!x || x.type !== 'enrichment' || !x.typeId || !x.entityId) return;
    const cur = getCellResult(qc, x.typeId, x.entityId);
    if (cur?.executionId && cur.executionId !== x.id && cur.updatedAt && cur.updatedAt > x.updatedAt) return;
    if (x.status === 'processing') {
      setCellResult(qc, x.typeId, x.entityId, {
        status: 'processing',
        value: cur?.value ?? null,
        statusMessage: null,
        executionId: x.id,
        updatedAt: x.updatedAt,
      });
    } else if (x.status === 'error' || x.status === 'cancelled') {
      setCellResult(qc, x.typeId, x.entityId, {
        status: 'error',
        value: cur?.value ?? null,
        statusMessage: x.statusMessage,
        executionId: x.id,
        updatedAt: x.updatedAt,
      });
      onFinished(x.entityType, x.entityId);
    } else if (x.status === 'completed') {
      // The result event carries the value; records re-read their fields.
      onFinished(x.entityType, x.entityId);
    }
    return;
  }
  if (e.kind === ENRICHMENT_EVENT_KINDS.fieldValue) {
    const f = e.data as FieldValueEvent | null;
    if (f && typeof f.entityId === 'string') onFinished(f.entityType, f.entityId);
  }
}

/**
 * Follows enrichment runs of one entity type while mounted: results into the cells, and the
 * records' tables and drawers re-read (batched) when a run finishes, so written field values show.
 */
export function useEnrichmentLiveUpdates(entityType: 'company' | 'contact'): void {
  const qc = useQueryClient();
  const pending = useRef<{ timer: ReturnType<typeof setTimeout> | null; ids: Set<string> }>({ timer: null, ids: new Set() });
  useEffect(
    () => () => {
      if (pending.current.timer) clearTimeout(pending.current.timer);
    },
    [],
  );
  const onFinished = (type: string, id: string) => {
    if (type !== entityType) return;
    const p = pending.current;
    p.ids.add(id);
    if (p.timer) return;
    p.timer = setTimeout(() => {
      const ids = [...p.ids];
      p.ids.clear();
      p.timer = null;
      void qc.invalidateQueries({ queryKey: entityType === 'company' ? queryKeys.companies : queryKeys.contacts });
      for (const i of ids) void qc.invalidateQueries({ queryKey: entityType === 'company' ? queryKeys.company(i) : queryKeys.contact(i) });
    }, 300);
  };
  const handler = (e: RealtimeEvent) => applyEnrichmentEvent(qc, e, onFinished);
  useRealtimeEvents(({ oid }) => realtimePaths.executions(oid, 'enrichment', entityType), handler);
  useRealtimeEvents(({ oid }) => realtimePaths.entities(oid, entityType), handler, { kinds: [ENRICHMENT_EVENT_KINDS.fieldValue] });
}
