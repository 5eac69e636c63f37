import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { realtimePaths, type ExecutionType } from '@dealscout/shared/domain';
import type { ExecutionDto, NotificationDto } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { openSocket, type TestSocket } from '../../../test/ws-client';
import {
  startTestWorker,
  scenarioHandlers,
  eventually,
  writeTestResult,
  TEST_RESULT_TABLE,
  type Scenario,
  type TestWorker,
} from '../../../test/execution-harness';
import { BOSS_SCHEMA } from '../../jobs/boss';
import { createExecutions, type CreateExecutionsInput } from './commands/create-executions';
import { runExecutionJob, runExecutionBatch, ExecutionError, type ExecutionHandler } from './runner';
import { executionQueue } from './queues';
import { EXECUTION_COLUMNS, type ExecutionRow } from './execution.presenter';
import pino from 'pino';

describe('executions: transactional enqueue, worker transitions, retries, dead letters, cancel, routes', () => {
  let ctx: TestContext;
  let worker: TestWorker;
  const scenarios = new Map<string, Scenario>();
  let org: { id: string };
  let admin: { id: string; email: string };
  let c: TestClient;
  let url: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true, env: { EXECUTION_RETRY_LIMIT: '1', EXECUTION_RETRY_DELAY_SECONDS: '0' } });
    await ctx.em().getConnection().execute(TEST_RESULT_TABLE);
    worker = await startTestWorker(ctx.dbUrl, ctx.config, scenarioHandlers(scenarios));
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1/realtime`;
    const o = await createOrg(ctx, { name: 'Exec Co' });
    org = o.organization;
    admin = o.admin;
    c = await signedIn(ctx, admin.email);
  });
  afterAll(async () => {
    for (const s of sockets) await s.close();
    await worker.stop();
    await ctx.close();
  });

  /** A scenario id (stored as the execution's typeId) for a behaviour. */
  function scenario(s: Scenario): string {
    const id = randomUUID();
    scenarios.set(id, s);
    return id;
  }
  const start = (input: Partial<CreateExecutionsInput> & { typeId: string }, organizationId = org.id) =>
    createExecutions(ctx.em(), ctx.boss!, {
      organizationId,
      createdById: admin.id,
      type: 'enrichment',
      entityType: 'company',
      targets: [{ entityId: randomUUID() }],
      ...input,
    });
  const row = async (id: string) =>
    (await ctx.em().execute<ExecutionRow[]>(`select ${EXECUTION_COLUMNS} from execution where id = ?`, [id]))[0];
  const results = async (id: string) => ctx.em().execute<{ value: string }[]>(`select value from test_result where execution_id = ?`, [id]);
  const settled = (id: string, status = 'completed') =>
    eventually(async () => {
      const r = await row(id);
      return r.status === status ? r : undefined;
    }, `execution ${id} ${status}`);
  const job = async (type: ExecutionType, id: string) =>
    (
      await ctx
        .em()
        .execute<{ state: string; group_id: string; data: unknown }[]>(
          `select state, group_id, data from ${BOSS_SCHEMA}.job where name = ? and id = ?`,
          [executionQueue(type), id],
        )
    )[0];
  async function socketOn(paths: string[]) {
    const s = await openSocket(url);
    sockets.push(s);
    s.send({ type: 'auth', token: (await c.get('/api/v1/notifications/token')).json().token });
    await s.next('ready');
    s.send({ type: 'subscribe', paths });
    await s.next('subscribed');
    return s;
  }

  it('an execution and its job are created in one transaction: a rollback leaves neither', async () => {
    const typeId = scenario({ run: async () => 'never' });
    const id = await ctx
      .em()
      .transactional(async (tem) => {
        const [started] = await createExecutions(tem, ctx.boss!, {
          organizationId: org.id,
          createdById: admin.id,
          type: 'list',
          typeId,
          entityType: 'list',
          targets: [{ entityId: randomUUID() }],
        });
        // Inside the transaction the row and the job exist; nobody else sees them yet.
        expect(await tem.execute(`select 1 from ${BOSS_SCHEMA}.job where id = ?`, [started.executionId])).toHaveLength(1);
        expect(await row(started.executionId)).toBeUndefined();
        throw Object.assign(new Error('rollback'), { id: started.executionId });
      })
      .catch((err: Error & { id: string }) => err.id);
    expect(await row(id)).toBeUndefined();
    expect(await job('list', id)).toBeUndefined();
    expect(await ctx.em().execute(`select 1 from realtime_event where data->>'id' = ?`, [id])).toHaveLength(0);
  });

  it(
    'committed: the row starts scheduled (enrichment, list) or draft (play, score); the job has its id and the ' +
      'organization as group; the worker completes it',
    async () => {
      const s = await socketOn([realtimePaths.executions(org.id)]);
      const typeId = scenario({ run: async ({ execution }) => ({ answer: `done ${execution.entity_id}` }) });
      const byType: Record<string, string> = {};
      for (const type of ['enrichment', 'play', 'list', 'score'] as const) {
        const [started] = await start({ type, typeId, entityType: type === 'list' ? 'list' : 'company' });
        expect(started.status).toBe('started');
        byType[type] = started.executionId;
      }
      // The creating transaction committed before the worker could see the job.
      const initial = await Promise.all(
        Object.entries(byType).map(async ([type, id]) => [
          type,
          (
            await ctx.em().execute<{ status: string }[]>(
              `select status from realtime_event e, lateral (select e.data->>'status' as status) x where e.organization_id = ? and
                e.data->>'id' = ? order by seq limit 1`,
              [org.id, id],
            )
          )[0]?.status,
        ]),
      );
      expect(Object.fromEntries(initial)).toEqual({ enrichment: 'scheduled', play: 'draft', list: 'scheduled', score: 'draft' });
      for (const [type, id] of Object.entries(byType)) {
        const done = await settled(id);
        expect(done).toMatchObject({ status: 'completed', attempt: 0, organization_id: org.id, created_by_id: admin.id });
        expect(done.result).toEqual({ answer: `done ${done.entity_id}` });
        expect(await results(id)).toHaveLength(1);
        expect(await job(type as ExecutionType, id)).toMatchObject({
          group_id: org.id,
          data: { executionId: id, organizationId: org.id, type },
        });
      }
      // Every step reached the socket, in order, on org/{oid}/executions/{type}/{entityType}.
      const id = byType.enrichment;
      const events = await s.waitForEvents((e) =>
        e.some((x) => (x.data as ExecutionDto).id === id && (x.data as ExecutionDto).status === 'completed'),
      );
      const mine = events.filter((e) => (e.data as ExecutionDto).id === id);
      expect(
        mine.every(
          (e) =>
            e.path === realtimePaths.executions(org.id, 'enrichment', 'company') &&
            e.kind === 'execution.updated' &&
            e.key === `execution:${id}`,
        ),
      ).toBe(true);
      expect(mine[mine.length - 1].data).toMatchObject({
        status: 'completed',
        listening: false,
        type: 'enrichment',
        entityType: 'company',
      });
    },
  );

  it('bulk: thousands of executions and jobs in one call (pg-boss insert)', async () => {
    const typeId = scenario({ run: async () => 1 });
    const targets = Array.from({ length: 3000 }, () => ({ entityId: randomUUID() }));
    const started = await createExecutions(ctx.em(), ctx.boss!, {
      organizationId: org.id,
      createdById: admin.id,
      type: 'score',
      typeId,
      entityType: 'idea',
      targets,
      announce: false,
    });
    expect(started).toHaveLength(3000);
    expect(started.map((s) => s.entityId)).toEqual(targets.map((t) => t.entityId));
    const [{ n }] = await ctx
      .em()
      .execute<{ n: string }[]>(
        `select count(*) as n from ${BOSS_SCHEMA}.job where name = ? and id in (select id from execution where type_id = ?)`,
        [executionQueue('score'), typeId],
      );
    expect(Number(n)).toBe(3000);
    await eventually(
      async () => {
        const [{ left }] = await ctx
          .em()
          .execute<{ left: string }[]>(`select count(*) as left from execution where type_id = ? and status <> 'completed'`, [typeId]);
        return Number(left) === 0 ? true : undefined;
      },
      'the bulk run to finish',
      60_000,
    );
  });

  it('an idempotency key that is still active answers duplicate with the running execution; once it finished a new one starts', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const typeId = scenario({
      run: async () => {
        await gate;
        return 'ok';
      },
    });
    const key = `enrich:${randomUUID()}`;
    const [first] = await start({ typeId, targets: [{ entityId: null, idempotencyKey: key }] });
    const again = await start({
      typeId,
      targets: [
        { entityId: null, idempotencyKey: key },
        { entityId: null, idempotencyKey: key },
      ],
    });
    expect(again).toEqual([
      { entityId: null, executionId: first.executionId, status: 'duplicate' },
      { entityId: null, executionId: first.executionId, status: 'duplicate' },
    ]);
    release();
    await settled(first.executionId);
    const [third] = await start({ typeId, targets: [{ entityId: null, idempotencyKey: key }] });
    expect(third.status).toBe('started');
    expect(third.executionId).not.toBe(first.executionId);
    await settled(third.executionId);
  });

  it('a job that fails is retried (with backoff) and its result is written once', async () => {
    const typeId = scenario({
      run: async ({ execution }) => {
        if (execution.attempt === 0) throw new Error('flaky outside service');
        return { ok: true };
      },
    });
    const [started] = await start({ typeId });
    const done = await settled(started.executionId);
    expect(done.attempt).toBe(1);
    expect(done.status_message).toBeNull();
    expect(await results(started.executionId)).toEqual([{ value: '{"ok":true}' }]);
  });

  it('a retried job whose result was already written writes nothing (second attempt after a lost completion, and two attempts at once)', async () => {
    const typeId = scenario({ run: async ({ execution }) => ({ by: execution.attempt }) });
    // No worker picks these up: they are run here by hand, as a worker would after a crash.
    const [started] = await createExecutions(ctx.em(), ctx.boss!, {
      organizationId: org.id,
      createdById: admin.id,
      type: 'list',
      typeId,
      entityType: 'list',
      targets: [{ entityId: null }],
      startAfter: new Date(Date.now() + 3_600_000),
    });
    const jobCtx = { orm: ctx.orm, logger: pino({ level: 'silent' }), boss: ctx.boss!, config: ctx.config };
    const handler = scenarioHandlers(scenarios).find((h) => h.type === 'list')!;
    const data = { executionId: started.executionId, organizationId: org.id, type: 'list' as const };
    await runExecutionJob(handler, data, jobCtx, { retryCount: 0 });
    await runExecutionJob(handler, data, jobCtx, { retryCount: 1 });
    expect(await results(started.executionId)).toEqual([{ value: '{"by":0}' }]);
    expect((await row(started.executionId)).status).toBe('completed');

    const [twin] = await createExecutions(ctx.em(), ctx.boss!, {
      organizationId: org.id,
      createdById: admin.id,
      type: 'list',
      typeId,
      entityType: 'list',
      targets: [{ entityId: null }],
      startAfter: new Date(Date.now() + 3_600_000),
    });
    const twinData = { ...data, executionId: twin.executionId };
    await Promise.all([
      runExecutionJob(handler, twinData, jobCtx, { retryCount: 0 }),
      runExecutionJob(handler, twinData, jobCtx, { retryCount: 1 }),
    ]);
    expect(await results(twin.executionId)).toHaveLength(1);
    expect((await row(twin.executionId)).status).toBe('completed');
  });

  it('a job fetched again while its execution is still running in this process (expired, retried) does not run it a second time', async () => {
    let runs = 0;
    const typeId = scenario({
      run: async () => {
        runs += 1;
        await new Promise((r) => setTimeout(r, 300));
        return { runs };
      },
    });
    const [started] = await createExecutions(ctx.em(), ctx.boss!, {
      organizationId: org.id,
      createdById: admin.id,
      type: 'list',
      typeId,
      entityType: 'list',
      targets: [{ entityId: null }],
      startAfter: new Date(Date.now() + 3_600_000),
    });
    const jobCtx = { orm: ctx.orm, logger: pino({ level: 'silent' }), boss: ctx.boss!, config: ctx.config };
    const handlers = new Map(scenarioHandlers(scenarios).map((h) => [h.type, h]));
    const data = { executionId: started.executionId, organizationId: org.id, type: 'list' as const };
    const first = runExecutionBatch(handlers, [{ data, job: { id: started.executionId, retryCount: 0 } }], jobCtx);
    await new Promise((r) => setTimeout(r, 100));
    // The same job again (its next attempt) in another batch, while the first run is still going.
    const again = await runExecutionBatch(handlers, [{ data, job: { id: started.executionId, retryCount: 1 } }], jobCtx);
    expect((await first).map((o) => o.status)).toEqual(['completed']);
    expect(again.map((o) => o.status)).toEqual(['completed']);
    expect(runs).toBe(1);
    expect(await results(started.executionId)).toEqual([{ value: '{"runs":1}' }]);
    // Once finished, a later attempt finds it completed and skips it.
    await runExecutionBatch(handlers, [{ data, job: { id: started.executionId, retryCount: 2 } }], jobCtx);
    expect(runs).toBe(1);
  });

  it(
    'a batch completes in one transaction, and a commit step that throws fails its own execution only: the rest of ' +
      'its batch completes, each result written once',
    async () => {
      const bad = randomUUID();
      const typeId = scenario({
        run: async ({ execution }) => ({ entity: execution.entity_id }),
        commit: async (em, execution, result) => {
          if (execution.entity_id === bad) throw new Error('constraint violated by this result');
          await writeTestResult(em, execution, result);
        },
      });
      const entities = [randomUUID(), bad, randomUUID(), randomUUID()];
      // Not picked up by the worker (start in an hour): run here as one fetched batch.
      const started = await createExecutions(ctx.em(), ctx.boss!, {
        organizationId: org.id,
        createdById: admin.id,
        type: 'list',
        typeId,
        entityType: 'list',
        targets: entities.map((entityId) => ({ entityId })),
        startAfter: new Date(Date.now() + 3_600_000),
      });
      const jobCtx = { orm: ctx.orm, logger: pino({ level: 'silent' }), boss: ctx.boss!, config: ctx.config };
      const handlers = new Map(scenarioHandlers(scenarios).map((h) => [h.type, h]));
      const items = started.map((st) => ({
        data: { executionId: st.executionId, organizationId: org.id, type: 'list' as const },
        job: { id: st.executionId, retryCount: 0 },
      }));
      const outcome = await runExecutionBatch(handlers, items, jobCtx);
      const failedId = started[1].executionId;
      expect(outcome.map((o) => [o.id, o.status])).toEqual(
        started.map((st) => [st.executionId, st.executionId === failedId ? 'failed' : 'completed']),
      );
      for (const st of started) {
        const r = await row(st.executionId);
        if (st.executionId === failedId) {
          expect([r.status, r.status_message]).toEqual(['processing', 'The execution failed unexpectedly.']);
          expect(await results(st.executionId)).toHaveLength(0);
        } else {
          expect(r.status).toBe('completed');
          expect(await results(st.executionId)).toEqual([{ value: JSON.stringify({ entity: st.entityId }) }]);
        }
      }
      // The same batch again (a retry of every job): nothing more is written for the completed ones.
      await runExecutionBatch(
        handlers,
        items.map((i) => ({ ...i, job: { ...i.job, retryCount: 1 } })),
        jobCtx,
      );
      for (const st of started) if (st.executionId !== failedId) expect(await results(st.executionId)).toHaveLength(1);
    },
  );

  it('a handler with commitMany writes a completing group in one call; when it throws, each execution is tried alone and only the bad one fails', async () => {
    const bad = randomUUID();
    const typeId = scenario({ run: async ({ execution }) => ({ entity: execution.entity_id }) });
    const calls: number[] = [];
    const groupHandler: ExecutionHandler = {
      type: 'list',
      run: async ({ execution }) => ({ entity: execution.entity_id }),
      commitMany: async (em, group) => {
        calls.push(group.length);
        if (group.some((g) => g.execution.entity_id === bad)) throw new Error('constraint violated by this result');
        for (const g of group) await writeTestResult(em, g.execution, g.result);
      },
    };
    const run = async (entities: string[]) => {
      const started = await createExecutions(ctx.em(), ctx.boss!, {
        organizationId: org.id,
        createdById: admin.id,
        type: 'list',
        typeId,
        entityType: 'list',
        targets: entities.map((entityId) => ({ entityId })),
        startAfter: new Date(Date.now() + 3_600_000),
      });
      const jobCtx = { orm: ctx.orm, logger: pino({ level: 'silent' }), boss: ctx.boss!, config: ctx.config };
      const items = started.map((st) => ({
        data: { executionId: st.executionId, organizationId: org.id, type: 'list' as const },
        job: { id: st.executionId, retryCount: 0 },
      }));
      return { started, outcome: await runExecutionBatch(new Map([['list', groupHandler]]), items, jobCtx) };
    };
    const ok = await run([randomUUID(), randomUUID(), randomUUID()]);
    expect(calls).toEqual([3]);
    expect(ok.outcome.every((o) => o.status === 'completed')).toBe(true);
    for (const st of ok.started) expect(await results(st.executionId)).toEqual([{ value: JSON.stringify({ entity: st.entityId }) }]);

    calls.length = 0;
    const mixed = await run([randomUUID(), bad, randomUUID()]);
    expect(calls).toEqual([3, 1, 1, 1]);
    for (const [i, st] of mixed.started.entries()) {
      expect(mixed.outcome[i].status).toBe(st.entityId === bad ? 'failed' : 'completed');
      expect(await results(st.executionId)).toHaveLength(st.entityId === bad ? 0 : 1);
    }
  });

  it('a job that keeps failing goes to the dead-letter queue: the execution becomes error and its creator gets an error notification, live', async () => {
    const s = await socketOn([realtimePaths.notifications(admin.id)]);
    const typeId = scenario({
      run: async () => {
        throw new ExecutionError('The enrichment prompt is empty');
      },
    });
    const [started] = await start({ typeId });
    const failed = await settled(started.executionId, 'error');
    expect(failed.status_message).toBe('The enrichment prompt is empty');
    expect(failed.attempt).toBe(1);
    expect(await results(started.executionId)).toHaveLength(0);
    const events = await s.waitForEvents((e) => e.some((x) => x.kind === 'notification.created'));
    const notice = events.find((x) => x.kind === 'notification.created')!.data as NotificationDto;
    expect(notice).toMatchObject({
      level: 'error',
      read: false,
      message: 'Error executing enrichment: The enrichment prompt is empty',
      uniqueKey: `execution-failed:${started.executionId}`,
    });
    const list = await c.get('/api/v1/notifications');
    expect(list.json().notifications.map((n: NotificationDto) => n.id)).toContain(notice.id);

    // An unexpected error is not shown as such: the generic message is.
    const crashId = scenario({
      run: async () => {
        throw new TypeError('cannot read properties of undefined');
      },
    });
    const [crash] = await start({ typeId: crashId, type: 'play', entityType: 'contact' });
    expect((await settled(crash.executionId, 'error')).status_message).toBe('The execution failed unexpectedly.');
    const notices = (await c.get('/api/v1/notifications')).json().notifications as NotificationDto[];
    expect(notices.find((n) => n.uniqueKey === `execution-failed:${crash.executionId}`)?.message).toBe(
      'Play execution failed: The execution failed unexpectedly.',
    );
  });

  it('progress is written and pushed as the execution runs', async () => {
    const s = await socketOn([realtimePaths.executions(org.id, 'list')]);
    const typeId = scenario({
      run: async ({ progress }) => {
        for (let i = 1; i <= 50; i++) await progress(i, 50);
        return 'built';
      },
    });
    const [started] = await start({ type: 'list', entityType: 'list', typeId });
    const done = await settled(started.executionId);
    expect([done.processed, done.total]).toEqual([50, 50]);
    const events = await s.waitForEvents((e) =>
      e.some((x) => (x.data as ExecutionDto).id === started.executionId && (x.data as ExecutionDto).status === 'completed'),
    );
    const mine = events.filter((e) => (e.data as ExecutionDto).id === started.executionId).map((e) => e.data as ExecutionDto);
    expect(mine[mine.length - 1]).toMatchObject({ status: 'completed', progress: { processed: 50, total: 50 } });
    const processed = mine.map((m) => m.progress.processed);
    expect(processed).toEqual([...processed].sort((a, b) => a - b));
  });

  describe('cancel', () => {
    it('POST /api/v1/execution/cancel removes queued work: cancelled, the job cancelled, nothing runs', async () => {
      const typeId = scenario({
        run: async () => {
          throw new Error('must not run');
        },
      });
      const [started] = await start({ typeId, startAfter: new Date(Date.now() + 3_600_000) });
      const res = await c.post('/api/v1/execution/cancel', { executionId: started.executionId });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Execution cancelled.',
        execution: { id: started.executionId, status: 'cancelled', listening: false, statusMessage: 'Execution cancelled.' },
      });
      expect((await job('enrichment', started.executionId)).state).toBe('cancelled');
      const again = await c.post('/api/v1/execution/cancel', { executionId: started.executionId });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ success: false, message: 'Execution has already finished.' });
    });

    it('running work is marked cancelled and the handler stops without writing its result', async () => {
      let running!: () => void;
      const isRunning = new Promise<void>((r) => {
        running = r;
      });
      let sawAbort = false;
      const typeId = scenario({
        run: async ({ signal }) => {
          running();
          await new Promise<void>((resolve) =>
            signal.addEventListener('abort', () => {
              sawAbort = true;
              resolve();
            }),
          );
          return 'late result';
        },
      });
      const [started] = await start({ typeId, type: 'play', entityType: 'contact' });
      await isRunning;
      const res = await c.post('/api/v1/play/execution/cancel', { executionId: started.executionId });
      expect(res.statusCode, res.body).toBe(200);
      await eventually(async () => (sawAbort ? true : undefined), 'the handler to see the cancellation');
      // The job ends (completed or cancelled), and the execution stays cancelled with no result.
      await eventually(
        async () => (['completed', 'cancelled'].includes((await job('play', started.executionId)).state) ? true : undefined),
        'the job to end',
      );
      const r = await row(started.executionId);
      expect([r.status, r.result]).toEqual(['cancelled', null]);
      expect(await results(started.executionId)).toHaveLength(0);
    });

    it('play cancel answers 404 for an execution that is not a play; both answer 404 across organizations, 400 for a bad id, 401 signed out', async () => {
      const typeId = scenario({ run: async () => 'x' });
      const [enrichment] = await start({ typeId, startAfter: new Date(Date.now() + 3_600_000) });
      const notPlay = await c.post('/api/v1/play/execution/cancel', { executionId: enrichment.executionId });
      expect(notPlay.statusCode).toBe(404);
      expect(notPlay.json()).toEqual({ success: false, message: 'Execution not found.' });

      const other = await createOrg(ctx, { name: 'Other Exec Co' });
      const [theirs] = await start(
        { typeId, createdById: other.admin.id, startAfter: new Date(Date.now() + 3_600_000) },
        other.organization.id,
      );
      for (const path of ['/api/v1/execution/cancel', '/api/v1/play/execution/cancel']) {
        const res = await c.post(path, { executionId: theirs.executionId });
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Execution not found.');
      }
      expect((await row(theirs.executionId)).status).toBe('scheduled');
      const bad = await c.post('/api/v1/execution/cancel', { executionId: 'nope' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Execution not found.');
      const anon = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/execution/cancel',
        payload: { executionId: enrichment.executionId },
      });
      expect(anon.statusCode).toBe(401);
    });
  });

  describe('reading executions', () => {
    it('GET /api/v1/execution/{id}: own 200, another organization 404, bad id 400, signed out 401', async () => {
      const typeId = scenario({ run: async () => 'x' });
      const [mine] = await start({ typeId, startAfter: new Date(Date.now() + 3_600_000) });
      const res = await c.get(`/api/v1/execution/${mine.executionId}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().execution).toMatchObject({
        id: mine.executionId,
        type: 'enrichment',
        typeId,
        entityType: 'company',
        status: 'scheduled',
        listening: true,
        progress: { processed: 0, total: null },
      });
      const other = await createOrg(ctx, { name: 'Reader Co' });
      const [theirs] = await start(
        { typeId, createdById: other.admin.id, startAfter: new Date(Date.now() + 3_600_000) },
        other.organization.id,
      );
      expect((await c.get(`/api/v1/execution/${theirs.executionId}`)).statusCode).toBe(404);
      expect((await c.get('/api/v1/execution/not-a-uuid')).statusCode).toBe(400);
      expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/execution/${mine.executionId}` })).statusCode).toBe(401);
    });

    it('POST /api/v1/execution/active lists the running ones of the organization, filtered', async () => {
      const typeId = randomUUID();
      scenarios.set(typeId, { run: async () => 'x' });
      const entityA = randomUUID();
      const later = new Date(Date.now() + 3_600_000);
      const [a] = await start({ typeId, startAfter: later, targets: [{ entityId: entityA }] });
      const [b] = await start({ typeId, startAfter: later, type: 'score', entityType: 'idea' });
      await c.post('/api/v1/execution/cancel', { executionId: b.executionId });
      const other = await createOrg(ctx, { name: 'Active Co' });
      await start({ typeId, createdById: other.admin.id, startAfter: later, targets: [{ entityId: entityA }] }, other.organization.id);
      const res = await c.post('/api/v1/execution/active', { typeId });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().executions.map((e: ExecutionDto) => e.id)).toEqual([a.executionId]);
      const byEntity = await c.post('/api/v1/execution/active', { type: 'enrichment', entityType: 'company', entityIds: [entityA] });
      expect(byEntity.json().executions.map((e: ExecutionDto) => e.id)).toEqual([a.executionId]);
      expect((await c.post('/api/v1/execution/active', { type: 'bogus' })).statusCode).toBe(400);
      expect((await ctx.app.inject({ method: 'POST', url: '/api/v1/execution/active', payload: {} })).statusCode).toBe(401);
    });
  });
});
