import type { PgBoss, Job, WorkOptions, Queue, JobResult } from 'pg-boss';
import type { z } from 'zod';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { loadConfig, type Config } from '../config';
import { jobDuration, jobsRun } from '../lib/metrics';

export interface JobContext {
  orm: MikroORM;
  logger: Logger;
  boss: PgBoss;
  /** The process's settings (main.ts passes them; tests may leave them to the environment). */
  config?: Config;
  /** The process's stop (SIGTERM / SIGINT): absent in processes that never stop gracefully. */
  stop?: WorkerStop;
}

/**
 * A worker process's graceful stop, in two steps: `draining` (the signal came: fetch nothing more;
 * work that has not started its outside call gives up, and its job is released to another worker at
 * once) and `deadline` (the grace period is over: work still running is stopped and released).
 */
export interface WorkerStop {
  draining: AbortSignal;
  deadline: AbortSignal;
}

export function createWorkerStop(): { stop: WorkerStop; drain(): void; expire(): void } {
  const draining = new AbortController();
  const deadline = new AbortController();
  return {
    stop: { draining: draining.signal, deadline: deadline.signal },
    drain: () => draining.abort(),
    expire: () => {
      draining.abort();
      deadline.abort();
    },
  };
}

type FromConfig<T> = T | ((config: Config) => T);

/** A job: its queue, the zod schema of its payload, and an idempotent handler. */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  queue: string;
  schema: S;
  queueOptions?: FromConfig<Omit<Queue, 'name'>>;
  workOptions?: FromConfig<WorkOptions>;
  /** Cron (UTC) for scheduled tasks. */
  schedule?: string;
  /** False: the queue exists (producers may enqueue) but no worker takes its jobs yet. */
  worker?: boolean;
  handle(data: z.infer<S>, ctx: JobContext, job: Job): Promise<void>;
  /** Handles a whole fetched batch at once (group commits); answers one result per job. Used instead of `handle` when present. */
  handleBatch?(items: { data: z.infer<S>; job: Job }[], ctx: JobContext): Promise<JobResult[]>;
}

export function defineJob<S extends z.ZodType>(def: JobDefinition<S>): JobDefinition<S> {
  return def;
}

const resolve = <T>(v: FromConfig<T> | undefined, config: Config): T | undefined =>
  typeof v === 'function' ? (v as (c: Config) => T)(config) : v;

/**
 * Creates every queue (API processes too: pg-boss needs the queue before `send`). Dead-letter queues
 * must come before the queues that name them.
 *
 * Every queue has worker heartbeats (`heartbeatSeconds`, JOB_HEARTBEAT_SECONDS): pg-boss refreshes
 * the active jobs of a live worker every half of it, and the supervisor of any worker process fails
 * (retries) a job whose heartbeat stopped — a killed worker's jobs are free again within seconds,
 * instead of after their expiry (which stays the cap on one job's work). A queue created before
 * gets the setting too (createQueue leaves an existing queue as it is).
 */
export async function createQueues(boss: PgBoss, defs: readonly JobDefinition[], config: Config = loadConfig()): Promise<void> {
  for (const def of defs) {
    const options = {
      retryLimit: 3,
      retryBackoff: true,
      retryDelay: 5,
      heartbeatSeconds: config.JOB_HEARTBEAT_SECONDS,
      ...resolve(def.queueOptions, config),
    };
    await boss.createQueue(def.queue, options);
    await boss.updateQueue(def.queue, { heartbeatSeconds: options.heartbeatSeconds });
  }
}

/**
 * Starts the workers of a worker process. Jobs of a batch are settled one by one: a job that throws
 * fails (and is retried) alone.
 */
export async function startWorkers(boss: PgBoss, defs: readonly JobDefinition[], ctx: JobContext): Promise<void> {
  const config = ctx.config ?? loadConfig();
  for (const def of defs) {
    if (def.worker === false) continue;
    const options: WorkOptions = {
      pollingIntervalSeconds: config.JOB_POLL_SECONDS,
      ...resolve(def.workOptions, config),
      perJobResults: true,
    };
    const failed = (job: Job<object>, err: unknown): JobResult => {
      ctx.logger.warn({ err, queue: def.queue, jobId: job.id, attempt: job.retryCount }, 'job failed');
      return { id: job.id, status: 'failed', output: { message: err instanceof Error ? err.message : String(err) } };
    };
    const run = async (jobs: Job<object>[]): Promise<JobResult[]> => {
      if (def.handleBatch) {
        const valid: { data: unknown; job: Job }[] = [];
        const invalid: JobResult[] = [];
        for (const job of jobs) {
          const parsed = def.schema.safeParse(job.data);
          if (parsed.success) valid.push({ data: parsed.data, job });
          else invalid.push(failed(job, parsed.error));
        }
        return [...invalid, ...(valid.length ? await def.handleBatch(valid, ctx) : [])];
      }
      return Promise.all(
        jobs.map(async (job): Promise<JobResult> => {
          try {
            await def.handle(def.schema.parse(job.data), ctx, job);
            return { id: job.id, status: 'completed' };
          } catch (err) {
            return failed(job, err);
          }
        }),
      );
    };
    // Metrics (lib/metrics.ts): the batch's time in its handler and each job's result.
    await boss.work(def.queue, options, async (jobs: Job<object>[]): Promise<JobResult[]> => {
      const started = performance.now();
      try {
        const results = await run(jobs);
        for (const r of results) jobsRun.inc({ queue: def.queue, result: r.status === 'failed' ? 'failed' : 'completed' });
        return results;
      } catch (err) {
        jobsRun.inc({ queue: def.queue, result: 'failed' }, jobs.length);
        throw err;
      } finally {
        jobDuration.observe({ queue: def.queue }, (performance.now() - started) / 1000);
      }
    });
    if (def.schedule) await boss.schedule(def.queue, def.schedule, {});
  }
}
