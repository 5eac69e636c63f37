import { z } from 'zod';
import { EXECUTION_TYPES, type ExecutionType } from '@dealscout/shared/domain';

/** One pg-boss queue per execution type. */
export function executionQueue(type: ExecutionType): string {
  return `execution.${type}`;
}

/** Where an execution's job goes when its retries are spent (or it expired each time): it becomes an error notice. */
export const EXECUTION_DEAD_LETTER_QUEUE = 'execution.dead-letter';

/** The payload of an execution job (the job's id is the execution's id). */
export const ExecutionJobData = z.object({
  executionId: z.uuid(),
  organizationId: z.uuid(),
  type: z.enum(EXECUTION_TYPES),
  /** The row's place in its run (the table's order; 0 first): the worker starts a batch's rows in this order. */
  order: z.number().int().min(0).optional(),
});
export type ExecutionJobData = z.infer<typeof ExecutionJobData>;
