import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { EnrichmentResultDto, ExecutionDto, RealtimeEvent } from '../../contracts';
import { applyEnrichmentEvent, getCellResult, markPreprocessing, markProcessing } from './liveResults';

const E = 'e0000000-0000-4000-8000-000000000001';
const R = 'c0000000-0000-4000-8000-000000000001';

const event = (kind: string, data: unknown, seq = 1): RealtimeEvent => ({
  seq,
  path: 'org/o/executions/enrichment/company',
  kind,
  key: `k${seq}`,
  data,
  at: '2026-01-01T00:00:00.000Z',
});
const execution = (status: ExecutionDto['status'], updatedAt: string, statusMessage: string | null = null): ExecutionDto => ({
  id: 'x1',
  type: 'enrichment',
  typeId: E,
  entityType: 'company',
  entityId: R,
  status,
  statusMessage,
  progress: { processed: 0, total: null },
  listening: status === 'processing',
  attempt: 0,
  createdById: null,
  createdAt: updatedAt,
  updatedAt,
  startedAt: null,
  completedAt: null,
});
const result = (status: EnrichmentResultDto['status'], updatedAt: string, answer: string | null = null): EnrichmentResultDto => ({
  id: 'r1',
  enrichmentId: E,
  entityType: 'company',
  entityId: R,
  executionId: 'x1',
  status,
  statusMessage: null,
  value: { result: answer === null ? null : { answer } },
  sources: [],
  updatedAt,
});

describe('live enrichment results', () => {
  it('goes preprocessing → processing → complete, and re-reads the record when done', () => {
    const qc = new QueryClient();
    const done = vi.fn();
    markPreprocessing(qc, E, [R], () => 'Old CEO');
    expect(getCellResult(qc, E, R)).toMatchObject({ status: 'preprocessing', value: 'Old CEO' });
    markProcessing(qc, E, R, 'x1');
    expect(getCellResult(qc, E, R)).toMatchObject({ status: 'processing', executionId: 'x1', value: 'Old CEO' });
    applyEnrichmentEvent(qc, event('execution.updated', execution('processing', '2026-01-01T00:00:01.000Z')), done);
    expect(getCellResult(qc, E, R)?.status).toBe('processing');
    expect(done).not.toHaveBeenCalled();
    applyEnrichmentEvent(qc, event('enrichment.result', result('complete', '2026-01-01T00:00:03.000Z', 'Jane'), 2), done);
    expect(getCellResult(qc, E, R)).toMatchObject({ status: 'complete', value: { result: { answer: 'Jane' } } });
    expect(done).toHaveBeenCalledWith('company', R);
  });

  it('never lets an older event replace a newer state', () => {
    const qc = new QueryClient();
    applyEnrichmentEvent(qc, event('enrichment.result', result('complete', '2026-01-01T00:00:05.000Z', 'New')), vi.fn());
    applyEnrichmentEvent(qc, event('enrichment.result', result('preprocessing', '2026-01-01T00:00:02.000Z')), vi.fn());
    expect(getCellResult(qc, E, R)).toMatchObject({ status: 'complete' });
    // A late 'processing' does not reopen a finished run.
    markProcessing(qc, E, R, 'x1');
    expect(getCellResult(qc, E, R)?.status).toBe('complete');
  });

  it('turns a failed execution into Error with its message', () => {
    const qc = new QueryClient();
    const done = vi.fn();
    markPreprocessing(qc, E, [R], () => null);
    applyEnrichmentEvent(
      qc,
      event('execution.updated', execution('error', '2026-01-01T00:00:04.000Z', 'No AI provider is configured.')),
      done,
    );
    expect(getCellResult(qc, E, R)).toMatchObject({ status: 'error', statusMessage: 'No AI provider is configured.' });
    expect(done).toHaveBeenCalledWith('company', R);
  });

  it('ignores other execution types and malformed events', () => {
    const qc = new QueryClient();
    applyEnrichmentEvent(qc, event('execution.updated', { ...execution('processing', '2026-01-01T00:00:01.000Z'), type: 'play' }), vi.fn());
    applyEnrichmentEvent(qc, event('enrichment.result', { nope: true }), vi.fn());
    expect(getCellResult(qc, E, R)).toBeUndefined();
  });
});
