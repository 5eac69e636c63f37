// Starts Dealscout: the API, the job worker, or both (default). `--role api|worker|both` or ROLE.
import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { loadConfig, productionProblems, type Config } from './config';
import { createLogger } from './logger';
import { openDatabase } from './database';
import { startBoss } from './jobs/boss';
import { createQueues, createWorkerStop, startWorkers } from './jobs/definitions';
import { jobDefinitions } from './job-registry';
import { buildApp } from './app';
import { ensureAdminFromEnv } from './modules/organization/env-admin';
import { sweepStoppedImportsLogged } from './modules/lists/import-sweep.job';
import { startMetricsListener, type MetricsListener } from './modules/system/worker-metrics';
import { lowerPriority } from './lib/priority';

function roleFromArgs(argv: string[]): string | undefined {
  const i = argv.indexOf('--role');
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith('--role='))?.slice('--role='.length);
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  const config: Config = loadConfig(process.env, roleFromArgs(argv) ? { ROLE: roleFromArgs(argv) } : {});
  const logger = createLogger(config);
  const runApi = config.ROLE !== 'worker';
  const runWorker = config.ROLE !== 'api';
  const problems = productionProblems(config, { api: runApi });
  if (problems.length > 0) {
    logger.fatal({ problems }, `cannot start: ${problems.join('; ')}`);
    process.exit(1);
  }

  const db = await openDatabase(config, logger);
  // A worker alone in its process yields the CPU to the API processes and PostgreSQL beside it.
  if (config.ROLE === 'worker' && config.WORKER_NICE > 0)
    logger.info({ nice: lowerPriority(config.WORKER_NICE) }, 'worker priority lowered');
  let boss: PgBoss | null = null;
  let app: FastifyInstance | null = null;
  let metricsListener: MetricsListener | null = null;
  let stopping = false;
  const workerStop = createWorkerStop();
  const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
  const readiness = { shuttingDown: false, workerStarted: runWorker ? false : null };

  // SIGTERM / SIGINT (a terminal's Ctrl-C reaches the whole process group; the embedded PostgreSQL
  // runs in a group of its own, so it stays up until the end):
  //   1. the API stops taking requests; the workers stop fetching; work waiting to start its outside
  //      call gives up and its job is released to another worker at once;
  //   2. work already running may finish for SHUTDOWN_GRACE_SECONDS (its result is committed); what
  //      is still running then is stopped and released;
  //   3. pg-boss and the database pool close, the embedded PostgreSQL stops last.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Not ready first: a balancer checking GET /ready stops sending work while requests in flight
    // finish; READY_DRAIN_MS gives its health check time to notice before the listener closes.
    readiness.shuttingDown = true;
    logger.info({ signal, graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, graceMs + 15_000);
    force.unref();
    workerStop.drain();
    const deadline = setTimeout(() => workerStop.expire(), graceMs);
    deadline.unref();
    try {
      if (app && config.READY_DRAIN_MS > 0) await new Promise((r) => setTimeout(r, config.READY_DRAIN_MS));
      if (app) await app.close();
      if (metricsListener) await metricsListener.close();
      // Waits for the handlers in flight (released or finished by the deadline), then closes its pool.
      if (boss) await boss.stop({ graceful: true, timeout: graceMs + 5_000 });
      clearTimeout(deadline);
      await db.close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await ensureAdminFromEnv(db.orm, config, logger);
    // CSV imports this or another process was running when it died are failed now (a live
    // process's import holds its lease and is left alone); workers sweep again every minute.
    await sweepStoppedImportsLogged(db.orm.em.fork(), logger);
    boss = await startBoss(db.url, logger, {
      supervise: runWorker,
      superviseIntervalSeconds: config.JOB_SUPERVISE_SECONDS,
      quiet: () => stopping,
    });
    await createQueues(boss, jobDefinitions, config);
    // A process without the API (a worker) answers scrapes on a listener of its own, listening
    // before the process says it has started.
    if (config.METRICS_PORT) metricsListener = await startMetricsListener({ config, orm: db.orm, boss, logger });
    if (runWorker) {
      await startWorkers(boss, jobDefinitions, { orm: db.orm, logger, boss, config, stop: workerStop.stop });
      readiness.workerStarted = true;
      logger.info({ queues: jobDefinitions.map((d) => d.queue) }, 'worker started');
    }
    if (runApi) {
      app = await buildApp({ config, orm: db.orm, boss, logger, readiness });
      await app.listen({ port: config.PORT, host: config.HOST });
      logger.info(`Dealscout is running at ${config.publicUrl} (API docs at ${config.publicUrl}/api/docs)`);
    }
  } catch (err) {
    logger.fatal({ err }, 'failed to start');
    await shutdown('startup-failure');
  }
}

await main();
