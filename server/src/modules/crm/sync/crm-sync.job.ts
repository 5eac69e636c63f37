// The CRM sync handler of worker processes (handler.ts), with the adapters from the process's configuration.
import { createCrmSyncHandler } from './handler';

export const crmSyncExecutionHandler = createCrmSyncHandler();
