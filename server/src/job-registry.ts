// Every job of the product, in one list. A job's entry is a `*.job.ts` file in the module that owns
// it: a pg-boss job (defineJob: queue, schema, schedule, handler) or an execution handler (one per
// execution type, run by the generic runner in modules/executions). A worker process starts them all.
import type { JobDefinition } from './jobs/definitions';
import { cleanupJob } from './jobs/cleanup.job';
import { executionJobDefinitions, type ExecutionHandler } from './modules/executions/runner';
import { enrichmentExecutionHandler } from './modules/enrichments/enrichment.job';
import { executeRestDeadLetterJob, executeRestJob } from './modules/enrichments/execute-rest.job';
import { playExecutionHandler } from './modules/plays/play.job';
import { scoreExecutionHandler } from './modules/scoring/score.job';
import { listExecutionHandler } from './modules/lists/list.job';
import { importSweepJob } from './modules/lists/import-sweep.job';
import { crmSyncExecutionHandler } from './modules/crm/sync/crm-sync.job';
import { emailSendJob } from './modules/email/send/send.job';
import { replyMailboxJob, replySweepJob } from './modules/email/replies/replies.job';
import { integrationExpiryJob } from './modules/notifications/integration-expiry.job';
import { realtimePruneJob } from './modules/realtime/prune.job';

/** One handler per execution type; a type without one keeps its queue's settings but no worker takes its jobs. */
export const executionHandlers: readonly ExecutionHandler[] = [
  enrichmentExecutionHandler as ExecutionHandler,
  playExecutionHandler as ExecutionHandler,
  scoreExecutionHandler as ExecutionHandler,
  listExecutionHandler as ExecutionHandler,
  crmSyncExecutionHandler as ExecutionHandler,
];

export const jobDefinitions: readonly JobDefinition[] = [
  cleanupJob as JobDefinition,
  ...executionJobDefinitions(executionHandlers),
  integrationExpiryJob as JobDefinition,
  realtimePruneJob as JobDefinition,
  // Its dead-letter queue first: a queue must exist before one that names it.
  executeRestDeadLetterJob as JobDefinition,
  executeRestJob as JobDefinition,
  emailSendJob as JobDefinition,
  replyMailboxJob as JobDefinition,
  replySweepJob as JobDefinition,
  importSweepJob as JobDefinition,
];
