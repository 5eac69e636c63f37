// Runs: the executions started together over many rows (an enrichment or a play over a selection
// or a whole list). A run row keeps how many rows it took and whether it was cancelled; done,
// failed and cancelled are counted from its executions (execution.run_id). Its progress goes to
// the clients as a 'run.progress' event (key run:{id}, so a client that lags gets the latest) on the
// executions path of its type, whenever one of its executions settles, and through
// POST /execution/progress. An execution that reports its own rows (a list source, a score run, a
// CRM sync) is shown the same way from its processed / total (kind 'execution').
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { RunProgressDto } from '@dealscout/shared/contracts';
import {
  EXECUTION_MESSAGES,
  executionCancellable,
  realtimePaths,
  type ExecutionType,
  type ExecutionEntityType,
} from '@dealscout/shared/domain';
import { tenantSql } from '../../db/sql';
import { conflict, notFound } from '../../lib/errors';
import { transactionDb } from '../../jobs/boss';
import { publish, type PublishEvent } from '../realtime/publish';
import { EXECUTION_COLUMNS, executionEvent, type ExecutionRow } from './execution.presenter';
import { executionQueue } from './queues';

export interface RunRow {
  id: string;
  organization_id: string;
  type: string;
  type_id: string | null;
  entity_type: string;
  total: number;
  status: string;
  created_at: Date | string;
  cancelled_at: Date | string | null;
  done: number;
  failed: number;
  cancelled: number;
  last_at: Date | string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toRunProgressDto(r: RunRow): RunProgressDto {
  const settled = r.done + r.failed + r.cancelled;
  const status = r.status === 'cancelled' ? 'cancelled' : settled >= r.total ? 'completed' : 'running';
  return {
    id: r.id,
    kind: 'run',
    type: r.type as ExecutionType,
    typeId: r.type_id,
    entityType: r.entity_type as ExecutionEntityType,
    status,
    total: r.total,
    done: r.done,
    failed: r.failed,
    cancelled: r.status === 'cancelled' ? Math.max(r.cancelled, r.total - r.done - r.failed) : r.cancelled,
    startedAt: iso(r.created_at)!,
    finishedAt: status === 'cancelled' ? iso(r.cancelled_at) : status === 'completed' ? iso(r.last_at) : null,
    cancellable: true,
  };
}

/** One execution that reports its own rows, as a progress line. */
export function executionProgressDto(r: ExecutionRow): RunProgressDto {
  const status =
    r.status === 'completed' ? 'completed' : r.status === 'cancelled' ? 'cancelled' : r.status === 'error' ? 'error' : 'running';
  return {
    id: r.id,
    kind: 'execution',
    type: r.type as ExecutionType,
    typeId: r.type_id,
    entityType: r.entity_type as ExecutionEntityType,
    status,
    total: r.total,
    done: r.status === 'completed' ? (r.total ?? r.processed) : r.processed,
    failed: 0,
    cancelled: 0,
    startedAt: iso(r.started_at ?? r.created_at)!,
    finishedAt: status === 'running' ? null : iso(r.completed_at ?? r.updated_at),
    cancellable: executionCancellable({ type: r.type, idempotencyKey: r.idempotency_key }),
  };
}

export function runEvent(organizationId: string, dto: RunProgressDto): PublishEvent {
  return {
    path: realtimePaths.executions(organizationId, dto.type, dto.entityType),
    kind: 'run.progress',
    key: `run:${dto.id}`,
    data: dto,
  };
}

/** Creates a run (in the caller's transaction). */
export async function createRun(
  em: EntityManager,
  input: {
    id: string;
    organizationId: string;
    type: ExecutionType;
    typeId: string | null;
    entityType: ExecutionEntityType;
    total: number;
    createdById: string | null;
  },
): Promise<void> {
  await tenantSql(em, input.organizationId).all(
    `insert into execution_run (id, organization_id, type, type_id, entity_type, total, status, created_by_id, created_at)
      values (?, ?, ?, ?, ?, ?, 'running', ?, clock_timestamp()) on conflict (id, organization_id) do update set total = excluded.total`,
    [input.id, input.organizationId, input.type, input.typeId, input.entityType, input.total, input.createdById],
  );
}

/**
 * The runs' progress, counted from their executions. With `lock`, the run rows are locked first
 * (in id order): a transaction that publishes their progress then counts after any other that
 * published before it committed, so the newest event never misses an earlier group's rows.
 */
export async function runSummaries(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
  opts: { lock?: boolean } = {},
): Promise<RunProgressDto[]> {
  if (ids.length === 0) return [];
  const arr = `{${[...new Set(ids)].sort().join(',')}}`;
  if (opts.lock)
    await tenantSql(em, organizationId).all(
      `select id from execution_run where organization_id = ? and id = any(?::uuid[]) order by id for update`,
      [organizationId, arr],
    );
  const rows = await tenantSql(em, organizationId).all<RunRow>(
    `select r.id, r.organization_id, r.type, r.type_id, r.entity_type, r.total, r.status, r.created_at, r.cancelled_at,
        count(e.id) filter (where e.status = 'completed')::int as done,
        count(e.id) filter (where e.status = 'error')::int as failed,
        count(e.id) filter (where e.status = 'cancelled')::int as cancelled,
        max(e.completed_at) as last_at
      from execution_run r left join execution e on e.organization_id = r.organization_id and e.run_id = r.id
     where r.organization_id = ? and r.id = any(?::uuid[])
     group by r.id, r.organization_id order by r.created_at desc`,
    [organizationId, arr],
  );
  return rows.map(toRunProgressDto);
}

/** The 'run.progress' events of the runs these executions belong to (counted in the caller's transaction, the runs locked). */
export async function runEventsOf(
  em: EntityManager,
  rows: readonly Pick<ExecutionRow, 'organization_id' | 'run_id'>[],
): Promise<{ org: string; events: PublishEvent[] }[]> {
  const byOrg = new Map<string, Set<string>>();
  for (const r of rows) if (r.run_id) byOrg.set(r.organization_id, (byOrg.get(r.organization_id) ?? new Set()).add(r.run_id));
  const out: { org: string; events: PublishEvent[] }[] = [];
  for (const org of [...byOrg.keys()].sort()) {
    const runs = await runSummaries(em, org, [...byOrg.get(org)!], { lock: true });
    out.push({ org, events: runs.map((r) => runEvent(org, r)) });
  }
  return out;
}

/**
 * The progress lines asked for (run ids or execution ids), or without ids the user's runs and own
 * executions with rows that are running or finished in the last ten minutes, newest first.
 */
export async function progressOf(
  em: EntityManager,
  organizationId: string,
  userId: string | null,
  ids?: readonly string[],
): Promise<RunProgressDto[]> {
  const db = tenantSql(em, organizationId);
  if (ids && ids.length > 0) {
    const runs = await runSummaries(em, organizationId, ids);
    const found = new Set(runs.map((r) => r.id));
    const rest = ids.filter((id) => !found.has(id));
    const execs = rest.length
      ? await db.all<ExecutionRow>(`select ${EXECUTION_COLUMNS} from execution where organization_id = ? and id = any(?::uuid[])`, [
          organizationId,
          `{${rest.join(',')}}`,
        ])
      : [];
    const all = new Map([...runs.map((r) => [r.id, r] as const), ...execs.map((e) => [e.id, executionProgressDto(e)] as const)]);
    return ids.flatMap((id) => all.get(id) ?? []);
  }
  const recent = await db.all<{ id: string }>(
    `select id from execution_run where organization_id = ? and created_by_id = ? and (status = 'running' or cancelled_at >
      clock_timestamp() - interval '10 minutes') and created_at > clock_timestamp() - interval '7 days'
      order by created_at desc limit 20`,
    [organizationId, userId],
  );
  const runs = (
    await runSummaries(
      em,
      organizationId,
      recent.map((r) => r.id),
    )
  ).filter((r) => r.status === 'running' || (r.finishedAt && Date.parse(r.finishedAt) > Date.now() - 10 * 60_000));
  const execs = await db.all<ExecutionRow>(
    `select ${EXECUTION_COLUMNS} from execution where organization_id = ? and created_by_id = ? and run_id is null and type in ('list', 'score', 'crmsync')
      and (status in ('draft', 'scheduled', 'processing') or completed_at > clock_timestamp() - interval '10 minutes') order by created_at desc limit 20`,
    [organizationId, userId],
  );
  return [...runs, ...execs.map(executionProgressDto)].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/**
 * Cancels a run: it reads cancelled, and its executions not yet finished are cancelled (their jobs
 * removed from the queue; one that is running stops without writing, the runner polls its status)
 * — no further model call is made for it. Rows not created yet (the rest of a large run) are not
 * created. A run of another organization is not found.
 */
export async function cancelRun(
  em: EntityManager,
  boss: PgBoss | null,
  opts: { organizationId: string; runId: string },
): Promise<RunProgressDto> {
  return em.transactional(async (tem) => {
    const db = tenantSql(tem, opts.organizationId);
    // Its executions first, then the run row: the order in which completing executions lock them
    // (runEventsOf), so a cancel and a completing group never wait on each other in a circle.
    const [before] = await runSummaries(tem, opts.organizationId, [opts.runId]);
    if (!before) throw notFound(EXECUTION_MESSAGES.notFound);
    if (before.status !== 'running') throw conflict(EXECUTION_MESSAGES.alreadyFinished);
    const rows = await db.all<ExecutionRow>(
      `update execution set status = 'cancelled', status_message = ?, completed_at = clock_timestamp(), updated_at = clock_timestamp()
        where organization_id = ? and run_id = ? and status in ('draft', 'scheduled', 'processing') returning ${EXECUTION_COLUMNS}`,
      [EXECUTION_MESSAGES.cancelled, opts.organizationId, opts.runId],
    );
    await db.all(`update execution_run set status = 'cancelled', cancelled_at = clock_timestamp() where id = ? and organization_id = ?`, [
      opts.runId,
      opts.organizationId,
    ]);
    const byType = new Map<string, string[]>();
    for (const r of rows) byType.set(r.type, [...(byType.get(r.type) ?? []), r.id]);
    if (boss)
      for (const [type, ids] of byType)
        for (let i = 0; i < ids.length; i += 1000)
          await boss.cancel(executionQueue(type as ExecutionType), ids.slice(i, i + 1000), { db: transactionDb(tem) });
    const [after] = await runSummaries(tem, opts.organizationId, [opts.runId]);
    await publish(tem, opts.organizationId, [...rows.map(executionEvent), runEvent(opts.organizationId, after)]);
    return after;
  });
}

/** Whether a run was cancelled (the rest of a large run is then not created). */
export async function runCancelled(em: EntityManager, organizationId: string, runId: string | null | undefined): Promise<boolean> {
  if (!runId) return false;
  const [r] = await tenantSql(em, organizationId).all<{ status: string }>(
    `select status from execution_run where id = ? and organization_id = ?`,
    [runId, organizationId],
  );
  return r?.status === 'cancelled';
}
