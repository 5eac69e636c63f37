// Two API instances and one worker on one database: events written anywhere reach sockets
// everywhere (LISTEN/NOTIFY), and a listener that loses its connection catches up from the table.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import pino from 'pino';
import { realtimePaths } from '@dealscout/shared/domain';
import type { ActivityDto, ExecutionDto } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, TestClient, type TestContext } from '../../../test/helpers';
import { openSocket, type TestSocket } from '../../../test/ws-client';
import {
  startTestWorker,
  scenarioHandlers,
  eventually,
  TEST_RESULT_TABLE,
  type Scenario,
  type TestWorker,
} from '../../../test/execution-harness';
import { ormConfig } from '../../orm-config';
import { buildApp } from '../../app';
import { startBoss } from '../../jobs/boss';
import { createExecutions } from '../executions/commands/create-executions';
import { publish } from './publish';

describe('realtime across processes: API A, API B and a worker on one database', () => {
  let ctx: TestContext; // API A
  let appB: FastifyInstance;
  let ormB: MikroORM;
  let bossB: PgBoss;
  let worker: TestWorker;
  const scenarios = new Map<string, Scenario>();
  const sockets: TestSocket[] = [];
  const wsUrl = (app: FastifyInstance) => `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/realtime`;

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true });
    await ctx.em().getConnection().execute(TEST_RESULT_TABLE);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ormB = await MikroORM.init(ormConfig(ctx.dbUrl, { logger: () => {}, pool: { min: 0, max: 5 } }));
    const logger = pino({ level: 'silent' });
    bossB = await startBoss(ctx.dbUrl, logger, { supervise: false });
    appB = await buildApp({ config: ctx.config, orm: ormB, boss: bossB, logger });
    await appB.listen({ port: 0, host: '127.0.0.1' });
    worker = await startTestWorker(ctx.dbUrl, ctx.config, scenarioHandlers(scenarios));
  });
  afterAll(async () => {
    for (const s of sockets) await s.close();
    await worker.stop();
    await appB.close();
    await bossB.stop({ graceful: false });
    await ormB.close();
    await ctx.close();
  });

  async function socket(app: FastifyInstance, client: TestClient, paths: string[]) {
    const s = await openSocket(wsUrl(app));
    sockets.push(s);
    s.send({ type: 'auth', token: (await client.get('/api/v1/notifications/token')).json().token });
    await s.next('ready');
    s.send({ type: 'subscribe', paths });
    await s.next('subscribed');
    return s;
  }

  it('a socket on API A receives the events of a job the worker runs for an execution API B created', async () => {
    const { organization, admin } = await createOrg(ctx, { name: 'Multi Co' });
    const onA = new TestClient(ctx.app);
    await onA.login(admin.email);
    const onB = new TestClient(appB);
    await onB.login(admin.email);
    const sA = await socket(ctx.app, onA, [realtimePaths.executions(organization.id)]);
    const sB = await socket(appB, onB, [realtimePaths.executions(organization.id)]);

    const typeId = randomUUID();
    scenarios.set(typeId, { run: async () => ({ ok: 'from the worker' }) });
    const [started] = await createExecutions(ormB.em.fork(), bossB, {
      organizationId: organization.id,
      createdById: admin.id,
      type: 'enrichment',
      typeId,
      entityType: 'company',
      targets: [{ entityId: randomUUID() }],
    });

    for (const s of [sA, sB]) {
      const events = await s.waitForEvents((e) =>
        e.some((x) => (x.data as ExecutionDto).id === started.executionId && (x.data as ExecutionDto).status === 'completed'),
      );
      const mine = events.filter((e) => (e.data as ExecutionDto).id === started.executionId);
      expect(mine[mine.length - 1].data).toMatchObject({ status: 'completed', type: 'enrichment' });
      const seqs = mine.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    }
  });

  it('an activity logged through API B appears on a socket of API A', async () => {
    const { organization, admin } = await createOrg(ctx, { name: 'Activity Multi Co' });
    const onA = new TestClient(ctx.app);
    await onA.login(admin.email);
    const onB = new TestClient(appB);
    await onB.login(admin.email);
    const sA = await socket(ctx.app, onA, [realtimePaths.activities(organization.id)]);
    const company = (
      await onB.post('/api/v1/entity', {
        company: { name: 'Northwind', website: 'northwind.example' },
        contact: { firstName: 'Nora', lastName: 'West', email: 'nora@northwind.example' },
      })
    ).json();
    const today = new Date().toISOString().slice(0, 10);
    const res = await onB.post('/api/v1/activity', {
      type: 'call',
      companyId: company.companyId,
      contactId: company.contactId,
      date: '2999-01-01',
      content: `Call on ${today}`,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [e] = await sA.waitForEvents((ev) => ev.length >= 1);
    expect(e).toMatchObject({ kind: 'activity.created', path: realtimePaths.activities(organization.id) });
    expect((e.data as ActivityDto).id).toBe(res.json().activity.id);
  });

  it('a listener that loses its database connection reconnects and delivers what was written meanwhile, in order, once', async () => {
    const { organization, admin } = await createOrg(ctx, { name: 'Reconnect Co' });
    const onA = new TestClient(ctx.app);
    await onA.login(admin.email);
    const s = await socket(ctx.app, onA, [realtimePaths.activities(organization.id)]);
    const emit = (n: number) =>
      ormB.em
        .fork()
        .transactional((tem) =>
          publish(tem, organization.id, { path: realtimePaths.activities(organization.id), kind: 'test', data: { n } }),
        );
    await emit(1);
    await s.waitForEvents((e) => e.length >= 1);
    const reconnectsBefore = ctx.app.realtime.stats.reconnects;
    ctx.app.realtime.simulateListenerLoss();
    for (let n = 2; n <= 6; n++) await emit(n);
    await eventually(async () => (ctx.app.realtime.stats.reconnects > reconnectsBefore ? true : undefined), 'the listener to reconnect');
    await emit(7);
    const events = await s.waitForEvents((e) => e.length >= 7);
    expect(events.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it(
    'a socket of an API process that closes (SIGTERM) gets 1001; resumed on the other one with `since`, it ' +
      'receives every event written meanwhile, once, in order',
    async () => {
      const { organization, admin } = await createOrg(ctx, { name: 'Rolling Co' });
      const path = realtimePaths.activities(organization.id);
      const emit = (n: number) => ormB.em.fork().transactional((tem) => publish(tem, organization.id, { path, kind: 'test', data: { n } }));
      // API C: a process of the fleet that is restarted.
      const appC = await buildApp({ config: ctx.config, orm: ormB, boss: bossB, logger: pino({ level: 'silent' }) });
      await appC.listen({ port: 0, host: '127.0.0.1' });
      const onC = new TestClient(appC);
      await onC.login(admin.email);
      const first = await socket(appC, onC, [path]);
      await emit(1);
      const [seen] = await first.waitForEvents((e) => e.length >= 1);
      const closing = appC.close();
      expect((await first.closed).code).toBe(1001);
      await closing;
      for (let n = 2; n <= 6; n++) await emit(n);
      // The client reconnects (through the balancer) to API A and resumes after the last event it saw.
      const onA = new TestClient(ctx.app);
      await onA.login(admin.email);
      const again = await openSocket(wsUrl(ctx.app));
      sockets.push(again);
      again.send({ type: 'auth', token: (await onA.get('/api/v1/notifications/token')).json().token });
      await again.next('ready');
      again.send({ type: 'subscribe', paths: [path], since: seen.seq });
      await again.next('subscribed');
      await emit(7);
      const events = await again.waitForEvents((e) => e.some((x) => (x.data as { n: number }).n === 7));
      expect(events.map((e) => (e.data as { n: number }).n)).toEqual([2, 3, 4, 5, 6, 7]);
    },
  );
});
