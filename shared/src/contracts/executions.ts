import { z } from 'zod';
import { EXECUTION_TYPES, EXECUTION_STATUSES, EXECUTION_ENTITY_TYPES, EXECUTION_MESSAGES } from '../domain/executions';

export const ExecutionTypeSchema = z.enum(EXECUTION_TYPES);
export const ExecutionStatusSchema = z.enum(EXECUTION_STATUSES);
export const ExecutionEntityTypeSchema = z.enum(EXECUTION_ENTITY_TYPES);

/** An execution record (spec 002 §3): the same shape in answers and in realtime events. */
export const ExecutionDto = z.object({
  id: z.string(),
  type: ExecutionTypeSchema,
  typeId: z.string().nullable(),
  entityType: ExecutionEntityTypeSchema,
  entityId: z.string().nullable(),
  status: ExecutionStatusSchema,
  statusMessage: z.string().nullable(),
  /** Rows done and rows in all, for executions that report progress (null total = unknown). */
  progress: z.object({ processed: z.number(), total: z.number().nullable() }),
  /** True while the execution can still change (the client keeps its realtime node). */
  listening: z.boolean(),
  /** The retry attempt that last ran it (0 = first). */
  attempt: z.number(),
  createdById: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** The run it belongs to (started with others over many rows), when any. */
  runId: z.string().nullable().optional(),
  /** False for work that cannot be stopped once started (a CSV upload is added whole or not at all). */
  cancellable: z.boolean().optional(),
});
export type ExecutionDto = z.infer<typeof ExecutionDto>;

const executionId = z.uuid({ message: EXECUTION_MESSAGES.notFound });

// POST /api/v1/execution/cancel (any type), POST /api/v1/play/execution/cancel (plays)
export const CancelExecutionBody = z.object({ executionId });
export type CancelExecutionBody = z.infer<typeof CancelExecutionBody>;
export const ExecutionResponse = z.object({ success: z.literal(true), message: z.string(), execution: ExecutionDto });
export type ExecutionResponse = z.infer<typeof ExecutionResponse>;

// GET /api/v1/execution/{id}
export const GetExecutionResponse = z.object({ success: z.literal(true), execution: ExecutionDto });

// POST /api/v1/execution/active — the executions still running, to restore realtime nodes after a reload.
export const ActiveExecutionsBody = z.object({
  type: ExecutionTypeSchema.optional(),
  typeId: z.uuid().optional(),
  entityType: ExecutionEntityTypeSchema.optional(),
  entityIds: z.array(z.uuid()).max(1000).optional(),
  limit: z.number().int().min(1).max(1000).default(500),
});
export type ActiveExecutionsBody = z.input<typeof ActiveExecutionsBody>;
export const ExecutionsResponse = z.object({ success: z.literal(true), executions: z.array(ExecutionDto) });
export type ExecutionsResponse = z.infer<typeof ExecutionsResponse>;

/**
 * The progress of a long run (POST /api/v1/execution/progress, and the 'run.progress' realtime
 * event on the run's executions path): a run of many executions (kind 'run': an enrichment or a
 * play over many rows) or one execution that reports its own rows (kind 'execution': a list
 * source, a score run, a CRM sync). Rate and time left are the client's (shared/src/domain/progress.ts).
 */
export const RunProgressDto = z.object({
  id: z.string(),
  kind: z.enum(['run', 'execution']),
  type: ExecutionTypeSchema,
  typeId: z.string().nullable(),
  entityType: ExecutionEntityTypeSchema,
  /** running; completed (every row settled); cancelled; error (an execution that failed as a whole). */
  status: z.enum(['running', 'completed', 'cancelled', 'error']),
  /** Rows in all (null: not known yet). */
  total: z.number().nullable(),
  /** Rows finished (completed). */
  done: z.number(),
  failed: z.number(),
  /** Rows that will not run (cancelled before they started). */
  cancelled: z.number(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Whether Cancel is offered while it runs (not for a CSV upload, added whole or not at all). */
  cancellable: z.boolean().optional(),
});
export type RunProgressDto = z.infer<typeof RunProgressDto>;

// POST /api/v1/execution/progress — the runs asked for (ids of runs or of executions), or without
// ids the signed-in user's runs that are running or finished in the last ten minutes, newest first.
export const RunProgressBody = z.object({ ids: z.array(z.uuid()).max(50).optional() });
export type RunProgressBody = z.input<typeof RunProgressBody>;
export const RunProgressResponse = z.object({ success: z.literal(true), runs: z.array(RunProgressDto) });
export type RunProgressResponse = z.infer<typeof RunProgressResponse>;

// POST /api/v1/execution/run/cancel — its rows still waiting do not run; the run reads cancelled.
export const CancelRunBody = z.object({ runId: z.uuid({ message: EXECUTION_MESSAGES.notFound }) });
export type CancelRunBody = z.infer<typeof CancelRunBody>;
export const CancelRunResponse = z.object({ success: z.literal(true), message: z.string(), run: RunProgressDto });
export type CancelRunResponse = z.infer<typeof CancelRunResponse>;
