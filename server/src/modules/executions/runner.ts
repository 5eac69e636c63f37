// The worker side of executions: one pg-boss queue per type, a handler per type (registered by the
// module that owns the type), retries with backoff, a dead-letter queue that turns final failures
// into error notices, and a per-organization concurrency limit.
//
// A handler is two steps:
//   run(ctx)      the work (outside services, long computation). It may run more than once — after
//                 a crash, a timeout or a retry — so outside effects must be idempotent themselves
//                 (use the execution id as the idempotency key with the outside service).
//   commit(...)   writes the result, inside the transaction that moves the execution from
//                 'processing' to 'completed'. That move is conditional, so however many attempts
//                 reach it, exactly one commits; the others roll back and write nothing.
import type { Job } from 'pg-boss';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import {
  EXECUTION_TYPES, EXECUTION_MESSAGES, executionFailedNotice, type ExecutionType,
} from '@dealscout/shared/domain';
import { defineJob, type JobContext, type JobDefinition } from '../../jobs/definitions';
import { publish } from '../realtime/publish';
import { notifyUser } from '../notifications/notify';
import { EXECUTION_COLUMNS, executionEvent, type ExecutionRow } from './execution.presenter';
import { executionQueue, EXECUTION_DEAD_LETTER_QUEUE, ExecutionJobData } from './queues';

export interface ExecutionRunContext {
  /** The execution as claimed (status 'processing'). */
  execution: ExecutionRow;
  /** An EntityManager of its own, with the tenant filter set to the execution's organization. */
  em: EntityManager;
  logger: Logger;
  /** Aborted when the execution is cancelled: stop, and return or throw. */
  signal: AbortSignal;
  /** Reports progress (written at most every half second, and always when processed reaches total); throws when cancelled. */
  progress(processed: number, total?: number | null): Promise<void>;
}

export interface ExecutionHandler<R = unknown> {
  type: ExecutionType;
  run(ctx: ExecutionRunContext): Promise<R>;
  /** Writes the result in the completing transaction (runs at most once per execution). */
  commit?(em: EntityManager, execution: ExecutionRow, result: R): Promise<void>;
}

/** An error whose message is shown to the user (the execution's statusMessage and the failure notice). */
export class ExecutionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExecutionError';
  }
}

class ExecutionCancelled extends Error {}
class AlreadySettled extends Error {}

export interface RunnerOptions {
  /** How often a running execution checks whether it was cancelled. */
  cancelPollMs?: number;
  /** Least time between two progress writes. */
  progressMs?: number;
}

export function defineExecutionHandler<R>(handler: ExecutionHandler<R>): ExecutionHandler<R> {
  return handler;
}

function tenantEm(ctx: JobContext, organizationId: string): EntityManager {
  const em = ctx.orm.em.fork();
  em.setFilterParams('tenant', { organizationId });
  return em;
}

/** Runs one execution job: claim, run, commit once; on failure keep the message and let pg-boss retry. */
export async function runExecutionJob(handler: ExecutionHandler, data: ExecutionJobData, ctx: JobContext, job: Pick<Job, 'retryCount'>, opts: RunnerOptions = {}): Promise<void> {
  const { executionId: id, organizationId: org } = data;
  const log = ctx.logger.child({ executionId: id, type: data.type, attempt: job.retryCount });
  const em = tenantEm(ctx, org);

  const claimed = await em.transactional(async (tem) => {
    const [row] = await tem.execute<ExecutionRow[]>(
      `update execution set status = 'processing', attempt = ?, status_message = null, started_at = coalesce(started_at, clock_timestamp()), updated_at = clock_timestamp()
        where id = ? and organization_id = ? and status in ('draft', 'scheduled', 'processing') returning ${EXECUTION_COLUMNS}`,
      [job.retryCount, id, org],
    );
    if (row) await publish(tem, org, executionEvent(row));
    return row ?? null;
  });
  // Cancelled, completed or failed already (or never committed): nothing to do, the job just completes.
  if (!claimed) {
    log.info('execution is not runnable any more; job skipped');
    return;
  }

  const ac = new AbortController();
  const checkCancelled = async () => {
    const [r] = await em.execute<{ status: string }[]>(`select status from execution where id = ? and organization_id = ?`, [id, org]);
    if (!r || r.status !== 'processing') ac.abort(new ExecutionCancelled());
  };
  const watch = setInterval(() => { void checkCancelled().catch(() => {}); }, opts.cancelPollMs ?? 1000);
  let lastProgress = 0;
  const progress = async (processed: number, total?: number | null) => {
    if (ac.signal.aborted) throw new ExecutionCancelled();
    const final = total != null && processed >= total;
    if (!final && Date.now() - lastProgress < (opts.progressMs ?? 500)) return;
    lastProgress = Date.now();
    const row = await em.transactional(async (tem) => {
      const [r] = await tem.execute<ExecutionRow[]>(
        `update execution set processed = ?, total = coalesce(?, total), updated_at = clock_timestamp()
          where id = ? and organization_id = ? and status = 'processing' returning ${EXECUTION_COLUMNS}`,
        [Math.max(0, Math.floor(processed)), total ?? null, id, org],
      );
      if (r) await publish(tem, org, executionEvent(r));
      return r;
    });
    if (!row) {
      ac.abort(new ExecutionCancelled());
      throw new ExecutionCancelled();
    }
  };

  try {
    const result = await handler.run({ execution: claimed, em: tenantEm(ctx, org), logger: log, signal: ac.signal, progress });
    if (ac.signal.aborted) {
      log.info('execution cancelled while running; result discarded');
      return;
    }
    await em.transactional(async (tem) => {
      const [row] = await tem.execute<ExecutionRow[]>(
        `update execution set status = 'completed', result = ?::jsonb, processed = coalesce(total, processed), status_message = null,
                completed_at = clock_timestamp(), updated_at = clock_timestamp()
          where id = ? and organization_id = ? and status = 'processing' returning ${EXECUTION_COLUMNS}`,
        [JSON.stringify(result ?? null), id, org],
      );
      if (!row) throw new AlreadySettled();
      if (handler.commit) await handler.commit(tem, row, result);
      await publish(tem, org, executionEvent(row));
    });
  } catch (err) {
    if (err instanceof AlreadySettled) {
      log.info('execution already completed or cancelled by another attempt; this result was not written');
      return;
    }
    if (ac.signal.aborted || err instanceof ExecutionCancelled) {
      log.info('execution cancelled; stopped');
      return;
    }
    const message = err instanceof ExecutionError ? err.message : EXECUTION_MESSAGES.unexpected;
    if (!(err instanceof ExecutionError)) log.error({ err }, 'execution failed');
    await em.execute(`update execution set status_message = ?, updated_at = clock_timestamp() where id = ? and organization_id = ? and status = 'processing'`, [message, id, org]);
    // pg-boss retries it with backoff; after the last attempt the job goes to the dead-letter queue.
    throw err;
  } finally {
    clearInterval(watch);
  }
}

/**
 * A job that used up its retries (or expired each time, e.g. its worker was killed): the execution
 * becomes 'error' and its creator gets an error notification. Idempotent: only an active execution
 * changes, and the notice has a unique key.
 */
export async function handleDeadExecution(data: ExecutionJobData, ctx: JobContext): Promise<void> {
  const em = tenantEm(ctx, data.organizationId);
  await em.transactional(async (tem) => {
    const [row] = await tem.execute<ExecutionRow[]>(
      `update execution set status = 'error', status_message = coalesce(status_message, ?), completed_at = clock_timestamp(), updated_at = clock_timestamp()
        where id = ? and organization_id = ? and status in ('draft', 'scheduled', 'processing') returning ${EXECUTION_COLUMNS}`,
      [EXECUTION_MESSAGES.unexpected, data.executionId, data.organizationId],
    );
    if (!row) return;
    await publish(tem, data.organizationId, executionEvent(row));
    if (row.created_by_id) {
      await notifyUser(tem, {
        organizationId: data.organizationId,
        userId: row.created_by_id,
        level: 'error',
        message: executionFailedNotice(row.type as ExecutionType, row.status_message),
        uniqueKey: `execution-failed:${row.id}`,
      });
    }
  });
}

/**
 * The job definitions of executions: the dead-letter queue first (queues name it), then one queue
 * per type. A type without a handler still gets its queue (producers can enqueue, and the queue
 * settings are in place) but no worker until its module registers one.
 */
export function executionJobDefinitions(handlers: readonly ExecutionHandler[], opts: RunnerOptions = {}): JobDefinition[] {
  const byType = new Map(handlers.map((h) => [h.type, h]));
  const dead = defineJob({
    queue: EXECUTION_DEAD_LETTER_QUEUE,
    schema: ExecutionJobData,
    queueOptions: { retryLimit: 5, retryBackoff: true, retryDelay: 2, deleteAfterSeconds: 7 * 86_400 },
    workOptions: { localConcurrency: 2, batchSize: 10, burstWhenBatchFull: true },
    handle: (data, ctx) => handleDeadExecution(data, ctx),
  });
  const perType = EXECUTION_TYPES.map((type) => defineJob({
    queue: executionQueue(type),
    schema: ExecutionJobData,
    worker: byType.has(type),
    queueOptions: (c) => ({
      retryLimit: c.EXECUTION_RETRY_LIMIT,
      retryBackoff: true,
      retryDelay: c.EXECUTION_RETRY_DELAY_SECONDS,
      retryDelayMax: 600,
      expireInSeconds: c.EXECUTION_EXPIRE_SECONDS,
      deadLetter: EXECUTION_DEAD_LETTER_QUEUE,
      // Completed jobs are not needed (the execution row is the record): keep the job table small.
      deleteAfterSeconds: 3_600,
      notify: true,
    }),
    workOptions: (c) => ({
      localConcurrency: c.EXECUTION_WORKER_CONCURRENCY,
      batchSize: c.EXECUTION_BATCH_SIZE,
      burstWhenBatchFull: true,
      // At most this many active jobs per organization on this queue, across every worker process.
      groupConcurrency: c.EXECUTION_ORG_CONCURRENCY,
      notifyPollingIntervalSeconds: 5,
    }),
    handle: (data, ctx, job) => runExecutionJob(byType.get(type)!, data, ctx, job, opts),
  }));
  return [dead as JobDefinition, ...(perType as JobDefinition[])];
}
