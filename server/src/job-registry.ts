import type { JobDefinition } from './jobs/definitions';
import { cleanupJob } from './jobs/cleanup.job';
import { executionJobDefinitions } from './modules/executions/runner';
import { executionHandlers } from './modules/executions/handlers';
import { integrationExpiryJob } from './modules/notifications/integration-expiry';
import { realtimePruneJob } from './modules/realtime/prune.job';
import { executeRestDeadLetterJob, executeRestJob } from './modules/enrichments/execute';
import { emailSendJob } from './modules/email-send/send.job';
import { replyMailboxJob, replySweepJob } from './modules/email-send/replies';
import { importSweepJob } from './modules/lists/import-sweep';

/** Every job of the product; later modules add theirs here (execution handlers go to modules/executions/handlers.ts). */
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
