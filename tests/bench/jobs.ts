// Jobs benchmark: 10,000 no-op executions of one organization, created and
// enqueued in one call of createExecutions() (one transaction: execution rows, pg-boss insert(),
// 'scheduled' events), worked by a worker process (`--role worker`, no-op handler) and watched by
// sockets on an API process (`--role api`) subscribed to the organization's executions. The time is
// from the call to the moment every socket has received the 'completed' event of every execution.
// Compared with pg-boss alone: the same number of jobs inserted with insert() and worked by a
// pg-boss worker with the same settings whose handler does nothing (no rows, no events).
import { MikroORM } from '@mikro-orm/postgresql';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { realtimePaths } from '@dealscout/shared/domain';
import { loadConfig } from '../../server/src/config';
import { ormConfig } from '../../server/src/orm-config';
import { startBoss } from '../../server/src/jobs/boss';
import { createExecutions } from '../../server/src/modules/executions/commands/create-executions';
import { startApi, startWorker, startProc, openFleet, Session, wallNow, pcts, CpuMeter, type Pcts, type Proc } from './procs';
import { createBenchOrg, SERVICES_PASSWORD, type ServicesDb } from './services-db';

export interface JobsRun {
  /** Call → every socket has every 'completed' event. */
  totalMs: number;
  /** Call → createExecutions() returned (the transaction committed). */
  enqueueMs: number;
  /** Call → the last execution row completed (database clock). */
  dbDoneMs: number;
  /** Write → socket of the 'completed' events under this load. */
  latency: Pcts;
  /** Write → a plain LISTEN connection in the bench process, the same events. */
  notifyLatency: Pcts;
  cpu: ReturnType<CpuMeter['end']>;
  completedRows: number;
  eventsWritten: number;
}

export interface JobsReport {
  count: number;
  sockets: number;
  settings: Record<string, string | number>;
  ours: JobsRun[];
  raw: { totalMs: number; enqueueMs: number; cpu: ReturnType<CpuMeter['end']> }[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchJobs(
  db: ServicesDb,
  o: { count: number; runs: number; sockets: number; log: (m: string) => void; env?: Record<string, string> },
): Promise<JobsReport> {
  const { log } = o;
  const org = await createBenchOrg(db.url, 'Bench Jobs', 2);
  const config = loadConfig({ ...process.env, ...o.env });
  const settings = {
    EXECUTION_BATCH_SIZE: config.EXECUTION_BATCH_SIZE,
    EXECUTION_WORKER_CONCURRENCY: config.EXECUTION_WORKER_CONCURRENCY,
    EXECUTION_ORG_CONCURRENCY: config.EXECUTION_ORG_CONCURRENCY,
    JOB_POLL_SECONDS: config.JOB_POLL_SECONDS,
    REALTIME_FLUSH_MS: config.REALTIME_FLUSH_MS,
  };
  const orm = await MikroORM.init(ormConfig(db.url, { logger: () => {}, pool: { min: 0, max: 4 } }));
  const procs: Proc[] = [];
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  try {
    const api = await startApi(db.url, 'api', o.env);
    procs.push(api);
    const worker = await startWorker(db.url, 'worker', o.env);
    procs.push(worker);
    const session = new Session(api.base);
    await session.login(org.emails[0], SERVICES_PASSWORD);
    const boss = await startBoss(db.url, pino({ level: 'silent' }), { supervise: false });
    const ours: JobsRun[] = [];
    try {
      for (let run = 0; run < o.runs; run++) {
        const typeId = randomUUID();
        const done = Array.from({ length: o.sockets }, () => new Set<string>());
        const latencies: number[] = [];
        const fleet = await openFleet({
          count: o.sockets,
          sessions: [session],
          wsUrls: [`${api.base.replace('http', 'ws')}/api/v1/realtime`],
          paths: [realtimePaths.executions(org.id)],
          record: (kind, data) =>
            kind === 'execution.updated' &&
            (data as { typeId: string }).typeId === typeId &&
            (data as { status: string }).status === 'completed',
        });
        // Arrivals are folded as they come (10,000 × sockets of them).
        const arrivals = fleet.arrivals;
        arrivals.push = (...items) => {
          for (const a of items) {
            done[a.socket].add((a.data as { id: string }).id);
            if (a.socket === 0) latencies.push(a.at - a.eventAt);
          }
          return 0;
        };
        // The same events as seen by a plain LISTEN connection in this process (where the delay is: database or hub).
        const listener = new pg.Client({ connectionString: db.url });
        const notifyLatency: number[] = [];
        listener.on('notification', (msg) => {
          const at = wallNow();
          const p = JSON.parse(msg.payload ?? '{}') as { e?: { d: { typeId?: string; status?: string }; t: string }[] };
          for (const e of p.e ?? []) if (e.d.typeId === typeId && e.d.status === 'completed') notifyLatency.push(at - Date.parse(e.t));
        });
        await listener.connect();
        await listener.query('listen ds_realtime');
        const meter = new CpuMeter(() => ({ 'API process': api.child.pid, 'worker process': worker.child.pid }));
        await sleep(500);
        meter.begin();
        const t0 = wallNow();
        await createExecutions(orm.em.fork(), boss, {
          organizationId: org.id,
          createdById: null,
          type: 'list',
          typeId,
          entityType: 'list',
          targets: Array.from({ length: o.count }, () => ({ entityId: null })),
        });
        const enqueueMs = wallNow() - t0;
        const ok = await waitUntil(() => done.every((s) => s.size >= o.count), 120_000);
        const totalMs = wallNow() - t0;
        const cpu = meter.end();
        const { rows } = await sql.query<{ n: number; last: Date; events: number }>(
          `select count(*) filter (where status = 'completed')::int as n, max(completed_at) as last,
                  (select count(*)::int from realtime_event where organization_id = $2) as events
             from execution where type_id = $1`,
          [typeId, org.id],
        );
        await fleet.close();
        await listener.end();
        if (!ok)
          throw new Error(
            `jobs: not every socket saw ${o.count} completions within 120 s (${done.map((s) => s.size).join(', ')}; ${rows[0].n} rows completed)`,
          );
        const r: JobsRun = {
          totalMs,
          enqueueMs,
          dbDoneMs: rows[0].last.getTime() - t0,
          latency: pcts(latencies),
          notifyLatency: pcts(notifyLatency),
          cpu,
          completedRows: rows[0].n,
          eventsWritten: rows[0].events,
        };
        ours.push(r);
        log(
          `jobs (ours) run ${run + 1}: ${o.count} in ${(totalMs / 1000).toFixed(2)} s ` +
            `(enqueue ${enqueueMs.toFixed(0)} ms, last row completed at ${(r.dbDoneMs / 1000).toFixed(2)} s) ` +
            `= ${Math.round(o.count / (totalMs / 1000))}/s; write→socket ${JSON.stringify(r.latency)}; ` +
            `write→LISTEN ${JSON.stringify(r.notifyLatency)}; cores ${JSON.stringify(cpu.cores)}`,
        );
        await sleep(1000);
      }
    } finally {
      await boss.stop({ graceful: false });
    }
    await Promise.all([api.stop(), worker.stop()]);

    // ---------- pg-boss alone ----------
    const queue = 'bench.raw';
    const rawWorker = await startProc(
      'raw-boss',
      'tests/bench/procs/raw-boss.ts',
      [],
      {
        DATABASE_URL: db.url,
        RAW_QUEUE: queue,
        EXECUTION_BATCH_SIZE: String(config.EXECUTION_BATCH_SIZE),
        EXECUTION_WORKER_CONCURRENCY: String(config.EXECUTION_WORKER_CONCURRENCY),
        EXECUTION_ORG_CONCURRENCY: String(config.EXECUTION_ORG_CONCURRENCY),
      },
      (out) => out.includes('ready'),
    );
    procs.push(rawWorker);
    const producer = new PgBoss({ connectionString: db.url, schema: 'pgboss', supervise: false, schedule: false, max: 5 });
    producer.on('error', () => {});
    await producer.start();
    const raw: JobsReport['raw'] = [];
    try {
      for (let run = 0; run < o.runs; run++) {
        await sql.query(`delete from pgboss.job where name = $1`, [queue]);
        const meter = new CpuMeter(() => ({ 'pg-boss worker process': rawWorker.child.pid }));
        meter.begin();
        const t0 = wallNow();
        for (let i = 0; i < o.count; i += 5000) {
          await producer.insert(
            queue,
            Array.from({ length: Math.min(5000, o.count - i) }, () => ({
              id: randomUUID(),
              data: { executionId: randomUUID(), organizationId: org.id, type: 'list' },
              group: { id: org.id },
            })),
          );
        }
        const enqueueMs = wallNow() - t0;
        const ok = await waitUntil(
          async () =>
            (await sql.query<{ n: number }>(`select count(*)::int as n from pgboss.job where name = $1 and state = 'completed'`, [queue]))
              .rows[0].n >= o.count,
          120_000,
          50,
        );
        const totalMs = wallNow() - t0;
        const cpu = meter.end();
        if (!ok) throw new Error('jobs (pg-boss alone): not completed within 120 s');
        raw.push({ totalMs, enqueueMs, cpu });
        log(
          `jobs (pg-boss alone) run ${run + 1}: ${o.count} in ${(totalMs / 1000).toFixed(2)} s ` +
            `(insert ${enqueueMs.toFixed(0)} ms) = ${Math.round(o.count / (totalMs / 1000))}/s; ` +
            `cores ${JSON.stringify(cpu.cores)}`,
        );
        await sleep(1000);
      }
    } finally {
      await producer.stop({ graceful: false });
    }
    return { count: o.count, sockets: o.sockets, settings, ours, raw };
  } finally {
    for (const p of procs) await p.stop().catch(() => {});
    await sql.end().catch(() => {});
    await orm.close();
  }
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
  return true;
}
