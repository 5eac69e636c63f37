// kill -9 of a worker in the middle of a job: the job expires, another worker retries it, and the
// result is written once.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createTestApp, createOrg, type TestContext } from '../../../test/helpers';
import {
  startTestWorker,
  scenarioHandlers,
  eventually,
  TEST_RESULT_TABLE,
  type Scenario,
  type TestWorker,
} from '../../../test/execution-harness';
import { createQueues } from '../../jobs/definitions';
import { executionJobDefinitions } from './runner';
import { createExecutions } from './commands/create-executions';
import { EXECUTION_COLUMNS, type ExecutionRow } from './execution.presenter';

const env = { EXECUTION_EXPIRE_SECONDS: '2', EXECUTION_RETRY_DELAY_SECONDS: '0', EXECUTION_RETRY_LIMIT: '2' };

describe('executions: a worker killed mid-job', () => {
  let ctx: TestContext;
  let child: ChildProcess | null = null;
  let worker: TestWorker | null = null;

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true, env });
    await ctx.em().getConnection().execute(TEST_RESULT_TABLE);
    await ctx.em().getConnection().execute(`create table test_marker (execution_id uuid not null, pid int not null)`);
    // The queues exist with a short expiry before any worker starts.
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await worker?.stop();
    await ctx.close();
  });

  it('is retried by another worker once its job expires, and the result is written once', async () => {
    const { organization, admin } = await createOrg(ctx, { name: 'Crash Co' });
    child = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/test/fixtures/crash-worker.ts')], {
      env: { ...process.env, ...env, DATABASE_URL: ctx.dbUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => {
      output += d;
    });
    child.stderr!.on('data', (d) => {
      output += d;
    });
    await eventually(async () => (output.includes('ready') ? true : undefined), `the worker process to start (${output})`, 60_000);

    const typeId = randomUUID();
    const [started] = await createExecutions(ctx.em(), ctx.boss!, {
      organizationId: organization.id,
      createdById: admin.id,
      type: 'list',
      typeId,
      entityType: 'list',
      targets: [{ entityId: null }],
    });
    const marker = await eventually(
      async () =>
        (await ctx.em().execute<{ pid: number }[]>(`select pid from test_marker where execution_id = ?`, [started.executionId]))[0],
      'the worker to start the job',
    );
    expect(marker.pid).toBe(child.pid);

    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const row = async () =>
      (await ctx.em().execute<ExecutionRow[]>(`select ${EXECUTION_COLUMNS} from execution where id = ?`, [started.executionId]))[0];
    expect((await row()).status).toBe('processing');

    const scenarios = new Map<string, Scenario>([
      [typeId, { run: async ({ execution }) => ({ finishedBy: 'the second worker', attempt: execution.attempt }) }],
    ]);
    worker = await startTestWorker(ctx.dbUrl, ctx.config, scenarioHandlers(scenarios), { superviseIntervalSeconds: 1 });
    const done = await eventually(
      async () => {
        const r = await row();
        return r.status === 'completed' ? r : undefined;
      },
      'the retry to complete',
      60_000,
    );
    expect(done.attempt).toBe(1);
    expect(done.result).toEqual({ finishedBy: 'the second worker', attempt: 1 });
    expect(await ctx.em().execute(`select value from test_result where execution_id = ?`, [started.executionId])).toHaveLength(1);
    expect(await ctx.em().execute(`select pid from test_marker where execution_id = ?`, [started.executionId])).toHaveLength(1);
  });
});
