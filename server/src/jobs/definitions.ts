import type { PgBoss, Job, WorkOptions, Queue } from 'pg-boss';
import type { z } from 'zod';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';

export interface JobContext {
  orm: MikroORM;
  logger: Logger;
  boss: PgBoss;
}

/** A job: its queue, the zod schema of its payload, and an idempotent handler. */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  queue: string;
  schema: S;
  queueOptions?: Omit<Queue, 'name'>;
  workOptions?: WorkOptions;
  /** Cron (UTC) for scheduled tasks. */
  schedule?: string;
  handle(data: z.infer<S>, ctx: JobContext, job: Job): Promise<void>;
}

export function defineJob<S extends z.ZodType>(def: JobDefinition<S>): JobDefinition<S> {
  return def;
}

/** Creates every queue (API processes too: pg-boss needs the queue before `send`). */
export async function createQueues(boss: PgBoss, defs: readonly JobDefinition[]): Promise<void> {
  for (const def of defs) {
    await boss.createQueue(def.queue, { retryLimit: 3, retryBackoff: true, retryDelay: 5, ...def.queueOptions });
  }
}

/** Starts the workers of a worker process. */
export async function startWorkers(boss: PgBoss, defs: readonly JobDefinition[], ctx: JobContext): Promise<void> {
  for (const def of defs) {
    await boss.work(def.queue, { pollingIntervalSeconds: 0.5, ...def.workOptions }, async (jobs: Job<object>[]) => {
      for (const job of jobs) {
        const data = def.schema.parse(job.data);
        await def.handle(data, ctx, job);
      }
    });
    if (def.schedule) await boss.schedule(def.queue, def.schedule, {});
  }
}
