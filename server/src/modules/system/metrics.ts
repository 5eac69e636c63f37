// What the fleet is doing, for Prometheus (prom-client): every API process answers GET /metrics in
// the text exposition format. Never public by default: without METRICS_TOKEN the route is a 404;
// with it, a scrape sends `Authorization: Bearer <METRICS_TOKEN>` (Prometheus' `authorization`
// scrape setting), anything else is a 401.
//
// Each app has its own registry (tests build several apps in one process):
// - Node's default process metrics (CPU, memory, event loop lag, GC, handles);
// - dealscout_http_request_duration_seconds{method,route,status_code}: per route pattern, never the
//   raw URL (ids would explode the series);
// - dealscout_realtime_sockets: open sockets on this process;
// - dealscout_executions{type,status}: executions of every organization by type and state (one
//   grouped count, read at scrape time);
// - dealscout_queue_jobs{queue,state}: pg-boss' own counts per queue (queued, active, deferred,
//   failed), read at scrape time.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { unscopedSql } from '../../db/sql';

export interface AppMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  httpRequests: Counter<'method' | 'route' | 'status_code'>;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Registered with fastify-plugin: its response hook sees every route of the app. */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const registry = new Registry();
  registry.setDefaultLabels({ role: app.config.ROLE });
  collectDefaultMetrics({ register: registry });

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
  new Gauge({
    name: 'dealscout_executions',
    help: 'Executions of every organization by type and state',
    labelNames: ['type', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const em = app.orm.em.fork();
      const rows = await unscopedSql(em, 'metrics').all<{ type: string; status: string; n: string }>(
        'select type, status, count(*)::text as n from execution group by type, status',
      );
      for (const r of rows) this.set({ type: r.type, status: r.status }, Number(r.n));
    },
  });
  new Gauge({
    name: 'dealscout_queue_jobs',
    help: "pg-boss jobs per queue and state (pg-boss' own counts)",
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const boss = app.boss;
      if (!boss) return;
      const queues = await boss.getQueues();
      for (const q of queues) {
        this.set({ queue: q.name, state: 'queued' }, q.queuedCount ?? 0);
        this.set({ queue: q.name, state: 'active' }, q.activeCount ?? 0);
        this.set({ queue: q.name, state: 'deferred' }, q.deferredCount ?? 0);
      }
    },
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
      const token = app.config.METRICS_TOKEN;
      if (!token) return reply.status(404).send({ success: false, message: 'Not found' });
      const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!sameToken(given, token)) return reply.status(401).send({ success: false, message: 'Unauthorized' });
      const body = await registry.metrics();
      return reply.type(registry.contentType).send(body);
    },
  );
});

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}
