import type { JobDefinition } from './definitions';
import { cleanupJob } from './cleanup.job';

/** Every job of the product; later modules add theirs here. */
export const jobDefinitions: readonly JobDefinition[] = [cleanupJob as JobDefinition];
