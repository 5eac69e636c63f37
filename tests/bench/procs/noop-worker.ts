// The benchmark's worker process: the app's own entry point (server/src/main.ts, run here with
// `--role worker`) with the 'list' type's handler replaced by a no-op before the job registry is
// built (every type has a product handler now; the list one would call a data
// provider), so the benchmark measures the plumbing — claim, status events, completion, pg-boss —
// not a handler's work.
import { executionHandlers } from '../../../server/src/job-registry';
import { defineExecutionHandler, type ExecutionHandler } from '../../../server/src/modules/executions/runner';

export const BENCH_EXECUTION_TYPE = 'list' as const;

const noop = defineExecutionHandler({ type: BENCH_EXECUTION_TYPE, run: async () => null });
// The registry reads this list when it is first imported (by main.ts, below).
const handlers = executionHandlers as ExecutionHandler[];
const at = handlers.findIndex((h) => h.type === BENCH_EXECUTION_TYPE);
if (at >= 0) handlers.splice(at, 1, noop as ExecutionHandler);
else handlers.push(noop as ExecutionHandler);

await import('../../../server/src/main');
