import type { ExecutionDto } from '@dealscout/shared/contracts';
import {
  executionCancellable,
  isTerminalExecutionStatus,
  realtimePaths,
  type ExecutionType,
  type ExecutionStatus,
  type ExecutionEntityType,
} from '@dealscout/shared/domain';
import type { PublishEvent } from '../realtime/publish';

/** An execution row as raw SQL returns it (the module reads and writes with explicit organization). */
export interface ExecutionRow {
  id: string;
  organization_id: string;
  type: string;
  type_id: string | null;
  entity_type: string;
  entity_id: string | null;
  status: string;
  status_message: string | null;
  idempotency_key: string | null;
  attempt: number;
  processed: number;
  total: number | null;
  result: unknown;
  created_by_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  started_at: Date | string | null;
  completed_at: Date | string | null;
  run_id: string | null;
}

export const EXECUTION_COLUMNS =
  'id, organization_id, type, type_id, entity_type, entity_id, status, status_message, idempotency_key, attempt, ' +
  'processed, total, result, created_by_id, created_at, updated_at, started_at, completed_at, run_id';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toExecutionDto(r: ExecutionRow): ExecutionDto {
  return {
    id: r.id,
    type: r.type as ExecutionType,
    typeId: r.type_id,
    entityType: r.entity_type as ExecutionEntityType,
    entityId: r.entity_id,
    status: r.status as ExecutionStatus,
    statusMessage: r.status_message,
    progress: { processed: r.processed, total: r.total },
    listening: !isTerminalExecutionStatus(r.status),
    attempt: r.attempt,
    createdById: r.created_by_id,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    startedAt: iso(r.started_at),
    completedAt: iso(r.completed_at),
    runId: r.run_id ?? null,
    cancellable: executionCancellable({ type: r.type, idempotencyKey: r.idempotency_key }),
  };
}

/**
 * The realtime event of an execution's new state, on org/{oid}/executions/{type}/{entityType}. Its
 * key is the execution: a client that lags behind gets only the latest state.
 */
export function executionEvent(r: ExecutionRow): PublishEvent {
  return {
    path: realtimePaths.executions(r.organization_id, r.type, r.entity_type),
    kind: 'execution.updated',
    key: `execution:${r.id}`,
    data: toExecutionDto(r),
  };
}
