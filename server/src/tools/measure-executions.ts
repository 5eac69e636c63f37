// Measures the execution plumbing on a real PostgreSQL (prints figures; not a test):
//   1. fairness: organization A enqueues a large run, then organization B a small one; how long B
//      waits, with and without the per-organization limit (pg-boss group concurrency);
//   2. throughput: N no-op executions of one organization, enqueued with insert() and run to
//      completion with their realtime events written.
// Usage: MEASURE_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx
// server/src/tools/measure-executions.ts [bigRun] [smallRun] [throughputN]
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../config';
import { ormConfig } from '../orm-config';
import { startBoss } from '../jobs/boss';
import { createQueues, startWorkers } from '../jobs/definitions';
import { createOrganizationWithAdmin } from '../modules/organization/bootstrap';
import { executionJobDefinitions, type ExecutionHandler } from '../modules/executions/runner';
import { createExecutions } from '../modules/executions/commands/create-executions';
import { tenantSql, unscopedSql } from '../db/sql';

const adminUrl = process.env.MEASURE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const [bigRun, smallRun, throughputN] = [
  Number(process.argv[2] ?? 20_000),
  Number(process.argv[3] ?? 10),
  Number(process.argv[4] ?? 10_000),
];
const logger = pino({ level: 'silent' });

function withDb(url: string, db: string) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `dealscout_measure_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = withDb(adminUrl, name);
  const orm = await MikroORM.init(ormConfig(url, { logger: () => {} }));
  await orm.migrator.up();
  await orm.close();
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

async function run(
  label: string,
  env: Record<string, string>,
  body: (ctx: {
    orm: MikroORM;
    config: Config;
    enqueue: (org: string, n: number, typeId: string) => Promise<void>;
    done: (typeId: string) => Promise<number>;
  }) => Promise<void>,
  handler: ExecutionHandler,
) {
  const db = await freshDatabase();
  const config = loadConfig({ ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent', ...env });
  const orm = await MikroORM.init(ormConfig(db.url, { logger: () => {}, pool: { min: 0, max: 20 } }));
  const api = await startBoss(db.url, logger, { supervise: false });
  const workerBoss = await startBoss(db.url, logger, { supervise: true, listen: true });
  const defs = executionJobDefinitions([handler]);
  await createQueues(api, defs, config);
  await startWorkers(workerBoss, defs, { orm, logger, boss: workerBoss, config });
  const enqueue = async (org: string, n: number, typeId: string) => {
    await createExecutions(orm.em.fork(), api, {
      organizationId: org,
      createdById: null,
      type: 'enrichment',
      typeId,
      entityType: 'company',
      targets: Array.from({ length: n }, () => ({ entityId: randomUUID() })),
      announce: false,
    });
  };
  const done = async (typeId: string) =>
    Number(
      (
        await unscopedSql(orm.em.fork(), 'operator').all<{ n: string }>(
          `select count(*) as n from execution where type_id = ? and status = 'completed'`,
          [typeId],
        )
      )[0].n,
    );
  try {
    console.log(`\n## ${label}`);
    await body({ orm, config, enqueue, done });
  } finally {
    await workerBoss.stop({ graceful: false });
    await api.stop({ graceful: false });
    await orm.close();
    await db.drop();
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

const sleepy = (ms: number): ExecutionHandler => ({ type: 'enrichment', run: () => new Promise((r) => setTimeout(() => r(null), ms)) });

async function fairness(orgLimit: string | null) {
  await run(
    `fairness: org A ${bigRun} executions (20 ms each), then org B ${smallRun}; per-organization limit ${orgLimit ?? 'off'}`,
    orgLimit ? { EXECUTION_ORG_CONCURRENCY: orgLimit } : { EXECUTION_ORG_CONCURRENCY: '1000' },
    async ({ orm, enqueue, done }) => {
      const em = orm.em.fork();
      const a = await createOrganizationWithAdmin(em, {
        organizationName: 'A',
        email: `a-${randomUUID()}@x.io`,
        firstName: 'A',
        lastName: 'A',
        maxUser: 5,
        passwordHash: 'x',
      });
      const b = await createOrganizationWithAdmin(em, {
        organizationName: 'B',
        email: `b-${randomUUID()}@x.io`,
        firstName: 'B',
        lastName: 'B',
        maxUser: 5,
        passwordHash: 'x',
      });
      const big = randomUUID();
      const small = randomUUID();
      let t = Date.now();
      await enqueue(a.organization.id, bigRun, big);
      console.log(`enqueued A's ${bigRun} in ${Date.now() - t} ms`);
      await new Promise((r) => setTimeout(r, 1000));
      t = Date.now();
      await enqueue(b.organization.id, smallRun, small);
      const ok = await until(async () => (await done(small)) === smallRun, 120_000);
      const waited = Date.now() - t;
      console.log(`B's ${smallRun} done: ${ok} after ${waited} ms; A had completed ${await done(big)} by then`);
    },
    sleepy(20),
  );
}

async function throughput() {
  await run(
    `throughput: ${throughputN} no-op executions of one organization (events written)`,
    {},
    async ({ orm, enqueue, done }) => {
      const em = orm.em.fork();
      const a = await createOrganizationWithAdmin(em, {
        organizationName: 'A',
        email: `a-${randomUUID()}@x.io`,
        firstName: 'A',
        lastName: 'A',
        maxUser: 5,
        passwordHash: 'x',
      });
      const typeId = randomUUID();
      const t = Date.now();
      await enqueue(a.organization.id, throughputN, typeId);
      const enq = Date.now() - t;
      const ok = await until(async () => (await done(typeId)) === throughputN, 300_000);
      const total = Date.now() - t;
      const [{ n }] = await tenantSql(em, a.organization.id).all<{ n: string }>(
        `select count(*) as n from realtime_event where organization_id = ?`,
        [a.organization.id],
      );
      console.log(
        `enqueue ${enq} ms; all completed: ${ok} in ${total} ms (${Math.round(throughputN / (total / 1000))}/s); realtime events written: ${n}`,
      );
    },
    { type: 'enrichment', run: async () => null },
  );
}

const which = process.env.MEASURE ?? 'all';
if (which === 'all' || which === 'fairness') await fairness(null);
if (which === 'all' || which === 'fairness' || which === 'fairness-limit') await fairness(process.env.MEASURE_ORG_LIMIT ?? '16');
if (which === 'all' || which === 'throughput') await throughput();
