// The CRM benches' app: a database of their own on TEST_DATABASE_URL's server (default
// 127.0.0.1:5432), migrated, with the API and a crmsync worker on pg-boss in this process.
import pino from 'pino';
import pg from 'pg';
import { MikroORM } from '@mikro-orm/postgresql';
import type { TestContext } from '../../server/test/helpers';
import { loadConfig } from '../../server/src/config';
import { ormConfig } from '../../server/src/orm-config';
import { startBoss } from '../../server/src/jobs/boss';
import { buildApp } from '../../server/src/app';
import { createQueues, startWorkers } from '../../server/src/jobs/definitions';
import { executionJobDefinitions } from '../../server/src/modules/executions/runner';
import { createCrmSyncHandler } from '../../server/src/modules/crm/sync/handler';

export async function startCrmBench(
  name: string,
  env: Record<string, string>,
): Promise<{ ctx: TestContext; orm: MikroORM; close(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `dealscout_bench_${name}_${Date.now()}`;
  const withDb = (db: string) => {
    const u = new URL(adminUrl);
    u.pathname = `/${db}`;
    return u.toString();
  };
  const admin0 = new pg.Client({ connectionString: adminUrl });
  await admin0.connect();
  await admin0.query(`create database "${dbName}"`);
  const logger = pino({ level: 'warn' });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST: '/nonexistent',
    DATABASE_URL: withDb(dbName),
    JOB_POLL_SECONDS: '0.5',
    ...env,
  });
  const orm = await MikroORM.init(ormConfig(withDb(dbName), { logger: () => {} }));
  await orm.migrator.up();
  const boss = await startBoss(withDb(dbName), logger, { supervise: true });
  const app = await buildApp({ config, orm, boss, logger });
  await app.ready();
  const ctx = { app, orm, boss, config, dbUrl: withDb(dbName), em: () => orm.em.fork() } as unknown as TestContext;
  const defs = executionJobDefinitions([createCrmSyncHandler({ config })]);
  await createQueues(boss, defs, config);
  await startWorkers(boss, defs, { orm, logger, boss, config });
  return {
    ctx,
    orm,
    async close() {
      await boss.stop({ graceful: false });
      await app.close();
      await orm.close();
      await admin0.query(`drop database "${dbName}" with (force)`);
      await admin0.end();
    },
  };
}
