// The benchmark's worker process: the app's own entry point (server/src/main.ts, run here with
// `--role worker`) with one more execution handler, a no-op for the 'list' type, registered before
// the job registry is built. No product handler exists for that type yet (handlers arrive with
// their modules), so the benchmark brings the cheapest one: it measures the plumbing — claim,
// status events, completion, pg-boss — not a handler's work.
import { executionHandlers } from '../../../server/src/modules/executions/handlers';
import { defineExecutionHandler, type ExecutionHandler } from '../../../server/src/modules/executions/runner';

export const BENCH_EXECUTION_TYPE = 'list' as const;

const noop = defineExecutionHandler({ type: BENCH_EXECUTION_TYPE, run: async () => null });
// The registry reads this list when it is first imported (by main.ts, below).
(executionHandlers as ExecutionHandler[]).push(noop as ExecutionHandler);

await import('../../../server/src/main');
