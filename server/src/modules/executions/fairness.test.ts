// Per-organization concurrency: one organization's big run does not starve another's small one.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, type TestContext } from '../../../test/helpers';
import {
  startTestWorker,
  scenarioHandlers,
  eventually,
  TEST_RESULT_TABLE,
  type Scenario,
  type TestWorker,
} from '../../../test/execution-harness';
import { createExecutions } from './commands/create-executions';

describe('executions: per-organization concurrency limit', () => {
  let ctx: TestContext;
  let worker: TestWorker;
  const scenarios = new Map<string, Scenario>();

  beforeAll(async () => {
    // Two active jobs per organization, a worker with room for eight.
    ctx = await createTestApp({
      boss: true,
      env: { EXECUTION_ORG_CONCURRENCY: '2', EXECUTION_WORKER_CONCURRENCY: '4', EXECUTION_BATCH_SIZE: '2' },
    });
    await ctx.em().getConnection().execute(TEST_RESULT_TABLE);
    worker = await startTestWorker(ctx.dbUrl, ctx.config, scenarioHandlers(scenarios));
  });
  afterAll(async () => {
    await worker.stop();
    await ctx.close();
  });

  it("a small run of organization B finishes while organization A's big run is still queued, and A stays within its limit", async () => {
    const a = await createOrg(ctx, { name: 'Big Run Co' });
    const b = await createOrg(ctx, { name: 'Small Run Co' });
    const finished: string[] = [];
    let runningA = 0;
    let maxRunningA = 0;
    const typeId = randomUUID();
    scenarios.set(typeId, {
      run: async ({ execution }) => {
        const isA = execution.organization_id === a.organization.id;
        if (isA) maxRunningA = Math.max(maxRunningA, ++runningA);
        await new Promise((r) => setTimeout(r, 30));
        if (isA) runningA -= 1;
        finished.push(isA ? 'A' : 'B');
        return null;
      },
      commit: async () => {},
    });
    const start = (org: string, n: number) =>
      createExecutions(ctx.em(), ctx.boss!, {
        organizationId: org,
        createdById: null,
        type: 'enrichment',
        typeId,
        entityType: 'company',
        targets: Array.from({ length: n }, () => ({ entityId: randomUUID() })),
        announce: false,
      });
    await start(a.organization.id, 300);
    // A is under way before B asks.
    await eventually(async () => (finished.length >= 4 ? true : undefined), 'A to start');
    await start(b.organization.id, 10);
    await eventually(async () => (finished.filter((f) => f === 'B').length === 10 ? true : undefined), "B's run to finish");
    const aDoneWhenBFinished = finished.lastIndexOf('B') + 1 - 10;
    // B did not wait for A's backlog: most of A's 300 were still waiting when B's 10 were done.
    expect(aDoneWhenBFinished).toBeLessThan(150);
    // The limit is applied when jobs are fetched (pg-boss group concurrency): fetches that race can
    // overshoot it, by at most one limit per fetch loop, but never take the whole worker for long.
    expect(maxRunningA).toBeLessThanOrEqual(2 * 4);
    await eventually(
      async () => {
        const [{ n }] = await ctx
          .em()
          .execute<{ n: string }[]>(`select count(*) as n from execution where type_id = ? and status = 'completed'`, [typeId]);
        return Number(n) === 310 ? true : undefined;
      },
      'every execution to complete',
      60_000,
    );
  });
});
