// The enrichment handler of worker processes: the LLM port from the llm module and the agents'
// outside-data ports built once per process from the environment's configuration.
import { createEnrichmentHandler } from './handler';

export const enrichmentExecutionHandler = createEnrichmentHandler({});
