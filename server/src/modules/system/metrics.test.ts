import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import { realtimePaths } from '@dealscout/shared/domain';
import { createOrg, createTestApp, signedIn, type TestContext } from '../../../test/helpers';
import { openSocket, type TestSocket } from '../../../test/ws-client';
import { publish } from '../realtime/publish';
import { Execution } from '../executions/execution.entity';
import { Organization } from '../../db/organization.entity';
import { DatabaseProbe } from './db-probe';

describe('GET /ready', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('counts the active executions on a partial index of theirs (a scrape never walks the finished ones)', async () => {
    const rows = await ctx
      .em()
      .execute<{ indexdef: string }[]>(`select indexdef from pg_indexes where indexname = 'execution_active_type_status_index'`);
    expect(rows[0]?.indexdef).toMatch(/\(type, status\) WHERE .*status.*draft.*scheduled.*processing/);
  });

  it('ready with the database up and migrations applied; not ready while shutting down or before its worker started', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/ready' })).json()).toEqual({ status: 'ready' });
    ctx.app.readiness.workerStarted = false;
    const noWorker = await ctx.app.inject({ method: 'GET', url: '/ready' });
    expect([noWorker.statusCode, noWorker.json()]).toEqual([503, { status: 'not ready', reason: 'worker not started' }]);
    ctx.app.readiness.workerStarted = true;
    ctx.app.readiness.shuttingDown = true;
    const stopping = await ctx.app.inject({ method: 'GET', url: '/ready' });
    expect([stopping.statusCode, stopping.json()]).toEqual([503, { status: 'not ready', reason: 'shutting down' }]);
    // /health stays the liveness answer: the process is alive while it drains.
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    ctx.app.readiness.shuttingDown = false;
  });

  it('answers at once while every connection of the request pool is busy (its database check has a connection of its own)', async () => {
    // The test app's pool holds 5 connections: 6 slow statements take them all and queue one more.
    const busy = Array.from({ length: 6 }, () => ctx.em().execute('select pg_sleep(3)'));
    await new Promise((r) => setTimeout(r, 1200)); // past the probe's cached answer of the test above
    const t0 = performance.now();
    const ready = await ctx.app.inject({ method: 'GET', url: '/ready' });
    const readyMs = performance.now() - t0;
    // A request that needs the pool waits for a connection meanwhile.
    const h0 = performance.now();
    const health = await ctx.app.inject({ method: 'GET', url: '/health' });
    const healthMs = performance.now() - h0;
    await Promise.all(busy);
    // Its check runs on a connection of its own.
    const own = await ctx
      .em()
      .execute<{ n: number }[]>(`select count(*)::int as n from pg_stat_activity where application_name = 'dealscout-ready'`);
    expect(own[0].n).toBe(1);
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready' }]);
    expect(readyMs).toBeLessThan(1000);
    expect(health.statusCode).toBe(200);
    expect(healthMs).toBeGreaterThan(1000);
  });

  it('says the database is down when its check fails, and gives the last check at once while the next one runs', async () => {
    const nowhere = new DatabaseProbe('postgres://dealscout:x@127.0.0.1:1/dealscout');
    expect(await nowhere.reachable()).toBe(false);
    await nowhere.close();
    const probe = new DatabaseProbe(ctx.dbUrl, { maxAgeMs: 0 });
    try {
      expect(await probe.reachable()).toBe(true);
      const busy = Array.from({ length: 3 }, () => ctx.em().execute('select pg_sleep(1)'));
      const t0 = performance.now();
      for (let i = 0; i < 20; i++) expect(await probe.reachable()).toBe(true);
      expect(performance.now() - t0).toBeLessThan(500);
      await Promise.all(busy);
    } finally {
      await probe.close();
    }
  });
});

describe('GET /metrics', () => {
  it('is a 404 without METRICS_TOKEN (never public by default)', async () => {
    const ctx = await createTestApp();
    try {
      expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await ctx.close();
    }
  });

  describe('with METRICS_TOKEN', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestApp({ boss: true, env: { METRICS_TOKEN: 'scrape-me-please' } });
    });
    afterAll(async () => {
      await ctx.close();
    });
    const scrape = (authorization?: string) =>
      ctx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

    it('refuses a scrape without the token or with another', async () => {
      expect((await scrape()).statusCode).toBe(401);
      expect((await scrape('Bearer scrape-me-pleasE')).statusCode).toBe(401);
      expect((await scrape('Basic scrape-me-please')).statusCode).toBe(401);
    });

    it('counts the requests it answered per route pattern, the executions by type and state, the queues and the process', async () => {
      for (let i = 0; i < 3; i++) await ctx.app.inject({ method: 'GET', url: '/health' });
      await ctx.app.inject({ method: 'GET', url: '/api/v1/user' });
      const { organization } = await createOrg(ctx);
      const em = ctx.em();
      const org = em.getReference(Organization, organization.id);
      for (const status of ['completed', 'completed', 'error'])
        em.create(Execution, { organization: org, type: 'enrichment', entityType: 'company', status, result: null });
      em.create(Execution, { organization: org, type: 'play', entityType: 'contact', status: 'processing', result: null });
      await em.flush();
      await ctx.boss!.createQueue('metrics-probe');

      const res = await scrape('Bearer scrape-me-please');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      const text = res.body;
      // The sample of `name` whose labels include every pair given (label order is prom-client's).
      const sample = (name: string, labels: Record<string, string>) => {
        const line = text
          .split('\n')
          .find(
            (l) => l.startsWith(`${name}{`) && Object.entries({ role: 'both', ...labels }).every(([k, v]) => l.includes(`${k}="${v}"`)),
          );
        return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
      };
      expect(sample('dealscout_http_requests_total', { method: 'GET', route: '/health', status_code: '200' })).toBe(3);
      expect(sample('dealscout_http_request_duration_seconds_count', { method: 'GET', route: '/health', status_code: '200' })).toBe(3);
      expect(sample('dealscout_http_requests_total', { method: 'GET', route: '/api/v1/user', status_code: '401' })).toBe(1);
      // Only executions not finished yet: a scrape never counts the whole history.
      expect(sample('dealscout_executions', { type: 'enrichment', status: 'completed' })).toBeUndefined();
      expect(sample('dealscout_executions', { type: 'enrichment', status: 'error' })).toBeUndefined();
      expect(sample('dealscout_executions', { type: 'play', status: 'processing' })).toBe(1);
      expect(sample('dealscout_queue_oldest_waiting_seconds', { queue: 'metrics-probe' })).toBe(0);
      expect(sample('dealscout_db_pool_connections', { state: 'waiting' })).toBe(0);
      expect(sample('dealscout_realtime_events_total', { outcome: 'sent' })).toBe(0);
      expect(sample('dealscout_queue_jobs', { queue: 'metrics-probe', state: 'queued' })).toBe(0);
      expect(sample('dealscout_queue_jobs', { queue: 'metrics-probe', state: 'active' })).toBe(0);
      expect(sample('dealscout_realtime_sockets', {})).toBe(0);
      expect(sample('process_cpu_user_seconds_total', {})).toBeGreaterThan(0);
      expect(sample('nodejs_eventloop_lag_p99_seconds', {})).toBeGreaterThanOrEqual(0);
    });

    it('times the realtime fan-out: one round per broadcast, from the event arriving to its last frame written', async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1/realtime`;
      const { organization, admin } = await createOrg(ctx, { name: 'Fanout Co' });
      const client = await signedIn(ctx, admin.email);
      const path = realtimePaths.activities(organization.id);
      const sockets: TestSocket[] = [];
      try {
        for (let i = 0; i < 3; i++) {
          const s = await openSocket(url);
          sockets.push(s);
          s.send({ type: 'auth', token: (await client.get('/api/v1/notifications/token')).json().token });
          await s.next('ready');
          s.send({ type: 'subscribe', paths: [path] });
          await s.next('subscribed');
        }
        const count = async () => {
          const line = (await scrape('Bearer scrape-me-please')).body
            .split('\n')
            .find((l) => l.startsWith('dealscout_realtime_fanout_seconds_count'));
          return Number(line?.slice(line.lastIndexOf(' ') + 1) ?? NaN);
        };
        const before = await count();
        await ctx.em().transactional((tem) => publish(tem, organization.id, { path, kind: 'fanout.probe', data: { n: 1 } }));
        for (const s of sockets) await s.next('events');
        // The three sockets had the event in one flush round.
        expect((await count()) - before).toBe(1);
      } finally {
        for (const s of sockets) await s.close();
      }
    });
  });
});
