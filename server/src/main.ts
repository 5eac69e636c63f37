// Starts Dealscout: the API, the job worker, or both (default). `--role api|worker|both` or ROLE.
import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { loadConfig, productionProblems, type Config } from './config';
import { createLogger } from './logger';
import { openDatabase } from './db/database';
import { startBoss } from './jobs/boss';
import { createQueues, startWorkers } from './jobs/definitions';
import { jobDefinitions } from './jobs/registry';
import { buildApp } from './app';
import { ensureAdminFromEnv } from './modules/organization/env-admin';

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
  let boss: PgBoss | null = null;
  let app: FastifyInstance | null = null;
  let stopping = false;

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    try {
      if (app) await app.close();
      if (boss) await boss.stop({ graceful: true, timeout: 10_000 });
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
    boss = await startBoss(db.url, logger, { supervise: runWorker });
    await createQueues(boss, jobDefinitions, config);
    if (runWorker) {
      await startWorkers(boss, jobDefinitions, { orm: db.orm, logger, boss, config });
      logger.info({ queues: jobDefinitions.map((d) => d.queue) }, 'worker started');
    }
    if (runApi) {
      app = await buildApp({ config, orm: db.orm, boss, logger });
      await app.listen({ port: config.PORT, host: config.HOST });
      logger.info(`Dealscout is running at ${config.publicUrl} (API docs at ${config.publicUrl}/api/docs)`);
    }
  } catch (err) {
    logger.fatal({ err }, 'failed to start');
    await shutdown('startup-failure');
  }
}

await main();
