// Execution workers for tests: a worker "process" (its own ORM and pg-boss, supervising, woken by
// NOTIFY) running test handlers for the four execution types. What a handler does is chosen per
// execution by a scenario stored in its typeId, so one worker serves every test of a file.
import { MikroORM } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import pino from 'pino';
import { EXECUTION_TYPES } from '@dealscout/shared/domain';
import { ormConfig } from '../src/orm-config';
import { startBoss } from '../src/jobs/boss';
import { createQueues, startWorkers } from '../src/jobs/definitions';
import type { Config } from '../src/config';
import {
  executionJobDefinitions,
  type ExecutionHandler,
  type ExecutionRunContext,
  type RunnerOptions,
} from '../src/modules/executions/runner';
import type { ExecutionRow } from '../src/modules/executions/execution.presenter';
import type { EntityManager } from '@mikro-orm/postgresql';
import { boundedTeardown } from './teardown';

export interface Scenario {
  run(ctx: ExecutionRunContext): Promise<unknown>;
  commit?(em: EntityManager, execution: ExecutionRow, result: unknown): Promise<void>;
}

/** Writes the result into test_result (no unique constraint: a second write would show). */
export async function writeTestResult(em: EntityManager, execution: ExecutionRow, result: unknown): Promise<void> {
  await em.execute(`insert into test_result (execution_id, value) values (?, ?)`, [execution.id, JSON.stringify(result)]);
}

export const TEST_RESULT_TABLE = `create table if not exists test_result (id serial primary key, execution_id uuid not null, value text not null)`;

export function scenarioHandlers(scenarios: Map<string, Scenario>): ExecutionHandler[] {
  return EXECUTION_TYPES.map((type) => ({
    type,
    run: (ctx) => {
      const s = scenarios.get(ctx.execution.type_id ?? '');
      if (!s) throw new Error(`no scenario for ${ctx.execution.type_id}`);
      return s.run(ctx);
    },
    commit: async (em, execution, result) => {
      const s = scenarios.get(execution.type_id ?? '');
      await (s?.commit ?? writeTestResult)(em, execution, result);
    },
  }));
}

export interface TestWorker {
  orm: MikroORM;
  boss: PgBoss;
  stop(): Promise<void>;
}

/** A worker on the database at `dbUrl`: creates the queues and works them with the given handlers. */
export async function startTestWorker(
  dbUrl: string,
  config: Config,
  handlers: readonly ExecutionHandler[],
  opts: RunnerOptions & { superviseIntervalSeconds?: number } = {},
): Promise<TestWorker> {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const orm = await MikroORM.init(ormConfig(dbUrl, { logger: () => {}, pool: { min: 0, max: 10 } }));
  const boss = await startBoss(dbUrl, logger, {
    supervise: true,
    listen: true,
    superviseIntervalSeconds: opts.superviseIntervalSeconds ?? 1,
  });
  const defs = executionJobDefinitions(handlers, { cancelPollMs: opts.cancelPollMs ?? 100, progressMs: opts.progressMs });
  await createQueues(boss, defs, config);
  await startWorkers(boss, defs, { orm, logger, boss, config });
  return {
    orm,
    boss,
    async stop() {
      // Bounded: a handler still holding a connection (an aborted run awaiting its provider) would
      // keep pool.end() waiting; the test database is then dropped WITH (FORCE), which ends those
      // connections and lets the close finish in the background (CI once timed out here at 60 s).
      await boundedTeardown(boss.stop({ graceful: false }), "the test worker's pg-boss stop");
      await boundedTeardown(orm.close(), "the test worker's ORM close");
    },
  };
}

/** Polls until `check` answers something other than undefined (the worker runs in the background). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
