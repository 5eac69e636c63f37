// What the fleet is doing, for Prometheus (prom-client). Every API process answers GET /metrics in
// the text exposition format; a worker process (no HTTP API) answers on its own listener when
// METRICS_PORT is set (worker-metrics.ts). Never public by default: without METRICS_TOKEN the
// route is a 404; with it, a scrape sends `Authorization: Bearer <METRICS_TOKEN>` (Prometheus'
// `authorization` scrape setting), anything else is a 401.
//
// Each app has its own registry (tests build several apps in one process), served before the
// process's work registry (lib/metrics.ts: model calls, emails, CRM records, jobs run):
// - Node's default process metrics (CPU, memory, event loop lag, GC, handles);
// - dealscout_http_request_duration_seconds{method,route,status_code}: per route pattern, never the
//   raw URL (ids would explode the series);
// - dealscout_realtime_sockets, dealscout_realtime_events_total{outcome}: open sockets on this
//   process; events sent to sockets, coalesced (a newer event of the same key replaced it before
//   it went) and dropped (lost with a socket closed for being too slow);
// - dealscout_realtime_fanout_seconds: per flush round, from the arrival of its oldest event at this
//   process to its last frame handed to the kernel (a broadcast's whole fan-out, receivers apart);
// - the database-wide gauges (fleetGauges): executions not finished yet by type and state, pg-boss
//   counts and oldest waiting job per queue, this process's database pool.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { poolStatsOf, unscopedSql } from '../../db/sql';
import { BOSS_SCHEMA } from '../../jobs/boss';
import { setMetricsRole, workRegistry } from '../../lib/metrics';

export interface AppMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  httpRequests: Counter<'method' | 'route' | 'status_code'>;
}

/** The states an execution is still in before it finishes (the gauge counts only these). */
export const ACTIVE_EXECUTION_STATES = ['draft', 'scheduled', 'processing'] as const;

export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token check of every metrics endpoint: 404 without METRICS_TOKEN, 401 for another token, else null (serve). */
export function scrapeRefusal(token: string | undefined, authorization: string | undefined): 404 | 401 | null {
  if (!token) return 404;
  const given = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '';
  return sameToken(given, token) ? null : 401;
}

/** The app's registry, then the process's work registry, as one exposition. */
export async function exposition(registry: Registry): Promise<string> {
  return (await registry.metrics()) + (await workRegistry.metrics());
}

/**
 * Default process metrics and the gauges read from the database at scrape time, registered on
 * `registry`: every process (API or worker) serves them.
 */
export async function fleetGauges(registry: Registry, deps: { orm: MikroORM; boss: PgBoss | null }): Promise<void> {
  collectDefaultMetrics({ register: registry });
  // Awaited here, never left running: the pool is reached through the ORM's connection, whose first
  // use connects (and checks the database exists on a pooled connection). A lookup still running when
  // the process shuts down right after starting would keep that connection, and `orm.close()` waits
  // for it for ever. Null (no pool gauge) when the database cannot be reached now.
  const pool = await poolStatsOf(deps.orm.em).catch(() => null);
  new Gauge({
    name: 'dealscout_db_pool_connections',
    help: "This process's database pool (MikroORM's pg pool, DB_POOL_SIZE): connections in use, idle, and queries waiting for one",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      // Read before any await: the scrape's own queries below must not count in it.
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'dealscout_executions',
    help: 'Executions not finished yet (draft, scheduled, processing) of every organization, by type and state',
    labelNames: ['type', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      // Only the active states: their partial index (execution_active_type_status_index) keeps the
      // count small however many finished executions the table holds.
      const rows = await unscopedSql(deps.orm.em.fork(), 'metrics').all<{ type: string; status: string; n: string }>(
        `select type, status, count(*)::text as n from execution where status in ('draft', 'scheduled', 'processing') group by type, status`,
      );
      for (const r of rows) this.set({ type: r.type, status: r.status }, Number(r.n));
    },
  });
  new Gauge({
    name: 'dealscout_queue_jobs',
    help: "pg-boss jobs per queue and state (pg-boss' own counts: queued, active, deferred)",
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      if (!deps.boss) return;
      for (const q of await deps.boss.getQueues()) {
        this.set({ queue: q.name, state: 'queued' }, q.queuedCount ?? 0);
        this.set({ queue: q.name, state: 'active' }, q.activeCount ?? 0);
        this.set({ queue: q.name, state: 'deferred' }, q.deferredCount ?? 0);
      }
    },
  });
  new Gauge({
    name: 'dealscout_queue_oldest_waiting_seconds',
    help: 'Age of the oldest job waiting to start (due, not deferred) per queue; 0 when none waits',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      if (!deps.boss) return;
      // pg-boss' partial index on waiting jobs (state < active, not blocked) serves this.
      const rows = await unscopedSql(deps.orm.em.fork(), 'metrics').all<{ name: string; age: string }>(
        `select name, extract(epoch from now() - min(created_on))::text as age from ${BOSS_SCHEMA}.job
          where state < 'active' and not blocked and start_after <= now() group by name`,
      );
      const ages = new Map(rows.map((r) => [r.name, Math.max(0, Number(r.age))]));
      for (const q of await deps.boss.getQueues()) this.set({ queue: q.name }, ages.get(q.name) ?? 0);
    },
  });
}

/** Registered with fastify-plugin: its response hook sees every route of the app. */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const registry = new Registry();
  registry.setDefaultLabels({ role: app.config.ROLE });
  setMetricsRole(app.config.ROLE);
  await fleetGauges(registry, { orm: app.orm, boss: app.boss ?? null });

  const httpDuration = new Histogram({
    name: 'dealscout_http_request_duration_seconds',
    help: 'HTTP request durations by route pattern and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const httpRequests = new Counter({
    name: 'dealscout_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'dealscout_realtime_sockets',
    help: 'Realtime sockets open on this process',
    registers: [registry],
    collect() {
      this.set(app.hasDecorator('realtime') ? app.realtime.socketCount : 0);
    },
  });
  new Counter({
    name: 'dealscout_realtime_events_total',
    help:
      'Realtime events for sockets of this process: sent, coalesced (replaced by a newer event of the same key ' +
      'before they went), dropped (with a socket closed for being too slow)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      // The hub counts in plain numbers on its hot path; the counter is set from them per scrape.
      this.reset();
      if (!app.hasDecorator('realtime')) return;
      const s = app.realtime.stats;
      this.inc({ outcome: 'sent' }, s.eventsSent);
      this.inc({ outcome: 'coalesced' }, s.eventsCoalesced);
      this.inc({ outcome: 'dropped' }, s.eventsDropped);
    },
  });
  const fanout = new Histogram({
    name: 'dealscout_realtime_fanout_seconds',
    help: 'Realtime flush rounds: from the arrival of the oldest event of the round at this process to the last frame of the round handed to the kernel',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook('onReady', async () => {
    if (app.hasDecorator('realtime')) app.realtime.onFanout = (seconds) => fanout.observe(seconds);
  });
  const metrics: AppMetrics = { registry, httpDuration, httpRequests };
  app.decorate('metrics', metrics);

  // Every answer of this app (this plugin's hook is registered on the root instance).
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const labels = { method: req.method, route, status_code: String(reply.statusCode) };
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    httpRequests.inc(labels);
  });

  app.get(
    '/metrics',
    {
      config: { auth: 'public' },
      schema: { hide: true },
    },
    async (req, reply) => {
      const refusal = scrapeRefusal(app.config.METRICS_TOKEN, req.headers.authorization);
      if (refusal === 404) return reply.status(404).send({ success: false, message: 'Not found' });
      if (refusal === 401) return reply.status(401).send({ success: false, message: 'Unauthorized' });
      return reply.type(registry.contentType).send(await exposition(registry));
    },
  );
});

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}
