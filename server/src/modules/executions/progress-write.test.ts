// A progress write is a report, not the work: one that PostgreSQL picks as a deadlock's victim (a
// page of the same run holding the organization's event sequence and waiting for the execution's
// row, as a CRM sync's page does) is skipped, and the run goes on to its result in the same attempt
// instead of failing and doing its work again.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
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

describe('executions: a progress write chosen as a deadlock victim', () => {
  let ctx: TestContext;
  let worker: TestWorker | null = null;
  let other: pg.Client;

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true, env: { EXECUTION_RETRY_DELAY_SECONDS: '0', EXECUTION_RETRY_LIMIT: '2' } });
    await ctx.em().getConnection().execute(TEST_RESULT_TABLE);
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
    other = new pg.Client({ connectionString: ctx.dbUrl, application_name: 'test-other-writer' });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await worker?.stop();
    await ctx?.close();
  });

  it('is skipped: the run completes in its first attempt with one result', async () => {
    const { organization, admin } = await createOrg(ctx, { name: 'Deadlock Co' });
    const org = organization.id;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const typeId = randomUUID();
    const scenarios = new Map<string, Scenario>([
      [
        typeId,
        {
          run: async ({ execution, progress }) => {
            await gate;
            await progress(1, 2);
            return { attempt: execution.attempt };
          },
        },
      ],
    ]);
    worker = await startTestWorker(ctx.dbUrl, ctx.config, scenarioHandlers(scenarios));
    const [started] = await createExecutions(ctx.em(), ctx.boss!, {
      organizationId: org,
      createdById: admin.id,
      type: 'list',
      typeId,
      entityType: 'list',
      targets: [{ entityId: null }],
    });
    const row = async () =>
      (await ctx.em().execute<ExecutionRow[]>(`select ${EXECUTION_COLUMNS} from execution where id = ?`, [started.executionId]))[0];
    await eventually(async () => ((await row()).status === 'processing' ? true : undefined), 'the run to start');

    // Another writer holds the organization's event sequence (as a page publishing its records does) ...
    await other.query('begin');
    await other.query(`set local deadlock_timeout = '10s'`); // so that the progress write is the one PostgreSQL fails
    await other.query(`insert into realtime_sequence (organization_id, last_seq) values ($1, 0) on conflict (organization_id) do nothing`, [
      org,
    ]);
    await other.query(`select 1 from realtime_sequence where organization_id = $1 for update`, [org]);
    // ... the progress write updates the execution's row and waits for the sequence ...
    release();
    await eventually(
      async () =>
        (
          await other.query(
            `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
          )
        ).rowCount
          ? true
          : undefined,
      'the progress write to wait',
    );
    // ... and the other writer then wants the execution's row: a deadlock.
    await other.query(`update execution set updated_at = updated_at where id = $1 and organization_id = $2`, [started.executionId, org]);
    await other.query('commit');

    const done = await eventually(
      async () => {
        const r = await row();
        return r.status === 'completed' || r.status === 'error' ? r : undefined;
      },
      'the run to finish',
      20_000,
    );
    expect(done).toMatchObject({ status: 'completed', attempt: 0, result: { attempt: 0 } });
    expect(await ctx.em().execute(`select value from test_result where execution_id = ?`, [started.executionId])).toHaveLength(1);
  });
});
