import type { ExecutionHandler } from './runner';
import { enrichmentExecutionHandler } from '../enrichments/handler.registration';
import { playExecutionHandler } from '../plays/handler.registration';
import { scoreExecutionHandler } from '../scoring/handler';
import { listExecutionHandler } from '../lists/list-execution.handler';
import { crmSyncExecutionHandler } from '../crm-sync/handler';

/**
 * The execution handlers of the product, one per type, added by the modules that own the types
 * (enrichments, plays, lists, scoring) as they arrive. Until a type has one, its queue exists with
 * its retry, dead-letter and concurrency settings, but no worker takes its jobs.
 */
export const executionHandlers: readonly ExecutionHandler[] = [
  enrichmentExecutionHandler as ExecutionHandler,
  playExecutionHandler as ExecutionHandler,
  scoreExecutionHandler as ExecutionHandler,
  listExecutionHandler as ExecutionHandler,
  crmSyncExecutionHandler as ExecutionHandler,
];
