// The enrichment handler of worker processes: the LLM port from the llm module and the agents'
// outside-data ports (createAgentPorts), both from the process's configuration (the environment).
import { createEnrichmentHandler } from './handler';

export const enrichmentExecutionHandler = createEnrichmentHandler({});
