import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import { initialExecutionStatus, type ExecutionType, type ExecutionEntityType } from '@dealscout/shared/domain';
import { transactionDb } from '../../../jobs/boss';
import { publish, type PublishEvent } from '../../realtime/publish';
import { EXECUTION_COLUMNS, executionEvent, type ExecutionRow } from '../execution.presenter';
import { executionQueue, type ExecutionJobData } from '../queues';
import { tenantSql } from '../../../db/sql';

export interface ExecutionTarget {
  entityId: string | null;
  /** While an execution with this key is active, starting another answers 'duplicate' with its id. */
  idempotencyKey?: string | null;
  /** The new execution's id, when the caller chose it beforehand (default: a new one). */
  executionId?: string;
  /** Its place in the run (default: firstPosition + its index in targets). */
  position?: number;
}

export interface CreateExecutionsInput {
  organizationId: string;
  createdById: string | null;
  type: ExecutionType;
  typeId?: string | null;
  entityType: ExecutionEntityType;
  targets: readonly ExecutionTarget[];
  /** When the job may start (a scheduled run); now by default. */
  startAfter?: Date;
  /** Announce each new execution on the realtime feed (default: yes). */
  announce?: boolean;
  /**
   * With announce: the events go here instead of being published now, for a caller that publishes
   * them with its own at the end of its transaction (the organization's sequence lock is then held
   * for one statement and the commit, not for the rest of the transaction).
   */
  events?: PublishEvent[];
  /** The run these executions belong to (executions/runs.ts), when started together over many rows. */
  runId?: string | null;
  /**
   * The place in the run of the first target (default 0): the targets are in the run's order (the
   * table's, the rows on screen first) and their jobs are taken in that order (runOrderPriority).
   */
  firstPosition?: number;
}

/**
 * The pg-boss priority of a run's row at this place: pg-boss fetches by priority (higher first) and
 * then creation time, and the rows of one insert share their creation time (it took them in any
 * order), so each row's job carries its place: 0 for the first row, -1 for the next, and so on. A
 * single execution (a draft, one record) keeps 0 and so goes before the tail of a long run, and two
 * runs at once alternate their rows.
 */
export function runOrderPriority(position: number): number {
  return -Math.min(Math.max(0, Math.floor(position)), 1_000_000_000);
}

export interface StartedExecution {
  entityId: string | null;
  executionId: string;
  /** started: a new execution; duplicate: one with the same key is still active (its id). */
  status: 'started' | 'duplicate';
}

const CHUNK = 5_000;

/**
 * Creates executions and enqueues their jobs in one transaction (the caller's, or a new one): a row
 * exists if and only if its job does. Bulk: one statement per 5,000 targets and pg-boss `insert()`
 * for the jobs. Each job's id is its execution's id and its group is the organization, which the
 * workers' per-organization concurrency limit counts.
 */
export async function createExecutions(em: EntityManager, boss: PgBoss, input: CreateExecutionsInput): Promise<StartedExecution[]> {
  if (!em.getTransactionContext()) return em.transactional((tem) => createExecutions(tem, boss, input));
  const out: StartedExecution[] = [];
  const first = input.firstPosition ?? 0;
  for (let i = 0; i < input.targets.length; i += CHUNK)
    out.push(...(await createChunk(em, boss, { ...input, firstPosition: first + i }, input.targets.slice(i, i + CHUNK), 0)));
  return out;
}

async function createChunk(
  em: EntityManager,
  boss: PgBoss,
  input: CreateExecutionsInput,
  targets: readonly ExecutionTarget[],
  round: number,
): Promise<StartedExecution[]> {
  const status = initialExecutionStatus(input.type);
  const first = input.firstPosition ?? 0;
  const items = targets.map((t, i) => ({
    id: t.executionId ?? randomUUID(),
    entityId: t.entityId,
    key: t.idempotencyKey ?? null,
    position: t.position ?? first + i,
  }));
  const created = await tenantSql(em, input.organizationId).bound<ExecutionRow>(
    `insert into execution (id, organization_id, type, type_id, entity_type, entity_id, status, idempotency_key, attempt, processed,
      created_by_id, created_at, updated_at, run_id)
     select (e->>'id')::uuid, $1::uuid, $2::text, $3::uuid, $4::text, (e->>'entityId')::uuid, $5::text, e->>'key', 0, 0, $6::uuid,
       clock_timestamp(), clock_timestamp(), $8::uuid
       from jsonb_array_elements($7::jsonb) as e
     on conflict (organization_id, idempotency_key) where idempotency_key is not null and status in ('draft', 'scheduled', 'processing') do nothing
     returning ${EXECUTION_COLUMNS}`,
    [
      input.organizationId,
      input.type,
      input.typeId ?? null,
      input.entityType,
      status,
      input.createdById,
      JSON.stringify(items),
      input.runId ?? null,
    ],
  );
  const createdIds = new Set(created.map((r) => r.id));
  const answer = new Map<string, StartedExecution>(
    created.map((r) => [r.id, { entityId: r.entity_id, executionId: r.id, status: 'started' as const }]),
  );

  // Targets whose key is already active: answer with the active execution.
  const skipped = items.filter((it) => !createdIds.has(it.id));
  if (skipped.length > 0) {
    const keys = [...new Set(skipped.map((s) => s.key!))];
    const active = await tenantSql(em, input.organizationId).all<{ id: string; idempotency_key: string }>(
      `select id, idempotency_key from execution where organization_id = ? and status in ('draft', 'scheduled', 'processing')
          and idempotency_key in (select jsonb_array_elements_text(?::jsonb))`,
      [input.organizationId, JSON.stringify(keys)],
    );
    const activeByKey = new Map(active.map((a) => [a.idempotency_key, a.id]));
    const retry = skipped.filter((s) => !activeByKey.has(s.key!));
    for (const s of skipped) {
      const id = activeByKey.get(s.key!);
      if (id) answer.set(s.id, { entityId: s.entityId, executionId: id, status: 'duplicate' });
    }
    // The conflicting execution finished in between: try those once more.
    if (retry.length > 0 && round < 2) {
      const again = await createChunk(
        em,
        boss,
        input,
        retry.map((r) => ({ entityId: r.entityId, idempotencyKey: r.key, executionId: r.id, position: r.position })),
        round + 1,
      );
      retry.forEach((r, i) => {
        if (again[i]) answer.set(r.id, again[i]);
      });
    }
  }

  if (created.length > 0) {
    const positionOf = new Map(items.map((it) => [it.id, it.position]));
    const jobs = created.map((r) => ({
      id: r.id,
      data: {
        executionId: r.id,
        organizationId: input.organizationId,
        type: input.type,
        order: positionOf.get(r.id) ?? 0,
      } satisfies ExecutionJobData,
      priority: runOrderPriority(positionOf.get(r.id) ?? 0),
      group: { id: input.organizationId },
      ...(input.startAfter ? { startAfter: input.startAfter } : {}),
    }));
    await boss.insert(executionQueue(input.type), jobs, { db: transactionDb(em) });
    if (input.announce !== false) {
      if (input.events) input.events.push(...created.map(executionEvent));
      else await publish(em, input.organizationId, created.map(executionEvent));
    }
  }
  // Answer in the order of the targets.
  return items.flatMap((it) => answer.get(it.id) ?? []);
}
