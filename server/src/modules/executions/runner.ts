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
import { GroupCommit } from '../../jobs/group-commit';
import type { Job, JobResult } from 'pg-boss';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { EXECUTION_TYPES, EXECUTION_MESSAGES, executionFailedNotice, type ExecutionType } from '@dealscout/shared/domain';
import { defineJob, type JobContext, type JobDefinition } from '../../jobs/definitions';
import { publish, type PublishEvent } from '../realtime/publish';
import { notifyUser } from '../notifications/notify';
import { EXECUTION_COLUMNS, executionEvent, type ExecutionRow } from './execution.presenter';
import { executionQueue, EXECUTION_DEAD_LETTER_QUEUE, ExecutionJobData } from './queues';
import { BOSS_SCHEMA } from '../../jobs/boss';
import { tenantSql, unscopedSql } from '../../db/sql';
import { isConnectionLoss, retryOnConnectionLoss } from '../../db/connection-loss';
import { runEventsOf } from './runs';
import { executionsFinished } from '../../lib/metrics';

export interface ExecutionRunContext {
  /** The execution as claimed (status 'processing'). */
  execution: ExecutionRow;
  /** An EntityManager of its own, with the tenant filter set to the execution's organization. */
  em: EntityManager;
  logger: Logger;
  /** Aborted when the execution is cancelled, or when the process's grace period to stop is over: stop, and return or throw. */
  signal: AbortSignal;
  /**
   * Aborted when the process starts to stop (SIGTERM / SIGINT): do not start an outside call any
   * more — throw instead (the job is released to another worker at once, its attempt not counted).
   * A call already started may finish (within SHUTDOWN_GRACE_SECONDS) and its result is committed.
   */
  draining: AbortSignal;
  /** Reports progress (written at most every half second, and always when processed reaches total); throws when cancelled. */
  progress(processed: number, total?: number | null): Promise<void>;
  /** Every execution claimed with this one (the same fetched batch, this one included): for handlers that read in bulk. */
  batch: readonly ExecutionRow[];
  /**
   * A memo shared by the executions of the batch: `load` runs once per key for all of them (what
   * they all read — their configuration, their records — is read once, as of the claim).
   */
  memo<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** When the batch was claimed (ms since the epoch): an older batch's calls may go first (LLM priority). */
  claimedAt: number;
}

export interface ExecutionHandler<R = unknown> {
  type: ExecutionType;
  run(ctx: ExecutionRunContext): Promise<R>;
  /**
   * Writes the result in the completing transaction: its writes commit at most once per execution.
   * Database writes only (it may be called again after a rolled-back attempt, e.g. when another
   * execution of its group failed its own commit step). Realtime events go into `events`: they are
   * published with the group's (one statement per organization), just before the execution's own.
   */
  commit?(em: EntityManager, execution: ExecutionRow, result: R, events: PublishEvent[]): Promise<void>;
  /**
   * The same as `commit`, for every execution of a group of one organization at once (the runner
   * prefers it when given): a handler whose result is one row writes the group's rows in one
   * statement, so a busy worker's completing transaction does not take a statement per execution
   * while the finished batches wait for it. Same rules as `commit`: database writes only, may be
   * called again (with fewer items) after a rolled-back attempt.
   */
  commitMany?(em: EntityManager, items: readonly { execution: ExecutionRow; result: R }[], events: PublishEvent[]): Promise<void>;
}

/** An error whose message is shown to the user (the execution's statusMessage and the failure notice). */
export class ExecutionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExecutionError';
  }
}

class ExecutionCancelled extends Error {}

/** The reason a run is aborted when the process's grace period to stop is over. */
class ExecutionReleased extends Error {}

const NEVER = new AbortController().signal;

/**
 * Gives an active job back to its queue at once, for another worker (or this one's successor):
 * 'retry' due now, its retry limit raised by one so the release does not count as a failed attempt.
 * The next claim numbers a new attempt, so this worker's own settle of the job (pg-boss's, after the
 * handler returns) matches nothing: it is fenced on this attempt and on state 'active'.
 */
async function releaseJob(ctx: JobContext, queue: string, job: BatchItem['job']): Promise<void> {
  await unscopedSql(ctx.orm.em.fork(), 'worker-claim').bound(
    `update ${BOSS_SCHEMA}.job set state = 'retry', start_after = now(), retry_limit = retry_limit + 1
      where name = $1 and id = $2::uuid and state = 'active' and retry_count = $3`,
    [queue, job.id, job.retryCount],
  );
}

export interface RunnerOptions {
  /**
   * How often a running execution checks whether it was cancelled (250 ms: a job already claimed and waiting for a
   * model slot drops out before it calls; one small query per batch in flight each time).
   */
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

const QUALIFIED_COLUMNS = EXECUTION_COLUMNS.split(', ')
  .map((c) => `e.${c}`)
  .join(', ');

/**
 * Publishes each organization's events in the caller's transaction (one statement per
 * organization), organizations in id order: the per-organization sequence rows are always locked in
 * the same order, so two group commits never deadlock.
 */
async function publishByOrg(em: EntityManager, items: readonly { org: string; events: readonly PublishEvent[] }[]): Promise<void> {
  const byOrg = new Map<string, PublishEvent[]>();
  for (const i of items) {
    const list = byOrg.get(i.org) ?? [];
    list.push(...i.events);
    byOrg.set(i.org, list);
  }
  for (const org of [...byOrg.keys()].sort()) await publish(em, org, byOrg.get(org)!);
}

const rowEvents = (rows: readonly ExecutionRow[]) => rows.map((r) => ({ org: r.organization_id, events: [executionEvent(r)] }));

/**
 * Claims a fetched batch in one statement: active executions become 'processing'; the others are
 * skipped. The claimed executions' 'processing' events are published in the same transaction — one
 * statement more per batch, and the first row shows Processing... as soon as it is claimed; the
 * claim is numbered before anything the run writes later.
 */
function claimBatch(ctx: JobContext, items: readonly BatchItem[]): Promise<ExecutionRow[]> {
  const values = items.map((i) => ({ id: i.data.executionId, org: i.data.organizationId, attempt: i.job.retryCount }));
  return ctx.orm.em.fork().transactional(async (tem) => {
    const rows = await claimStatement(tem, values);
    await publishByOrg(tem, rowEvents(rows));
    return rows;
  });
}

function claimStatement(em: EntityManager, values: readonly { id: string; org: string; attempt: number }[]): Promise<ExecutionRow[]> {
  return unscopedSql(em, 'worker-claim').bound<ExecutionRow>(
    `update execution e set status = 'processing', attempt = v.attempt, status_message = null,
            started_at = coalesce(e.started_at, clock_timestamp()), updated_at = clock_timestamp()
       from (select (x->>'id')::uuid as id, (x->>'org')::uuid as org, (x->>'attempt')::int as attempt from jsonb_array_elements($1::jsonb) as x) v
      where e.id = v.id and e.organization_id = v.org and e.status in ('draft', 'scheduled', 'processing')
      returning ${QUALIFIED_COLUMNS}`,
    [JSON.stringify(values)],
  );
}

interface CommitItem {
  row: ExecutionRow;
  result: unknown;
  handler: ExecutionHandler;
}

/**
 * Completes executions in groups (jobs/group-commit.ts): whatever finished while the previous group
 * was committing goes into the next transaction (one statement for the group, the handlers' commit
 * steps, one sequence lock per organization). The per-organization sequence row is locked until
 * commit, so committing one at a time would limit an organization to one commit's latency per
 * execution. Answers per item whether it was committed or already settled (cancelled, or completed
 * by another attempt). A handler that throws fails the group, which is then written one execution
 * at a time, so it fails alone.
 */
async function commitGroup(ctx: JobContext, group: CommitItem[]): Promise<('committed' | 'settled')[]> {
  const outcome = new Map<CommitItem, 'committed' | 'settled'>();
  await ctx.orm.em.fork().transactional(async (tem) => {
    // One conditional statement completes the whole group: only executions still 'processing'
    // move (a cancelled one, or one another attempt completed, stays as it is and writes nothing).
    const rows = await unscopedSql(tem, 'worker-claim').bound<ExecutionRow>(
      `update execution e set status = 'completed', result = v.result, processed = coalesce(e.total, e.processed), status_message = null,
              completed_at = clock_timestamp(), updated_at = clock_timestamp()
         from (select (x->>'id')::uuid as id, (x->>'org')::uuid as org, x->'result' as result from jsonb_array_elements($1::jsonb) as x) v
        where e.id = v.id and e.organization_id = v.org and e.status = 'processing'
        returning ${QUALIFIED_COLUMNS}`,
      [JSON.stringify(group.map((i) => ({ id: i.row.id, org: i.row.organization_id, result: i.result ?? null })))],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    // Per execution: the handler's events, then its own 'completed' (the order a client sees).
    const events: { org: string; events: PublishEvent[] }[] = [];
    // Handlers that write a group at once: one call per handler and organization, its events
    // before the group's own 'completed' events.
    const many = new Map<string, { handler: ExecutionHandler; org: string; items: { execution: ExecutionRow; result: unknown }[] }>();
    for (const item of group) {
      const row = byId.get(item.row.id);
      if (!row || !item.handler.commitMany) continue;
      const key = `${item.handler.type}:${row.organization_id}`;
      const g = many.get(key) ?? { handler: item.handler, org: row.organization_id, items: [] };
      g.items.push({ execution: row, result: item.result });
      many.set(key, g);
    }
    for (const g of many.values()) {
      const em = tem.fork({ keepTransactionContext: true, clear: true });
      em.setFilterParams('tenant', { organizationId: g.org });
      const own: PublishEvent[] = [];
      await g.handler.commitMany!(em, g.items, own);
      if (own.length) events.push({ org: g.org, events: own });
    }
    for (const item of group) {
      const row = byId.get(item.row.id);
      outcome.set(item, row ? 'committed' : 'settled');
      if (!row) continue;
      const own: PublishEvent[] = [];
      if (item.handler.commit && !item.handler.commitMany) {
        // The handler's writes, in the same transaction, on an EntityManager of its own scoped
        // to the execution's organization. A handler that throws rolls the whole group back;
        // the group is then committed one execution at a time, so it fails alone.
        const em = tem.fork({ keepTransactionContext: true, clear: true });
        em.setFilterParams('tenant', { organizationId: row.organization_id });
        await item.handler.commit(em, row, item.result, own);
      }
      own.push(executionEvent(row));
      events.push({ org: row.organization_id, events: own });
    }
    // The progress of the runs these executions belong to, after their own events.
    events.push(...(await runEventsOf(tem, rows)));
    await publishByOrg(tem, events);
  });
  for (const [item, o] of outcome) if (o === 'committed') executionsFinished.inc({ type: item.row.type, status: 'completed' });
  return group.map((item) => outcome.get(item)!);
}

const committers = new WeakMap<object, GroupCommit<CommitItem, 'committed' | 'settled'>>();
function committerFor(ctx: JobContext): GroupCommit<CommitItem, 'committed' | 'settled'> {
  let c = committers.get(ctx.orm);
  if (!c) committers.set(ctx.orm, (c = new GroupCommit((group) => commitGroup(ctx, group), 200)));
  return c;
}

export interface BatchItem {
  data: ExecutionJobData;
  job: Pick<Job, 'id' | 'retryCount'>;
}

/** Tries of a commit whose connection was lost (250 ms apart, doubling: about 8 s in all). */
const COMMIT_ATTEMPTS = 6;

/** Executions running in this process (per ORM), by id: the outcome of their run, for a job fetched again meanwhile. */
const running = new WeakMap<object, Map<string, Promise<Pick<JobResult, 'status' | 'output'>>>>();
function runningIn(ctx: JobContext): Map<string, Promise<Pick<JobResult, 'status' | 'output'>>> {
  let m = running.get(ctx.orm);
  if (!m) running.set(ctx.orm, (m = new Map()));
  return m;
}

/**
 * Runs a fetched batch: claim all (one transaction), run each handler concurrently, complete them
 * through the group committer; a failure keeps its message on the execution and fails that job
 * alone (pg-boss retries it with backoff; after the last attempt it goes to the dead-letter queue).
 *
 * A job whose execution is still running in this process (fetched again: its job expired or was
 * retried while the first run was still going) is not run a second time: it waits for that run and
 * answers its outcome — one model call, one charge, one result per execution. Another process's
 * attempt is the conditional completion's business (exactly one commits).
 */
export async function runExecutionBatch(
  handlers: ReadonlyMap<string, ExecutionHandler>,
  items: readonly BatchItem[],
  ctx: JobContext,
  opts: RunnerOptions = {},
): Promise<JobResult[]> {
  const live = runningIn(ctx);
  const joined = new Map<string, Promise<Pick<JobResult, 'status' | 'output'>>>();
  const fresh: BatchItem[] = [];
  for (const it of items) {
    const p = live.get(it.data.executionId);
    if (p) joined.set(it.job.id, p);
    else fresh.push(it);
  }
  // Registered before the claim's await, so a batch fetched meanwhile joins these too.
  const settle = new Map<string, (v: Pick<JobResult, 'status' | 'output'>) => void>();
  const mine = new Map<string, Promise<Pick<JobResult, 'status' | 'output'>>>();
  for (const it of fresh) {
    const p = new Promise<Pick<JobResult, 'status' | 'output'>>((resolve) => settle.set(it.data.executionId, resolve));
    mine.set(it.data.executionId, p);
    live.set(it.data.executionId, p);
  }
  const done = (id: string, r: Pick<JobResult, 'status' | 'output'>) => {
    settle.get(id)?.(r);
    settle.delete(id);
    // Only this batch's own entry (a later batch may have registered the execution again since).
    if (live.get(id) === mine.get(id)) live.delete(id);
  };
  try {
    const own = fresh.length ? await runClaimed(handlers, fresh, ctx, opts, done) : [];
    const others = await Promise.all([...joined].map(async ([id, p]): Promise<JobResult> => ({ id, ...(await p) })));
    const byId = new Map([...own, ...others].map((r) => [r.id, r]));
    return items.map((it) => byId.get(it.job.id)!);
  } finally {
    for (const it of fresh) done(it.data.executionId, { status: 'failed', output: { message: 'the run ended without an outcome' } });
  }
}

async function runClaimed(
  handlers: ReadonlyMap<string, ExecutionHandler>,
  items: readonly BatchItem[],
  ctx: JobContext,
  opts: RunnerOptions,
  done: (executionId: string, r: Pick<JobResult, 'status' | 'output'>) => void,
): Promise<JobResult[]> {
  const claimedRows = await claimBatch(ctx, items);
  const claimedAt = Date.now();
  const claimed = new Map(claimedRows.map((r) => [r.id, r]));
  const aborts = new Map([...claimed.keys()].map((id) => [id, new AbortController()]));
  const unwatch = watchBatch(ctx, aborts, opts);
  const batch: ClaimedBatch = { handlers, opts, rows: claimedRows, claimed, aborts, memo: batchMemo(), claimedAt };
  try {
    // A run's rows start in the run's order (the table's): pg-boss hands a batch back in any order,
    // and the handlers' provider limits serve their callers in the order they ask.
    const inOrder = [...items].sort((x, y) => (x.data.order ?? 0) - (y.data.order ?? 0));
    return await Promise.all(
      inOrder.map(async ({ data, job }): Promise<JobResult> => {
        const r = await runOne(ctx, batch, data, job);
        done(data.executionId, r);
        return r;
      }),
    );
  } finally {
    unwatch();
  }
}

/** A claimed batch as its executions run: the rows, an abort per execution, the batch's memo. */
interface ClaimedBatch {
  handlers: ReadonlyMap<string, ExecutionHandler>;
  opts: RunnerOptions;
  rows: readonly ExecutionRow[];
  claimed: ReadonlyMap<string, ExecutionRow>;
  aborts: ReadonlyMap<string, AbortController>;
  memo: ExecutionRunContext['memo'];
  claimedAt: number;
}

/**
 * Aborts a batch's executions cancelled meanwhile (polled), and all of them when the grace period
 * to stop is over; answers the function that stops watching.
 */
function watchBatch(ctx: JobContext, aborts: ReadonlyMap<string, AbortController>, opts: RunnerOptions): () => void {
  const checkCancelled = async () => {
    const live = [...aborts].filter(([, ac]) => !ac.signal.aborted).map(([id]) => id);
    if (live.length === 0) return;
    const rows = await unscopedSql(ctx.orm.em.fork(), 'worker-claim').bound<{ id: string; status: string }>(
      `select id, status from execution where id in (select (jsonb_array_elements_text($1::jsonb))::uuid)`,
      [JSON.stringify(live)],
    );
    const status = new Map(rows.map((r) => [r.id, r.status]));
    for (const id of live) if (status.get(id) !== 'processing') aborts.get(id)!.abort(new ExecutionCancelled());
  };
  const watch = setInterval(() => {
    void checkCancelled().catch(() => {});
  }, opts.cancelPollMs ?? 250);
  // The grace period to stop is over: what still runs stops, and its job is released.
  const deadline = ctx.stop?.deadline;
  const onDeadline = () => {
    for (const ac of aborts.values()) if (!ac.signal.aborted) ac.abort(new ExecutionReleased());
  };
  if (deadline?.aborted) onDeadline();
  else deadline?.addEventListener('abort', onDeadline, { once: true });
  return () => {
    clearInterval(watch);
    deadline?.removeEventListener('abort', onDeadline);
  };
}

/** The memo of a batch (ExecutionRunContext.memo): `load` runs once per key; a failed read is not kept. */
function batchMemo(): ExecutionRunContext['memo'] {
  const memos = new Map<string, Promise<unknown>>();
  return <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let p = memos.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      memos.set(key, p);
      // A failed read is not kept: the next execution that asks reads again.
      p.catch(() => {
        if (memos.get(key) === p) memos.delete(key);
      });
    }
    return p;
  };
}

async function runOne(ctx: JobContext, batch: ClaimedBatch, data: ExecutionJobData, job: BatchItem['job']): Promise<JobResult> {
  const row = batch.claimed.get(data.executionId);
  const log = ctx.logger.child({ executionId: data.executionId, type: data.type, attempt: job.retryCount });
  if (!row) {
    // Cancelled, completed or failed already: nothing to do, the job just completes.
    log.info('execution is not runnable any more; job skipped');
    return { id: job.id, status: 'completed' };
  }
  const handler = batch.handlers.get(data.type);
  const ac = batch.aborts.get(row.id)!;
  const draining = ctx.stop?.draining ?? NEVER;
  const stopped = () => ac.signal.reason instanceof ExecutionReleased;
  const release = async (): Promise<JobResult> => {
    await releaseJob(ctx, executionQueue(data.type), job);
    log.info('the process is stopping: job released to another worker');
    return { id: job.id, status: 'completed' };
  };
  try {
    if (!handler) throw new ExecutionError(EXECUTION_MESSAGES.noHandler);
    const result = await handler.run({
      execution: row,
      em: tenantEm(ctx, row.organization_id),
      logger: log,
      signal: ac.signal,
      draining,
      progress: progressReporter(ctx, row, ac, batch.opts),
      batch: batch.rows,
      memo: batch.memo,
      claimedAt: batch.claimedAt,
    });
    if (stopped()) return await release();
    if (ac.signal.aborted) {
      log.info('execution cancelled while running; result discarded');
      return { id: job.id, status: 'completed' };
    }
    // The result is in hand (a model answer bought, a provider asked): a commit whose database
    // connection was cut is tried again on a new one instead of failing the job, whose retry would
    // do the work — and buy the answer — again. The completion is conditional, so a commit that
    // landed before its answer was lost is found settled the second time, never written twice.
    let tries = 0;
    const outcome = await retryOnConnectionLoss(() => {
      if (tries++ > 0) log.warn({ attempt: tries }, 'the commit lost its database connection; committing again');
      return committerFor(ctx).submit({ row, result, handler });
    }, COMMIT_ATTEMPTS);
    if (outcome === 'settled') log.info('execution already completed or cancelled by another attempt; this result was not written');
    return { id: job.id, status: 'completed' };
  } catch (err) {
    return await runFailed(ctx, { row, job, ac, draining, log }, err, { stopped, release });
  }
}

/** How a run that threw ends: released (stopping), completed (cancelled), or failed with its message kept on the row. */
async function runFailed(
  ctx: JobContext,
  run: { row: ExecutionRow; job: BatchItem['job']; ac: AbortController; draining: AbortSignal; log: JobContext['logger'] },
  err: unknown,
  stop: { stopped: () => boolean; release: () => Promise<JobResult> },
): Promise<JobResult> {
  const { row, job, ac, draining, log } = run;
  const { stopped, release } = stop;
  // Stopped by the end of the grace period, or gave up while the process drains: another worker
  // takes the job at once (a failure while draining is not counted either: it is tried again there).
  if (stopped() || (draining.aborted && !ac.signal.aborted && !(err instanceof ExecutionCancelled))) return release();
  if (ac.signal.aborted || err instanceof ExecutionCancelled) {
    log.info('execution cancelled; stopped');
    return { id: job.id, status: 'completed' };
  }
  const message = err instanceof ExecutionError ? err.message : EXECUTION_MESSAGES.unexpected;
  if (!(err instanceof ExecutionError)) log.error({ err }, 'execution failed');
  // The reason on the row is a courtesy for the retry's wait: a lost connection must not turn
  // this job's failure into the whole batch's.
  await retryOnConnectionLoss(() =>
    tenantSql(ctx.orm.em.fork(), row.organization_id).run(
      `update execution set status_message = ?, updated_at = clock_timestamp() where id = ? and organization_id = ? and status = 'processing'`,
      [message, row.id, row.organization_id],
    ),
  ).catch((e: unknown) => log.warn({ err: e }, 'could not keep the failure message on the execution'));
  return { id: job.id, status: 'failed', output: { message: err instanceof Error ? err.message : String(err) } };
}

function progressReporter(
  ctx: JobContext,
  claimed: ExecutionRow,
  ac: AbortController,
  opts: RunnerOptions,
): ExecutionRunContext['progress'] {
  let last = 0;
  const org = claimed.organization_id;
  return async (processed, total) => {
    if (ac.signal.aborted) throw new ExecutionCancelled();
    const final = total != null && processed >= total;
    if (!final && Date.now() - last < (opts.progressMs ?? 500)) return;
    last = Date.now();
    let row: ExecutionRow | undefined;
    try {
      row = await ctx.orm.em.fork().transactional(async (tem) => {
        const [r] = await tenantSql(tem, org).all<ExecutionRow>(
          `update execution set processed = ?, total = coalesce(?, total), updated_at = clock_timestamp()
            where id = ? and organization_id = ? and status = 'processing' returning ${EXECUTION_COLUMNS}`,
          [Math.max(0, Math.floor(processed)), total ?? null, claimed.id, org],
        );
        if (r) await publish(tem, org, executionEvent(r));
        return r;
      });
    } catch (err) {
      // A progress write reports the work, it is not the work: one whose connection was cut, or
      // that PostgreSQL chose as a deadlock's victim (a page of the run writing the same rows), is
      // skipped — the next one carries the count, the completion writes the final one — instead of
      // failing the run and doing its work again.
      if (!isConnectionLoss(err) && (err as { code?: unknown } | null)?.code !== '40P01') throw err;
      last = 0;
      return;
    }
    if (!row) {
      ac.abort(new ExecutionCancelled());
      throw new ExecutionCancelled();
    }
  };
}

/** One job (a batch of one); throws when it failed, as pg-boss expects of a single handler. */
export async function runExecutionJob(
  handler: ExecutionHandler,
  data: ExecutionJobData,
  ctx: JobContext,
  job: Pick<Job, 'retryCount'> & Partial<Pick<Job, 'id'>>,
  opts: RunnerOptions = {},
): Promise<void> {
  const [r] = await runExecutionBatch(
    new Map([[handler.type, handler]]),
    [{ data, job: { id: job.id ?? data.executionId, retryCount: job.retryCount } }],
    ctx,
    opts,
  );
  if (r.status === 'failed') throw new Error((r.output as { message?: string } | undefined)?.message ?? 'execution failed');
}

/**
 * A job that used up its retries (or expired each time, e.g. its worker was killed): the execution
 * becomes 'error' and its creator gets an error notification. Idempotent: only an active execution
 * changes, and the notice has a unique key.
 */
export async function handleDeadExecution(data: ExecutionJobData, ctx: JobContext): Promise<void> {
  const em = tenantEm(ctx, data.organizationId);
  await em.transactional(async (tem) => {
    const [row] = await tenantSql(tem, data.organizationId).all<ExecutionRow>(
      `update execution set status = 'error', status_message = coalesce(status_message, ?), completed_at = clock_timestamp(), updated_at = clock_timestamp()
        where id = ? and organization_id = ? and status in ('draft', 'scheduled', 'processing') returning ${EXECUTION_COLUMNS}`,
      [EXECUTION_MESSAGES.unexpected, data.executionId, data.organizationId],
    );
    if (!row) return;
    executionsFinished.inc({ type: row.type, status: 'error' });
    const runs = await runEventsOf(tem, [row]);
    await publish(tem, data.organizationId, [executionEvent(row), ...runs.flatMap((r) => r.events)]);
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
  // Read when the first job runs, not when the definitions are built: a process may still replace a
  // handler in between (the benches' worker swaps one type's handler for a no-op).
  let handlerMap: Map<string, ExecutionHandler> | null = null;
  const byTypeMap = () => (handlerMap ??= new Map(handlers.map((h) => [h.type, h])));
  const dead = defineJob({
    queue: EXECUTION_DEAD_LETTER_QUEUE,
    schema: ExecutionJobData,
    queueOptions: { retryLimit: 5, retryBackoff: true, retryDelay: 2, deleteAfterSeconds: 7 * 86_400 },
    workOptions: { localConcurrency: 2, batchSize: 10, burstWhenBatchFull: true },
    handle: (data, ctx) => handleDeadExecution(data, ctx),
  });
  const perType = EXECUTION_TYPES.map((type) =>
    defineJob({
      queue: executionQueue(type),
      schema: ExecutionJobData,
      worker: handlers.some((h) => h.type === type),
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
        notifyPollingIntervalSeconds: 2,
      }),
      handle: (data, ctx, job) => runExecutionJob(byTypeMap().get(type)!, data, ctx, job, opts),
      handleBatch: (items, ctx) => runExecutionBatch(byTypeMap(), items, ctx, opts),
    }),
  );
  return [dead as JobDefinition, ...(perType as JobDefinition[])];
}
