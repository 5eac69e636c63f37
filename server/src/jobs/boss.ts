import { PgBoss, fromKysely, type SendOptions, type KyselyTransactionLike } from 'pg-boss';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';

export const BOSS_SCHEMA = 'pgboss';

export interface StartBossOptions {
  supervise: boolean;
  listen?: boolean;
  /**
   * How often the supervisor runs (worker processes): it fails jobs whose heartbeat stopped
   * (JOB_HEARTBEAT_SECONDS) and jobs past their expiry. pg-boss's default is 60 s; a dead worker's
   * jobs are found within heartbeat + this (docs/ARCHITECTURE.md, 'Crash recovery').
   */
  superviseIntervalSeconds?: number;
  /** Called instead of logging at error level while the process shuts down (connections being closed). */
  quiet?: () => boolean;
}

export async function startBoss(connectionString: string, logger: Logger, opts: StartBossOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    schema: BOSS_SCHEMA,
    // Only worker processes run maintenance (archiving, expiry); API processes just enqueue.
    supervise: opts.supervise,
    schedule: opts.supervise,
    // Workers wake on NOTIFY for queues created with `notify: true` (executions) instead of waiting out the poll.
    useListenNotify: opts.listen ?? opts.supervise,
    ...(opts.superviseIntervalSeconds
      ? { superviseIntervalSeconds: opts.superviseIntervalSeconds, monitorIntervalSeconds: opts.superviseIntervalSeconds }
      : {}),
    max: 5,
  });
  // While the process stops, errors of connections being closed are expected: not error-level.
  boss.on('error', (err: Error) =>
    opts.quiet?.() ? logger.debug({ err }, 'pg-boss error while stopping') : logger.error({ err }, 'pg-boss error'),
  );
  await boss.start();
  return boss;
}

/**
 * Enqueues a job inside the caller's MikroORM transaction: the job exists if and only if the
 * transaction commits (an execution row and its job are never out of step).
 */
export async function enqueueInTransaction<T extends object>(
  boss: PgBoss,
  em: EntityManager,
  queue: string,
  data: T,
  options: SendOptions = {},
): Promise<string | null> {
  const trx = em.getTransactionContext();
  if (!trx) throw new Error('enqueueInTransaction must run inside em.transactional()');
  return boss.send(queue, data, { ...options, db: transactionDb(em) });
}

/** pg-boss's `db` option for the caller's MikroORM transaction (insert, cancel… inside it). */
export function transactionDb(em: EntityManager): ReturnType<typeof fromKysely> {
  const trx = em.getTransactionContext();
  if (!trx) throw new Error('transactionDb must run inside em.transactional()');
  return fromKysely(trx as KyselyTransactionLike);
}
